/**
 * Series in answers: a recommendation offers a series by its first book the reader has not had yet (never
 * "A Clash of Kings" before "A Game of Thrones"), and wherever several books of one series appear, they
 * appear in series order. Pure.
 */
import type { Book } from './types.ts';

function inSeriesOrder(a: Book, b: Book): number {
  return (a.seriesNumber ?? 0) - (b.seriesNumber ?? 0);
}

/**
 * `books` with the books of each series in series order, in the places the series' books hold: other books
 * stay where they are.
 * @example
 * seriesOrdered([clashOfKings, dune, gameOfThrones]) // [gameOfThrones, dune, clashOfKings]
 */
export function seriesOrdered<T extends Book>(books: readonly T[]): T[] {
  const bySeries = new Map<string, T[]>();
  for (const book of books) {
    if (book.series === undefined) continue;
    bySeries.set(book.series, [...(bySeries.get(book.series) ?? []), book]);
  }
  const next = new Map([...bySeries].map(([name, members]) => [name, [...members].sort(inSeriesOrder)]));
  return books.map((book) => (book.series === undefined ? book : (next.get(book.series)?.shift() ?? book)));
}

/**
 * A recommendation's candidates with each series offered once, by its first book that `eligible` accepts in
 * the place of the series' best candidate (the reader has not had it, it meets the question's limits, and it
 * answers the question as well as that candidate). `make` turns that book into a candidate carrying the
 * place's score.
 */
export function seriesOpeners<T extends Book>(
  candidates: readonly T[],
  members: (series: string) => readonly Book[],
  eligible: (book: Book, place: T) => boolean,
  make: (book: Book, place: T) => T,
): T[] {
  const offered = new Set<string>();
  const out: T[] = [];
  for (const candidate of candidates) {
    const series = candidate.series;
    if (series === undefined) {
      out.push(candidate);
      continue;
    }
    if (offered.has(series)) continue;
    offered.add(series);
    const first = [...members(series)].sort(inSeriesOrder).find((b) => eligible(b, candidate));
    out.push(first === undefined || first.id === candidate.id ? candidate : make(first, candidate));
  }
  return out;
}
