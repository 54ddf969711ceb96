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
import { SUBJECT_WORDS } from './subject-words.ts';
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
  /** Catalog books whose full title appears in `text` as whole words, longest titles first. */
  titlesIn(text: string, options?: { readonly anyCase?: boolean }): readonly Book[];
  /** Catalog authors named in `text`, by full name or by a distinctive surname. */
  authorsIn(text: string): readonly string[];
  /** Every catalog author by normalised surname ("le guin", "tolstoy"), for fuzzy matching. */
  readonly surnames: ReadonlyMap<string, ReadonlySet<string>>;
  /** Catalog subjects named in `text`, directly or by an everyday word ("funny" → humor). */
  subjectsIn(text: string): readonly string[];
  /** How telling a subject is: high for rare subjects ("evolution"), low for common ones ("classic"). */
  subjectWeight(subject: string): number;
  /** The books of one author (case-insensitive). */
  byAuthor(author: string): readonly Book[];
}

export { normalise } from './normalise.ts';
export type { SearchField } from './search-index.ts';

function containsWords(haystack: string, needle: string): boolean {
  return needle !== '' && ` ${haystack} `.includes(` ${needle} `);
}

// Surnames that are also common English words ("more like this", "a swift read", "birthday card"): they
// name the author only where the sentence is about an author (see `namedAsAuthor`).
const COMMON_WORDS = new Set([
  'king',
  'wells',
  'london',
  'young',
  'little',
  'brown',
  'white',
  'green',
  'hope',
  'rice',
  'more',
  'french',
  'card',
  'swift',
  'hardy',
  'sacks',
  'diamond',
  'frost',
  'lee',
  'grant',
  'bacon',
  'wolf',
  'hill',
  'banks',
  'lewis',
  'mann',
  'moore',
  'carter',
  'miller',
  'march',
  'gay',
  'cross',
  'wood',
  'stone',
  'hunter',
]);

/** Particles that belong to a surname ("Le Guin", "de Beauvoir"). */
const PARTICLES = new Set(['le', 'la', 'de', 'du', 'van', 'von', 'der', 'del', 'di', 'da']);

/** Surnames that are also the adjective of a people or a language ("Tana French", "French novels"). */
const NATIONALITIES = new Set(['french', 'english', 'german', 'irish', 'welsh', 'dutch', 'british', 'roman']);
const WRITERS_AFTER =
  /^[\s-]+(?:authors?|writers?|novelists?|poets?|literature|fiction|novels?|books?|poetry|language)\b/i;
const AFTER_PREPOSITION = /\b(?:from|in|into|about|of|on|set in|like)\s+$/i;

/**
 * Whether `surname` (a normalised word) is used as an author's name in `text` as written: after "by",
 * capitalised inside the sentence ("the Harper Lee novel"), or capitalised first and possessive or followed
 * by "on" ("Swift's satire", "Diamond on why societies collapse").
 */
export function namedAsAuthor(text: string, surname: string): boolean {
  for (const m of text.matchAll(new RegExp(`\\b${escapeRegExp(surname)}\\b`, 'gi'))) {
    const at = m.index ?? 0;
    const before = text.slice(0, at);
    const after = text.slice(at + m[0].length);
    // "by French authors", "Russian writers": a word before what is written is an adjective.
    if (NATIONALITIES.has(surname) && WRITERS_AFTER.test(after)) continue;
    if (/\bby\s+$/i.test(before)) return true;
    if (!/^\p{Lu}/u.test(m[0])) continue;
    // "translated from French", "set in London": a capital after a preposition is a place or a language.
    if (AFTER_PREPOSITION.test(before)) continue;
    if (before.trim() !== '' && !/[.!?:]\s*$/.test(before)) return true;
    if (/^(['’]s\b|\s+on\b)/.test(after)) return true;
  }
  return false;
}

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
export const INDEX_FORMAT = `minisearch-tree:${FIELDS.join(',')}:v3`;

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

  const titles = books
    .map((book, at) => ({ book, key: keys.titles[at] as string }))
    .sort((a, b) => b.key.length - a.key.length);
  // The capitalised whole-word pattern of each one-word title, compiled on first use and kept: every question
  // is checked against every title.
  const capitalised = new Map<Book, RegExp>();
  const asWritten = (book: Book): RegExp => {
    let pattern = capitalised.get(book);
    if (pattern === undefined) {
      pattern = new RegExp(`\\b${escapeRegExp(book.title)}\\b`);
      capitalised.set(book, pattern);
    }
    return pattern;
  };
  const authors = new Map(keys.authors);
  const surnames = new Map<string, Set<string>>();
  for (const [key, author] of authors) {
    const words = key.split(' ');
    const last = words.at(-1) ?? '';
    const before = words.at(-2) ?? '';
    const surname = PARTICLES.has(before) ? `${before} ${last}` : last;
    if (surname.length < 3) continue;
    const set = surnames.get(surname) ?? new Set<string>();
    set.add(author);
    surnames.set(surname, set);
  }
  const subjects = new Map(keys.subjects);
  const counts = new Map<string, number>();
  for (const book of books) {
    for (const subject of book.subjects) counts.set(subject, (counts.get(subject) ?? 0) + 1);
  }
  const subjectKeys = [...subjects].sort(([a], [b]) => b.length - a.length);
  const known = new Set(subjects.values());
  const everyday = Object.entries(SUBJECT_WORDS).filter(([, subject]) => known.has(subject));

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
    titlesIn(text, options = {}) {
      let rest = ` ${normalise(text)} `;
      const found: Book[] = [];
      for (const { book, key } of titles) {
        // Two-letter titles ("It", "Us") would match ordinary words in almost any question.
        if (key.length < 3) continue;
        if (!containsWords(rest, key)) continue;
        // One-word titles ("Wild", "Dawn") are ordinary words too: they count only when capitalised, unless
        // the caller has nothing better to go on (`anyCase`).
        if (!key.includes(' ') && !options.anyCase && !asWritten(book).test(text)) continue;
        found.push(book);
        rest = rest.replace(` ${key} `, ' | ');
      }
      return found;
    },
    authorsIn(text) {
      // "John Green's novels": the possessive is not part of the name.
      const norm = normalise(text.replace(/['’]s\b/g, ''));
      const found = new Set<string>();
      for (const [key, author] of authors) if (containsWords(norm, key)) found.add(author);
      if (found.size === 0) {
        for (const [surname, names] of surnames) {
          if (!containsWords(norm, surname)) continue;
          // A surname several authors share ("Walker") names them all, but only in a sentence about an author.
          if (names.size > 1) {
            if (namedAsAuthor(text, surname)) for (const name of names) found.add(name);
            continue;
          }
          // A surname that is an ordinary word, or too short to be telling, needs a sentence about an author.
          const plain = COMMON_WORDS.has(surname) || surname.length < 4;
          if (plain && !namedAsAuthor(text, surname)) continue;
          // "Dan Brown" is not Dee Brown: a capitalised first name that is not the author's is someone else.
          if (otherFirstName(text, surname, [...names][0] as string)) continue;
          found.add([...names][0] as string);
        }
      }
      return [...found];
    },
    subjectsIn(text) {
      let rest = ` ${normalise(text)} `;
      const found = new Set<string>();
      // An everyday phrase wins over the subject words inside it: a "love story" is romance, not love.
      for (const [word, subject] of everyday) {
        if (!containsWords(rest, word)) continue;
        found.add(subject);
        rest = rest.replaceAll(` ${word} `, ' | ');
      }
      // Longer subjects first: "science fiction" is not also "science".
      for (const [key, subject] of subjectKeys) {
        if (!containsWords(rest, key)) continue;
        found.add(subject);
        rest = rest.replaceAll(` ${key} `, ' | ');
      }
      return [...found];
    },
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

function otherFirstName(text: string, surname: string, author: string): boolean {
  const own = new Set(normalise(author).split(' '));
  const before = text.match(new RegExp(`(\\p{Lu}[\\p{L}.]*)\\s+${escapeRegExp(surname)}\\b`, 'iu'));
  const first = before?.[1];
  if (first === undefined || !/^\p{Lu}/u.test(first)) return false;
  return !own.has(normalise(first)) && !/^(The|A|An|By|And|Of)$/i.test(first);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
