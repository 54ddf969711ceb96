/**
 * The normalised keys the catalog's lookups compare questions with: each title as matched whole and as
 * read loosely, and each author and subject. They follow from the books alone, so they are computed once
 * and stored with the full-text index instead of at every start.
 */
import { normalise } from './normalise.ts';
import { isCyrillic, latinOf } from './scripts.ts';
import { spellings, withoutArticles } from './text-match.ts';
import type { Book } from './types.ts';

/** The keys of a catalog's books, each list in the order of the books (authors and subjects: first seen). */
export interface CatalogKeys {
  /** The normalised title of each book. */
  readonly titles: readonly string[];
  /**
   * The spellings of each book's title and of its part before a colon, without articles, whole title first,
   * then those of its other titles.
   */
  readonly spellings: readonly (readonly string[])[];
  /** Each book's other titles, normalised, with Cyrillic ones also in Latin letters. */
  readonly aliases: readonly (readonly string[])[];
  /** Each author by normalised name, also without middle initials ("ursula le guin" for "Ursula K. Le Guin"). */
  readonly authors: readonly (readonly [key: string, author: string])[];
  /** Each subject by normalised name. */
  readonly subjects: readonly (readonly [key: string, subject: string])[];
  /** The keys of {@link PROBE}, as the code that computed these keys gives them ({@link probeKeys}). */
  readonly probe: string;
}

/**
 * Books whose keys take every rule of normalising and spelling: articles, subtitles, digits, Roman numerals,
 * "&", possessives, diacritics, middle initials, particles. Keys stored with other keys of the probe were
 * computed by other code (an earlier version of these rules), and are computed again.
 */
const PROBE: readonly Book[] = [
  ['The Hobbit: or There and Back Again', 'J. R. R. Tolkien', 'Fantasy'],
  ['Slaughterhouse-Five, or the Children’s Crusade', 'Kurt Vonnegut Jr.', 'Science fiction'],
  ['Catch-22 & 1,984 Other Stories', 'Ursula K. Le Guin', 'Coming of age'],
  ['Henry V: Part II, Book IV', 'Gabriel García Márquez', 'Magical realism'],
  ["L'Étranger: Das Ōe's Guide", 'Simone de Beauvoir', 'Philosophy'],
].map(([title, author, subject], at) => ({
  id: `probe-${at}`,
  title: title as string,
  otherTitles: ['Война и мир', 'ノルウェイの森', 'Das Schloß', 'Stanisław, Mœurs'],
  authors: [author as string],
  year: 2000,
  pages: 100,
  subjects: [subject as string],
  description: '',
}));

let probed: string | undefined;

/** The keys of {@link PROBE} as this code computes them, as JSON text. */
export function probeKeys(): string {
  probed ??= JSON.stringify(keysOf(PROBE));
  return probed;
}

/** The spellings a title is matched by ({@link CatalogKeys.spellings}), other titles after the title's own. */
export function titleSpellingsOf(title: string, otherTitles: readonly string[] = []): string[] {
  const head = title.split(':')[0] ?? title;
  const others = aliasesOf(otherTitles).flatMap((alias) => spellings(alias));
  return [...new Set([...spellings(title), ...spellings(head), ...others].map(withoutArticles))].filter(
    (key) => key !== '',
  );
}

/** Other titles normalised, a Cyrillic one also in Latin letters ("voyna i mir"). */
export function aliasesOf(otherTitles: readonly string[]): string[] {
  const keys = otherTitles.map(normalise).filter((key) => key !== '');
  return [...new Set([...keys, ...keys.filter(isCyrillic).map(latinOf)])];
}

/**
 * The keys of `books`.
 * @example
 * catalogKeysOf(books).titles[0] // 'the left hand of darkness'
 */
export function catalogKeysOf(books: readonly Book[]): CatalogKeys {
  return { ...keysOf(books), probe: probeKeys() };
}

function keysOf(books: readonly Book[]): Omit<CatalogKeys, 'probe'> {
  const authors = new Map<string, string>();
  for (const book of books) {
    for (const author of book.authors) authors.set(normalise(author), author);
  }
  for (const [key, author] of [...authors]) {
    const plain = key
      .split(' ')
      .filter((w) => w.length > 1)
      .join(' ');
    if (plain.includes(' ') && !authors.has(plain)) authors.set(plain, author);
  }
  const subjects = new Map<string, string>();
  for (const book of books) {
    for (const subject of book.subjects) subjects.set(normalise(subject), subject);
  }
  return {
    titles: books.map((book) => normalise(book.title)),
    spellings: books.map((book) => titleSpellingsOf(book.title, book.otherTitles)),
    aliases: books.map((book) => aliasesOf(book.otherTitles ?? [])),
    authors: [...authors],
    subjects: [...subjects],
  };
}

/** Whether `stored` keys were computed by the rules of this code (they give the keys of the probe it does). */
export function hasCurrentProbe(stored: unknown): boolean {
  return (stored as Partial<CatalogKeys> | null)?.probe === probeKeys();
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isPair = (value: unknown): boolean =>
  Array.isArray(value) && value.length === 2 && value.every(isString);

/**
 * Whether `stored` has the shape of the keys of a catalog of `count` books, computed as this code computes
 * keys. Whether they are the keys of these very books is the caller's to know (the stored index is tied to
 * the catalog's text).
 */
export function fitsCatalog(stored: unknown, count: number): stored is CatalogKeys {
  const k = stored as Partial<CatalogKeys> | null;
  return (
    typeof k === 'object' &&
    k !== null &&
    hasCurrentProbe(k) &&
    Array.isArray(k.titles) &&
    k.titles.length === count &&
    k.titles.every(isString) &&
    Array.isArray(k.spellings) &&
    k.spellings.length === count &&
    k.spellings.every((s) => Array.isArray(s) && s.length > 0 && s.every(isString)) &&
    Array.isArray(k.aliases) &&
    k.aliases.length === count &&
    k.aliases.every((a) => Array.isArray(a) && a.every(isString)) &&
    Array.isArray(k.authors) &&
    k.authors.every(isPair) &&
    Array.isArray(k.subjects) &&
    k.subjects.every(isPair)
  );
}
