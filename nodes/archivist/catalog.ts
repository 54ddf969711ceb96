import { authorLookup } from './author-lookup.ts';
import { type CatalogKeys, catalogKeysOf, fitsCatalog, hasCurrentProbe } from './catalog-keys.ts';
import { normalise } from './normalise.ts';
import {
  buildSearchIndex,
  FIELDS,
  loadSearchIndex,
  type SearchField,
  storedSearchIndexOf,
  tokens,
} from './search-index.ts';
import { type SubjectMatches, subjectLookup } from './subject-lookup.ts';
import { titleLookup } from './title-lookup.ts';
import type { Book } from './types.ts';

/** One full-text match: a book id and minisearch's relevance score. */
export interface ScoredId {
  readonly id: string;
  readonly score: number;
}

/** The book catalog with its full-text index and the lookups the nodes need. */
export interface Catalog {
  readonly books: readonly Book[];
  get(id: string): Book | undefined;
  /** The spellings a loose title is matched by, of each book in the order of `books`, whole title first. */
  readonly titleSpellings: readonly (readonly string[])[];
  /** Full-text search over the given fields (all indexed fields when omitted), best first. */
  search(query: string, fields?: readonly SearchField[]): readonly ScoredId[];
  /**
   * Catalog books whose full title, or one of their other titles ("Война и мир"), appears in `text` as whole
   * words, longest titles first.
   */
  titlesIn(text: string, options?: { readonly anyCase?: boolean }): readonly Book[];
  /** Catalog authors named in `text`, by full name or by a distinctive surname. */
  authorsIn(text: string): readonly string[];
  /** Every catalog author by normalised surname ("le guin", "tolstoy"), for fuzzy matching. */
  readonly surnames: ReadonlyMap<string, ReadonlySet<string>>;
  /** Catalog subjects named in `text`, directly or by an everyday word ("funny" → humor). */
  subjectsIn(text: string): readonly string[];
  /** The subjects `text` names or says in everyday words, the themes it names, and the rest of its words. */
  subjectMatches(text: string): SubjectMatches;
  /** How telling a subject is: high for rare subjects ("evolution"), low for common ones ("classic"). */
  subjectWeight(subject: string): number;
  /** The books of one author (case-insensitive). */
  byAuthor(author: string): readonly Book[];
}

export { namedAsAuthor } from './author-lookup.ts';
export { normalise } from './normalise.ts';
export type { SearchField } from './search-index.ts';

/** A searched word, its singular ("hawks" finds "Hawk") and its possessive ("king" finds "King's"). */
function searchTerms(term: string): string[] {
  const word = term.toLowerCase().replace(/’/g, "'");
  const out = [word];
  if (word.endsWith("'s")) return out;
  if (word.length >= 4 && word.endsWith('s') && !word.endsWith('ss')) out.push(word.slice(0, -1));
  out.push(`${word}'s`);
  return out;
}

/** Queries of at most this many words are searched with singulars and possessives too. */
const VARIANT_WORDS = 2;

/** What {@link storedIndexOf} gives: the stored full-text index and the catalog's keys. */
interface StoredIndex {
  readonly search: unknown;
  readonly keys: unknown;
}

/**
 * Names how a stored index was built (its fields, how they are read, and the form it is stored in): an
 * index stored under another name is built again, not loaded.
 */
export const INDEX_FORMAT = `minisearch-tree:${FIELDS.join(',')}:v4`;

/**
 * The full-text index of `books` and the keys of their titles, authors and subjects, as plain JSON data, to
 * store and give back to {@link createCatalog}, so that a program answering one question does not index the
 * whole catalog first.
 * @example
 * writeFileSync('catalog.index.json', JSON.stringify(storedIndexOf(books)));
 */
export function storedIndexOf(books: readonly Book[]): unknown {
  const stored: StoredIndex = { search: storedSearchIndexOf(books), keys: catalogKeysOf(books) };
  return stored;
}

/**
 * Whether `stored` (from {@link storedIndexOf}) holds keys computed by the rules of this code: a stored
 * index from before a change to how titles, authors or subjects are normalised is built again.
 */
export function keysAreCurrent(stored: unknown): boolean {
  return hasCurrentProbe((stored as Partial<StoredIndex> | null)?.keys);
}

/**
 * Builds the catalog and its minisearch index (title and authors boosted, fuzzy and prefix matching).
 * `storedIndex` is {@link storedIndexOf} of these very books, read back from where it was stored; the
 * caller makes sure it belongs to them (a stored index of other books would find the wrong ones).
 * @example
 * const catalog = createCatalog(JSON.parse(readFileSync('catalog.json', 'utf8')));
 * catalog.search('dystopian surveillance');
 */
export function createCatalog(books: readonly Book[], storedIndex?: unknown): Catalog {
  const byId = new Map(books.map((b) => [b.id, b]));
  const stored = storedIndex as Partial<StoredIndex> | undefined;
  const index = stored === undefined ? buildSearchIndex(books) : loadSearchIndex(stored.search);
  // Stored keys that do not fit these books (of other books, or computed by other rules) are computed again.
  const keys: CatalogKeys =
    stored !== undefined && fitsCatalog(stored.keys, books.length) ? stored.keys : catalogKeysOf(books);

  const titlesIn = titleLookup(books, keys);
  const { surnames, authorsIn } = authorLookup(keys.authors);
  const counts = new Map<string, number>();
  for (const book of books) {
    for (const subject of book.subjects) counts.set(subject, (counts.get(subject) ?? 0) + 1);
  }
  const subjectMatches = subjectLookup(keys.subjects);

  return {
    books,
    titleSpellings: keys.spellings,
    get: (id) => byId.get(id),
    surnames,
    search: (query, fields) =>
      index
        .search(query, {
          ...(fields ? { fields: [...fields] } : {}),
          // A topic of a word or two ("hawks", "genes") is found in its other forms too; in a longer query
          // the extra forms would outweigh the words themselves.
          ...(tokens(query).length <= VARIANT_WORDS ? { processTerm: searchTerms } : {}),
        })
        .map((r) => ({ id: String(r.id), score: r.score })),
    titlesIn,
    authorsIn,
    subjectsIn(text) {
      const { subjects: named, themes } = subjectMatches(text);
      return [...new Set([...named, ...themes.flatMap((t) => t.subjects)])];
    },
    subjectMatches,
    subjectWeight(subject) {
      // Inverse document frequency: a subject shared by every book says nothing about likeness.
      return Math.log((books.length + 1) / ((counts.get(subject) ?? 0) + 1));
    },
    byAuthor(author) {
      const key = normalise(author);
      return books.filter((b) => b.authors.some((a) => normalise(a) === key));
    },
  };
}
