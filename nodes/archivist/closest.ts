/**
 * What follows an honest miss: the catalog's books nearest to the book or author the reader asked for. A
 * well-known book the catalog lacks is followed by its series, its author's books and the books most like it
 * (what it is, not its title's words); a book the Archivist does not know, by nothing unless its name holds a
 * catalog title or series ("Heretics of Dune"), since a shared title word ("Moon", "Da Vinci") says nothing of
 * what a book is. Pure.
 */
import { type Catalog, normalise } from './catalog.ts';
import { type BookProfile, similarity } from './similarity.ts';
import { withoutArticles } from './text-match.ts';
import type { Book } from './types.ts';
import { WELL_KNOWN_BOOKS, type WellKnownBook, wellKnownBook, wellKnownBy } from './well-known-books.ts';

/** Books offered after an honest miss. */
export const CLOSEST_LIMIT = 5;
/** Of those, at most this many of the missing book's series, and of its author's books. */
const SERIES_PLACES = 3;
const AUTHOR_PLACES = 3;

/** What an honest miss knows of what was asked, for its answer. */
export interface MissKnown {
  /** The well-known book asked for, as the reader would know it. */
  readonly book?: Pick<WellKnownBook, 'title' | 'authors' | 'year' | 'series' | 'seriesNumber'>;
  /** Books of the author asked for that the catalog lacks, by title. */
  readonly titles?: readonly string[];
  /** How the books offered relate to it: its series or author first, then books like it. */
  readonly offered: 'related' | 'like' | 'title' | 'author' | 'none';
}

/** The nearest books to a miss, and what the Archivist knows of what was asked. */
export interface Nearest {
  readonly books: readonly Book[];
  readonly known: MissKnown;
}

function byYear(a: Book, b: Book): number {
  return a.year - b.year;
}

function bySeries(a: Book, b: Book): number {
  return (a.seriesNumber ?? 0) - (b.seriesNumber ?? 0);
}

/** Catalog books by how alike they are to `profile`, most alike first, none with no subject in common. */
export function mostLike(profile: BookProfile, catalog: Catalog, skip: (book: Book) => boolean): Book[] {
  return catalog.books
    .filter((b) => !skip(b))
    .map((book) => ({ book, score: similarity(book, profile, catalog) }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.book.year - b.book.year)
    .map((s) => s.book);
}

/** A profile of several well-known books: the subjects most of them share, and their middle year. */
function profileOf(books: readonly WellKnownBook[]): BookProfile {
  const counts = new Map<string, number>();
  for (const b of books) for (const s of b.subjects) counts.set(s, (counts.get(s) ?? 0) + 1);
  // The subjects more than half of them share; a lone book's are all its own.
  const subjects = [...counts].filter(([, n]) => n * 2 > books.length || books.length === 1).map(([s]) => s);
  const years = books.flatMap((b) => (b.year === undefined ? [] : [b.year])).sort((a, b) => a - b);
  return { subjects, ...(years.length > 0 ? { year: years[Math.floor(years.length / 2)] as number } : {}) };
}

/**
 * The nearest catalog books to a well-known book: the books its readers go on to, its series, its author's
 * books, then books like it.
 */
function nearestToKnown(known: WellKnownBook, catalog: Catalog): Book[] {
  const authors = new Set(known.authors.map(normalise));
  const wanted = new Set((known.like ?? []).map(normalise));
  const readAlikes = catalog.books.filter((b) => wanted.has(normalise(b.title)));
  const series = catalog.books
    .filter((b) => known.series !== undefined && b.series === known.series)
    .sort(bySeries)
    .slice(0, SERIES_PLACES);
  const own = catalog.books
    .filter((b) => !series.includes(b) && b.authors.some((a) => authors.has(normalise(a))))
    .sort(byYear)
    .slice(0, AUTHOR_PLACES);
  const taken = new Set([...readAlikes, ...series, ...own]);
  const like = mostLike(
    known,
    catalog,
    (b) => taken.has(b) || (known.series !== undefined && b.series === known.series),
  );
  return [...new Set([...readAlikes, ...series, ...own, ...like])].slice(0, CLOSEST_LIMIT);
}

/** Catalog books whose whole title or series name `name` holds as words ("Heretics of Dune"), with their series. */
function namedInside(name: string, catalog: Catalog): Book[] {
  const asked = ` ${withoutArticles(normalise(name))} `;
  const holds = (key: string) => key.length >= 3 && asked.includes(` ${key} `);
  const found = catalog.books.filter(
    (b) =>
      holds(withoutArticles(normalise(b.title))) ||
      (b.series !== undefined && holds(withoutArticles(normalise(b.series)))),
  );
  const out: Book[] = [];
  for (const book of found.sort(byYear)) {
    const mates =
      book.series === undefined
        ? [book]
        : catalog.books.filter((b) => b.series === book.series).sort(bySeries);
    for (const mate of mates) if (!out.includes(mate)) out.push(mate);
  }
  return out.slice(0, CLOSEST_LIMIT);
}

/** The well-known book a name such as "book 4 of the Harry Potter series" stands for, when it is one. */
function placedIn(name: string, catalog: Catalog): WellKnownBook | undefined {
  const m = name.match(/^book (\d+) of (?:the )?(.+) series$/i);
  if (!m) return undefined;
  const series = normalise(m[2] ?? '');
  const place = Number(m[1]);
  const held = new Set(catalog.books.map((b) => normalise(b.title)));
  return WELL_KNOWN_BOOKS.find(
    (b) =>
      b.series !== undefined &&
      withoutArticles(normalise(b.series)) === withoutArticles(series) &&
      b.seriesNumber === place &&
      !held.has(normalise(b.title)),
  );
}

/**
 * The catalog's books nearest to what the reader named and the catalog lacks: `name` is the title or author
 * as written, `isAuthor` says which, `author` is a catalog author the question also named ("The Idiot by
 * Dostoevsky").
 * @example
 * nearestTo('Oliver Twist', false, catalog).books // Dickens's books the catalog holds
 */
export function nearestTo(name: string, isAuthor: boolean, catalog: Catalog, author?: string): Nearest {
  if (isAuthor) {
    const theirs = wellKnownBy(name, catalog);
    if (theirs.length === 0) return { books: [], known: { offered: 'none' } };
    const like = mostLike(profileOf(theirs), catalog, () => false).slice(0, CLOSEST_LIMIT);
    return {
      books: like,
      known: { titles: theirs.map((b) => b.title), offered: like.length > 0 ? 'like' : 'none' },
    };
  }
  const known =
    wellKnownBook(name, catalog, author) ?? wellKnownBook(name, catalog) ?? placedIn(name, catalog);
  if (known) {
    const books = nearestToKnown(known, catalog);
    const related = books.some(
      (b) =>
        (known.series !== undefined && b.series === known.series) ||
        b.authors.some((a) => known.authors.includes(a)),
    );
    const { title, authors, year, series, seriesNumber } = known;
    return {
      books,
      known: {
        book: {
          title,
          authors,
          ...(year === undefined ? {} : { year }),
          ...(series ? { series } : {}),
          ...(seriesNumber ? { seriesNumber } : {}),
        },
        offered: books.length === 0 ? 'none' : related ? 'related' : 'like',
      },
    };
  }
  if (author !== undefined) {
    const books = [...catalog.byAuthor(author)].sort(byYear).slice(0, CLOSEST_LIMIT);
    return { books, known: { offered: books.length > 0 ? 'author' : 'none' } };
  }
  const inside = namedInside(name, catalog);
  return { books: inside, known: { offered: inside.length > 0 ? 'title' : 'none' } };
}
