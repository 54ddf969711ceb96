/**
 * When no book meets every part of a question: which part could not be met, and the nearest books that meet
 * the rest. The topic is never what gives way: a limit (length, years, origin, audience, author) is let go,
 * the books about the topic nearest to that limit are offered, and the answer says which limit it was. Pure.
 */
import type { Catalog } from './catalog.ts';
import { normalise } from './catalog.ts';
import { meets } from './limits.ts';
import type { SearchFilters } from './services.ts';
import { similarity } from './similarity.ts';
import { coverage } from './topics.ts';
import type { Book } from './types.ts';

/** A limit a question puts on its books. */
export type Limit = 'pages' | 'years' | 'origin' | 'author' | 'notAuthors';

/** The limits tried, in the order they give way: a length or a period is the nearest to meet. */
const LIMITS: readonly Limit[] = ['pages', 'years', 'origin', 'notAuthors', 'author'];

/** What could not be met, for the answer to say. */
export interface Unmet {
  /** The limits no book about the topic meets together with it. */
  readonly limits: readonly Limit[];
  /** True when no book is about the whole topic: the books offered are about part of it. */
  readonly partTopic?: boolean;
}

/**
 * Whether a ranked shortlist leaves part of the question unmet: it is empty though the question asked for
 * books, or none of its books is about the whole topic asked.
 */
export function leavesUnmet(shortlist: readonly Book[], filters: SearchFilters): boolean {
  if (filters.missing !== undefined || filters.lacking?.kind !== undefined) return false;
  if (filters.list !== undefined && filters.list.length === 0) return false;
  if (shortlist.length === 0) return true;
  if (filters.anchor !== undefined) return false;
  // Subjects and themes are what a book is, and must all be met; words of the topic ("an old man alone at
  // sea") are met enough by a book that speaks of some of them.
  const { terms, ...named } = filters;
  const speaks =
    terms === undefined || terms.length === 0 || shortlist.some((b) => coverage(b, { terms }).covered > 0);
  return (
    !speaks ||
    !shortlist.some((b) => {
      const { covered, whole } = coverage(b, named);
      return covered === whole;
    })
  );
}

/** Books the question's limits give, with some let go, and the unmet note. */
export interface Relaxed {
  readonly books: readonly Book[];
  readonly unmet: Unmet;
}

/** `filters` without `limits`. */
export function without(filters: SearchFilters, limits: readonly Limit[]): SearchFilters {
  const f: Record<string, unknown> = { ...filters };
  for (const limit of limits) {
    if (limit === 'pages') {
      delete f.minPages;
      delete f.maxPages;
    }
    if (limit === 'years') {
      delete f.minYear;
      delete f.maxYear;
    }
    if (limit === 'origin') delete f.origin;
    if (limit === 'notAuthors') delete f.notAuthors;
    if (limit === 'author') delete f.author;
  }
  return f as unknown as SearchFilters;
}

function has(filters: SearchFilters, limit: Limit): boolean {
  switch (limit) {
    case 'pages':
      return filters.minPages !== undefined || filters.maxPages !== undefined;
    case 'years':
      return filters.minYear !== undefined || filters.maxYear !== undefined;
    case 'origin':
      return filters.origin !== undefined;
    case 'notAuthors':
      return (filters.notAuthors ?? []).length > 0;
    case 'author':
      return filters.author !== undefined;
  }
}

/** How far `value` is outside `min`..`max`: 0 inside. */
function outside(value: number, min: number | undefined, max: number | undefined): number {
  if (min !== undefined && value < min) return min - value;
  if (max !== undefined && value > max) return value - max;
  return 0;
}

/** How far `book` is from the limits that were let go: the nearest books come first. */
function distance(book: Book, filters: SearchFilters, limits: readonly Limit[]): number {
  let d = 0;
  if (limits.includes('pages')) d += outside(book.pages, filters.minPages, filters.maxPages) / 100;
  if (limits.includes('years')) d += outside(book.year, filters.minYear, filters.maxYear) / 10;
  return d;
}

function byAuthor(book: Book, author: string | undefined): boolean {
  if (author === undefined) return true;
  const key = normalise(author);
  return book.authors.some((a) => normalise(a) === key);
}

/**
 * The nearest books when no book meets every part of the question: books about all of the topic with one limit
 * let go, then with every limit let go, then books about part of the topic within the limits. Undefined when
 * the question has no topic and no limits, or the topic itself is met by no book at all.
 */
export function relaxLimits(
  filters: SearchFilters,
  catalog: Catalog,
  pool?: readonly string[],
): Relaxed | undefined {
  const covered = (b: Book) => coverage(b, filters).covered;
  const whole = catalog.books[0] === undefined ? 0 : coverage(catalog.books[0], filters).whole;
  const books = (pool ?? catalog.books.map((b) => b.id)).flatMap((id) => catalog.get(id) ?? []);
  const eligible = books.filter((b) => !filters.exclude.includes(b.id) && b.id !== filters.like);
  // "Something like Dune under 100 pages": the books like it are the topic.
  const like = filters.like === undefined ? undefined : catalog.get(filters.like);
  const alike = (b: Book) => (like === undefined ? 0 : similarity(b, like, catalog));
  const onTopic = (b: Book) => covered(b) === whole && (like === undefined || alike(b) > 0);
  const fits = (f: SearchFilters) => (b: Book) => meets(b, f) && byAuthor(b, f.author);
  // A limit that is all a follow-up asks for ("anything from the same country?") never gives way.
  const kept = new Set(filters.keep ?? []);
  const present = LIMITS.filter((l) => has(filters, l) && !kept.has(l));
  const tries: Limit[][] = [...present.map((l) => [l]), ...(present.length > 1 ? [present] : [])];
  for (const limits of tries) {
    const loose = without(filters, limits);
    const found = eligible.filter((b) => fits(loose)(b) && onTopic(b));
    if (found.length === 0) continue;
    const near = found.sort(
      (a, b) => distance(a, filters, limits) - distance(b, filters, limits) || alike(b) - alike(a),
    );
    return { books: near, unmet: { limits } };
  }
  // Nothing meets the limits that may not give way: say so, and offer nothing against them.
  if (kept.size > 0) return { books: [], unmet: { limits: LIMITS.filter((l) => kept.has(l)) } };
  if (whole < 2 || like !== undefined) return undefined;
  // No book is about the whole topic: those about most of it, within the limits.
  const part = eligible
    .filter((b) => fits(filters)(b) && covered(b) > 0)
    .sort((a, b) => covered(b) - covered(a));
  return part.length === 0 ? undefined : { books: part, unmet: { limits: [], partTopic: true } };
}
