import type { Catalog } from './catalog.ts';
import type {
  AnswerSource,
  Candidate,
  ChatModel,
  Classification,
  Hit,
  Intent,
  Memory,
  StrategyPlan,
} from './types.ts';

/** What the Archivist's nodes get as `ctx.services`. */
export interface ArchivistServices {
  readonly model: ChatModel;
  readonly catalog: Catalog;
}

/** Limits the ranker applies after merging the strategies' hits. */
export interface SearchFilters {
  readonly exclude: readonly string[];
  readonly author?: string;
  readonly maxPages?: number;
  readonly minPages?: number;
}

/** The data of an item of the ask DAG, as the nodes write it step by step (all plain JSON). */
export interface AskData {
  question: string;
  memory?: Memory;
  classification?: Classification;
  intent?: Intent;
  classifiedBy?: 'model' | 'rules';
  strategies?: StrategyPlan[];
  filters?: SearchFilters;
  results?: unknown;
  shortlist?: Candidate[];
  draft?: string;
  repair?: string;
  answer?: string;
  source?: AnswerSource;
  /** What the next turn of a chat remembers of this one. */
  nextMemory?: Memory;
}

/** The data of one scatter child: its strategy as `item`, and the hits it found as `result`. */
export interface SearchData {
  item?: StrategyPlan;
  index?: number;
  result?: Hit[];
}

/** The IRI of an Archivist node. */
export function nodeIri(name: string): string {
  return `urn:switchyard:node:archivist:${name}`;
}
