import MiniSearch from 'minisearch';
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
  /** Full-text search over the given fields (all indexed fields when omitted), best first. */
  search(query: string, fields?: readonly SearchField[]): readonly ScoredId[];
  /** Catalog books whose full title appears in `text` as whole words, longest titles first. */
  titlesIn(text: string, options?: { readonly anyCase?: boolean }): readonly Book[];
  /** Catalog authors named in `text`, by full name or by a distinctive surname. */
  authorsIn(text: string): readonly string[];
  /** Catalog subjects named in `text`, directly or by an everyday word ("funny" → humor). */
  subjectsIn(text: string): readonly string[];
  /** How telling a subject is: high for rare subjects ("evolution"), low for common ones ("classic"). */
  subjectWeight(subject: string): number;
  /** The books of one author (case-insensitive). */
  byAuthor(author: string): readonly Book[];
}

/** The fields minisearch indexes. */
export type SearchField = 'title' | 'authors' | 'subjects' | 'description';

const FIELDS: readonly SearchField[] = ['title', 'authors', 'subjects', 'description'];

/** Lower-cases and strips punctuation and diacritics so that matching is forgiving. */
export function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function containsWords(haystack: string, needle: string): boolean {
  return needle !== '' && ` ${haystack} `.includes(` ${needle} `);
}

// Surnames that are also common English words would match ordinary questions.
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
]);

/**
 * Builds the catalog and its minisearch index (title and authors boosted, fuzzy and prefix matching).
 * @example
 * const catalog = createCatalog(JSON.parse(readFileSync('catalog.json', 'utf8')));
 * catalog.search('dystopian surveillance');
 */
export function createCatalog(books: readonly Book[]): Catalog {
  const byId = new Map(books.map((b) => [b.id, b]));
  const index = new MiniSearch<Book>({
    fields: [...FIELDS],
    extractField: (doc, field) => {
      const value = (doc as unknown as Record<string, unknown>)[field];
      return Array.isArray(value) ? value.join(' ') : String(value ?? '');
    },
    searchOptions: { boost: { title: 3, authors: 2.5, subjects: 1.5 }, fuzzy: 0.2, prefix: true },
  });
  index.addAll([...books]);

  const titles = books
    .map((book) => ({ book, key: normalise(book.title) }))
    .sort((a, b) => b.key.length - a.key.length);
  const authors = new Map<string, string>();
  for (const book of books) {
    for (const author of book.authors) authors.set(normalise(author), author);
  }
  const surnames = new Map<string, Set<string>>();
  for (const [key, author] of authors) {
    const surname = key.split(' ').at(-1) ?? '';
    if (surname.length < 4 || COMMON_WORDS.has(surname)) continue;
    const set = surnames.get(surname) ?? new Set<string>();
    set.add(author);
    surnames.set(surname, set);
  }
  const subjects = new Map<string, string>();
  const counts = new Map<string, number>();
  for (const book of books) {
    for (const subject of book.subjects) {
      subjects.set(normalise(subject), subject);
      counts.set(subject, (counts.get(subject) ?? 0) + 1);
    }
  }
  const known = new Set(subjects.values());
  const everyday = Object.entries(SUBJECT_WORDS).filter(([, subject]) => known.has(subject));

  return {
    books,
    get: (id) => byId.get(id),
    search: (query, fields) =>
      index
        .search(query, fields ? { fields: [...fields] } : {})
        .map((r) => ({ id: String(r.id), score: r.score })),
    titlesIn(text, options = {}) {
      let rest = ` ${normalise(text)} `;
      const found: Book[] = [];
      for (const { book, key } of titles) {
        // Two-letter titles ("It", "Us") would match ordinary words in almost any question.
        if (key.length < 3) continue;
        // One-word titles ("Wild", "Dawn") are ordinary words too: they count only when capitalised, unless
        // the caller has nothing better to go on (`anyCase`).
        if (
          !key.includes(' ') &&
          !options.anyCase &&
          !new RegExp(`\\b${escapeRegExp(book.title)}\\b`).test(text)
        ) {
          continue;
        }
        if (containsWords(rest, key)) {
          found.push(book);
          rest = rest.replace(` ${key} `, ' | ');
        }
      }
      return found;
    },
    authorsIn(text) {
      const norm = normalise(text);
      const found = new Set<string>();
      for (const [key, author] of authors) if (containsWords(norm, key)) found.add(author);
      if (found.size === 0) {
        for (const [surname, names] of surnames) {
          if (containsWords(norm, surname) && names.size === 1) found.add([...names][0] as string);
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
      for (const [key, subject] of subjects) if (containsWords(rest, key)) found.add(subject);
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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
