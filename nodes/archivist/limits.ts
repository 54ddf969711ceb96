import { normalise } from './normalise.ts';
import { fromOrigin } from './origin.ts';
import type { SearchFilters } from './services.ts';
import type { Book } from './types.ts';

/** Whether `book` meets the hard limits of `filters`: pages, years, origin and audience, unwanted authors. */
export function meets(book: Book, filters: SearchFilters): boolean {
  if (filters.maxPages !== undefined && book.pages > filters.maxPages) return false;
  if (filters.minPages !== undefined && book.pages < filters.minPages) return false;
  if (filters.maxYear !== undefined && book.year > filters.maxYear) return false;
  if (filters.minYear !== undefined && book.year < filters.minYear) return false;
  if (filters.origin && !fromOrigin(book, filters.origin)) return false;
  const unwanted = (filters.notAuthors ?? []).map(normalise);
  return !book.authors.some((a) => unwanted.includes(normalise(a)));
}
