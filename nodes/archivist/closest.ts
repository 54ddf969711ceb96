/**
 * The closest real matches to a title the catalog does not hold: the named author's books, or books whose
 * titles share a telling word with it, together with the rest of their series. Pure.
 */
import { type Catalog, normalise } from './catalog.ts';
import { sameWord } from './text-match.ts';
import type { Book } from './types.ts';

/** Closest matches offered after an honest miss. */
export const CLOSEST_LIMIT = 5;

// Words too common in titles to make two books alike.
const PLAIN = new Set([
  'the',
  'and',
  'with',
  'from',
  'into',
  'what',
  'when',
  'where',
  'your',
  'book',
  'story',
  'life',
]);

function telling(text: string): string[] {
  return normalise(text)
    .split(' ')
    .filter((w) => w.length >= 4 && !PLAIN.has(w));
}

/**
 * Catalog books closest to the missing `name`: `author`'s books in publication order when an author is
 * named, else the books whose titles share the most telling words with it, their series after them.
 * @example
 * closestTo('Heretics of Dune', catalog).map((b) => b.id) // ['dune', 'dune-messiah', …]
 */
export function closestTo(name: string, catalog: Catalog, author?: string): Book[] {
  if (author !== undefined) {
    return [...catalog.byAuthor(author)].sort((a, b) => a.year - b.year).slice(0, CLOSEST_LIMIT);
  }
  const words = telling(name);
  if (words.length === 0) return [];
  const scored = catalog.books
    .map((book) => {
      const title = telling(book.title);
      return { book, shared: words.filter((w) => title.some((t) => sameWord(w, t))).length };
    })
    .filter((s) => s.shared > 0)
    .sort((a, b) => b.shared - a.shared || a.book.year - b.book.year);
  const out: Book[] = [];
  const add = (b: Book) => {
    if (!out.includes(b) && out.length < CLOSEST_LIMIT) out.push(b);
  };
  for (const { book } of scored) {
    add(book);
    if (book.series === undefined) continue;
    const mates = catalog.books
      .filter((b) => b.series === book.series)
      .sort((a, b) => (a.seriesNumber ?? 0) - (b.seriesNumber ?? 0));
    for (const mate of mates) add(mate);
  }
  return out;
}
