/**
 * Finds the catalog's books whose whole title a question names: the title as the catalog writes it, or one of
 * its other titles (the original-language title, in its own script or transliterated: "Cien años de soledad",
 * "Война и мир", "ノルウェイの森", "1984").
 */
import type { CatalogKeys } from './catalog-keys.ts';
import { normalise } from './normalise.ts';
import { containsKey, isUnspaced, replaceKey } from './scripts.ts';
import type { Book } from './types.ts';

/** One key a title is found by. */
interface TitleKey {
  readonly book: Book;
  readonly key: string;
  /** True for one of the book's other titles. */
  readonly alias: boolean;
}

/** Words before a number that make it a year ("published in 1984", "books from 1984"), not a title. */
const BEFORE_YEAR =
  /\b(?:in|from|since|before|after|until|till|published|written|circa|around|year|between|and|than|of)\s+$/i;

/** Options of a title lookup. */
export interface TitlesInOptions {
  /** One-word titles count in lower case too ("tell me about dune"). */
  readonly anyCase?: boolean;
}

/** The book titles `text` names in full, longest first; `keys` are the catalog's keys of `books`. */
export function titleLookup(
  books: readonly Book[],
  keys: Pick<CatalogKeys, 'titles' | 'aliases'>,
): (text: string, options?: TitlesInOptions) => Book[] {
  const titles: TitleKey[] = books
    .flatMap((book, at) => [
      { book, key: keys.titles[at] as string, alias: false },
      ...(keys.aliases[at] ?? []).map((key) => ({ book, key, alias: true })),
    ])
    .sort((a, b) => b.key.length - a.key.length);
  // The capitalised whole-word pattern of each one-word title, compiled on first use and kept: every question
  // is checked against every title.
  const capitalised = new Map<string, RegExp>();
  const asWritten = (word: string): RegExp => {
    let pattern = capitalised.get(word);
    if (pattern === undefined) {
      pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(word)}(?![\\p{L}\\p{N}])`, 'u');
      capitalised.set(word, pattern);
    }
    return pattern;
  };
  return (text, options = {}) => {
    let rest = normalise(text);
    const found: Book[] = [];
    for (const { book, key, alias } of titles) {
      // Two-letter titles ("It", "Us") would match ordinary words in almost any question.
      if (key.length < 3 && !isUnspaced(key)) continue;
      if (found.includes(book) || !containsKey(rest, key)) continue;
      if (!key.includes(' ') && !isUnspaced(key)) {
        // One-word titles ("Wild", "Dawn") are ordinary words too: they count only when capitalised, unless
        // the caller has nothing better to go on (`anyCase`).
        if (!alias && !options.anyCase && !asWritten(book.title).test(text)) continue;
        if (alias && !options.anyCase && !capitalisedIn(text, key)) continue;
        // "books from 1984" asks for a year; "something like 1984" names the book.
        if (/^\d+$/.test(key) && !namedNumber(text, key)) continue;
      }
      found.push(book);
      rest = replaceKey(rest, key, '|');
    }
    return found;
  };
}

/** Whether `text` writes the one-word `key` capitalised (or in digits, or in a script without case). */
function capitalisedIn(text: string, key: string): boolean {
  for (const word of text.match(/[\p{L}\p{N}\p{M}'’]+/gu) ?? []) {
    if (normalise(word) === key && !/^\p{Ll}/u.test(word)) return true;
  }
  return false;
}

/** Whether the number `key` stands in `text` as a name, not as a year or a count. */
function namedNumber(text: string, key: string): boolean {
  for (const m of text.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])${key}(?![\\p{L}\\p{N}'’-])`, 'gu'))) {
    const before = text.slice(0, m.index ?? 0);
    const after = text.slice((m.index ?? 0) + key.length);
    if (BEFORE_YEAR.test(before) || /^\s*(?:s\b|pages?\b|-|–)/i.test(after)) continue;
    return true;
  }
  return false;
}

/**
 * A regular expression source matching `title` as a question may write it: its words in any case (the caller
 * adds the `i` flag), with any punctuation between them.
 * @example
 * new RegExp(titlePattern("The Handmaid's Tale"), 'iu').test('the handmaid’s tale') // true
 */
export function titlePattern(title: string): string {
  const words = title.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
  return words.map(escapeRegExp).join(String.raw`[^\p{L}\p{N}]+`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
