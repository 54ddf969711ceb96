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

/** Limits and preferences the ranker applies after merging the strategies' hits. */
export interface SearchFilters {
  readonly exclude: readonly string[];
  readonly author?: string;
  readonly maxPages?: number;
  readonly minPages?: number;
  /** The book the question names (find, describe): first, followed only by books close to it. */
  readonly anchor?: string;
  /** A book to rank by likeness to: books sharing its telling subjects first. */
  readonly like?: string;
  /** At most this many books by the authors of `like` (a "something like X" is not X's sequels). */
  readonly likeAuthorLimit?: number;
  /** Catalog subjects the question asks for: books having all of them come first. */
  readonly subjects?: readonly string[];
  /** At most this many books by any one author, so that a recommendation offers a choice. */
  readonly perAuthor?: number;
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
