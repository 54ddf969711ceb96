/**
 * Well-known books a reader may ask for that the bundled catalog does not hold (`well-known-books.json`), with
 * what each book is: its subjects in the catalog's own words, its year, its series. An honest miss goes on
 * with the catalog's books most like the one asked for: a reader asking for "The Da Vinci Code" is offered
 * "Foucault's Pendulum", not a Leonardo biography that shares a title word. These books are never presented
 * or quoted as catalog books, and a catalog that holds one of them answers it as its own.
 */
import { type Catalog, normalise } from './catalog.ts';
import { sameWord, withoutArticles } from './text-match.ts';
import rows from './well-known-books.json' with { type: 'json' };

/** A book the catalog may lack, as a reader would know it. */
export interface WellKnownBook {
  readonly title: string;
  readonly authors: readonly string[];
  /** The year it came out; absent for a book announced but not yet published. */
  readonly year?: number;
  /** Its subjects in the catalog's words; none for a book the catalog's subjects do not describe (a cookbook). */
  readonly subjects: readonly string[];
  readonly series?: string;
  readonly seriesNumber?: number;
  /**
   * Titles of books its readers go on to, where its subjects alone would not find them ("The Da Vinci Code" →
   * "Foucault's Pendulum"): offered first when the catalog holds them.
   */
  readonly like?: readonly string[];
}

/** The well-known books. */
export const WELL_KNOWN_BOOKS: readonly WellKnownBook[] = rows as WellKnownBook[];

/** Words a reader leaves out of a title without meaning another book. */
const LINKING = new Set(['of', 'and', 'in', 'on', 'to', 'for', 'at', 'a', 'an', 'the', 'with', 'from']);
/** A shortened title must name at least this share of the title's own words ("the Deathly Hallows"). */
const MIN_SHARE = 0.5;

function contentWords(key: string): string[] {
  return key.split(' ').filter((w) => w !== '' && !LINKING.has(w));
}

/**
 * The well-known book `name` names, when the catalog does not hold it: the whole title (articles and small
 * typos allowed), or a shortened one that keeps at least half its words and adds none ("the Deathly
 * Hallows"). Undefined for a name that matches none, or a book the catalog holds.
 * @example
 * wellKnownBook('the da vinci code', catalog)?.authors // ['Dan Brown']
 */
export function wellKnownBook(name: string, catalog: Catalog, author?: string): WellKnownBook | undefined {
  const asked = withoutArticles(normalise(name));
  const words = contentWords(asked);
  if (words.length === 0) return undefined;
  let best: { book: WellKnownBook; share: number } | undefined;
  for (const book of WELL_KNOWN_BOOKS) {
    if (author !== undefined && !book.authors.some((a) => normalise(a) === normalise(author))) continue;
    const title = contentWords(withoutArticles(normalise(book.title)));
    const head = contentWords(withoutArticles(normalise(book.title.split(':')[0] ?? book.title)));
    for (const key of [title, head]) {
      const covered = words.every((w) => key.some((t) => sameWord(w, t)));
      const share = words.length / key.length;
      if (!covered || share < MIN_SHARE || words.length > key.length) continue;
      if (best === undefined || share > best.share) best = { book, share };
    }
  }
  if (best === undefined) return undefined;
  // A catalog that holds the book answers it as its own.
  const held = normalise(best.book.title);
  return catalog.books.some((b) => normalise(b.title) === held) ? undefined : best.book;
}

/** The well-known books by `author` (a full name, or a surname alone) the catalog does not hold. */
export function wellKnownBy(author: string, catalog: Catalog): WellKnownBook[] {
  const key = normalise(author);
  const surname = !key.includes(' ');
  const held = new Set(catalog.books.map((b) => normalise(b.title)));
  const theirs = (name: string) => {
    const full = normalise(name);
    return full === key || (surname && full.split(' ').at(-1) === key);
  };
  return WELL_KNOWN_BOOKS.filter((b) => b.authors.some(theirs) && !held.has(normalise(b.title)));
}
