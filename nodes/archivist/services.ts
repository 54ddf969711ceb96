import type { Catalog } from './catalog.ts';
import type { MissKnown } from './closest.ts';
import type { Declined } from './not-books.ts';
import type { NotRecorded } from './not-recorded.ts';
import type { OriginFilter } from './origin.ts';
import type { ThemeMatch } from './subject-lookup.ts';
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
import type { Limit, Unmet } from './unmet.ts';

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
  /** The named book was picked from the last answer ("the second one"): the request in force goes on. */
  readonly picked?: boolean;
  /** The book the question names (find, describe): first, followed only by books close to it. */
  readonly anchor?: string;
  /** A book to rank by likeness to: books sharing its telling subjects first. */
  readonly like?: string;
  /** At most this many books by the authors of `like` (a "something like X" is not X's sequels). */
  readonly likeAuthorLimit?: number;
  /** The form the question names ("a novel", "non-fiction"): books of it come first, and alone when any do. */
  readonly form?: 'fiction' | 'non-fiction';
  /** Catalog subjects the question asks for: books having all of them come first. */
  readonly subjects?: readonly string[];
  /** Themes the question asks about ("grief"): met by a book of one of their subjects, or speaking of them. */
  readonly themes?: readonly ThemeMatch[];
  /** Words of the question's topic that books about it mention ("whales"): books mentioning all come first. */
  readonly terms?: readonly string[];
  /** The question's topic as the reader wrote it ("grief"), for an answer that could not meet it. */
  readonly topic?: string;
  /**
   * What the question asks about that no book of the catalog is about: words of its topic no book mentions,
   * or a kind of book it holds none of ("cookbooks").
   */
  readonly lacking?: { readonly words?: readonly string[]; readonly kind?: string };
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
  /**
   * What the reader named that the catalog does not hold, and what the Archivist knows of it; the shortlist
   * is the nearest real books.
   */
  readonly missing?: { readonly name: string; readonly author: boolean; readonly known?: MissKnown };
  /** The question's limits leave out some books of `list`: the answer is not all the catalog holds. */
  readonly narrowed?: boolean;
  /** What the question asks for that the catalog does not record (an author's gender, awards…). */
  readonly unrecorded?: NotRecorded;
  /** Limits that are what the question asks for, which never give way to offer the nearest books. */
  readonly keep?: readonly Limit[];
  /** The previous request asked again ("another one"): the next turn remembers that request, not this one. */
  readonly again?: boolean;
}

/** The data of an item of the ask DAG, as the nodes write it step by step (all plain JSON). */
export interface AskData {
  /** The question; for a long message, the request read out of it. */
  question: string;
  /** A long message whole, when `question` is the request read out of it. */
  message?: string;
  /** What to ask the reader, when the question refers to an earlier answer that is not there. */
  askBack?: string;
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
  /** What part of the question no book meets, when the shortlist is the nearest books instead. */
  unmet?: Unmet;
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
