import type { Catalog } from './catalog.ts';
import type { Declined } from './not-books.ts';
import type { OriginFilter } from './origin.ts';
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
  /** The current year, for "the last twenty years"; the system date's when absent. */
  readonly year?: () => number;
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
  /** Authors the reader does not want. */
  readonly notAuthors?: readonly string[];
  readonly minYear?: number;
  readonly maxYear?: number;
  /** Every book of an author or a series, in this order: the answer is the whole list, uncapped. */
  readonly list?: readonly string[];
  /** The language, country or audience asked for. */
  readonly origin?: OriginFilter;
  /** What the reader named that the catalog does not hold; the shortlist is the closest real matches. */
  readonly missing?: { readonly name: string; readonly author: boolean };
  /** The question's limits leave out some books of `list`: the answer is not all the catalog holds. */
  readonly narrowed?: boolean;
  /** The previous request asked again ("another one"): the next turn remembers that request, not this one. */
  readonly again?: boolean;
}

/** The data of an item of the ask DAG, as the nodes write it step by step (all plain JSON). */
export interface AskData {
  /** The question; for a long message, the request read out of it. */
  question: string;
  /** A long message whole, when `question` is the request read out of it. */
  message?: string;
  /** Why the question is declined before it is read: not about books, or a long message asking nothing. */
  declined?: Declined | 'unread';
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
  /** Ids of the books the answer presents, in order. */
  presented?: string[];
  /** True when the answer says the catalog does not hold what was asked. */
  miss?: boolean;
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
