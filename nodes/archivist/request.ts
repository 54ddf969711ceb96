/**
 * The request in force in a conversation: the constraints a reader has set (an author, a book to find others
 * like, a topic, a length, a period, an origin, authors not wanted), carried into every follow-up that only
 * refines it ("something shorter", "older ones", "by a different author", "newer than that") and replaced by a
 * question that names something of its own. Pure.
 */
import type { SearchFilters } from './services.ts';
import type { Book, Memory } from './types.ts';

/** The constraints of a request, as a conversation remembers them. */
export type Request = Pick<
  SearchFilters,
  | 'author'
  | 'like'
  | 'subjects'
  | 'themes'
  | 'terms'
  | 'topic'
  | 'minPages'
  | 'maxPages'
  | 'minYear'
  | 'maxYear'
  | 'origin'
  | 'notAuthors'
>;

const KEYS: readonly (keyof Request)[] = [
  'author',
  'like',
  'subjects',
  'themes',
  'terms',
  'topic',
  'minPages',
  'maxPages',
  'minYear',
  'maxYear',
  'origin',
  'notAuthors',
];

/**
 * The request a turn's `filters` stand for; `listAuthor` is the author whose whole list the turn answered
 * ("books by Ursula K. Le Guin"), which the request keeps as its author.
 */
export function requestOf(filters: SearchFilters | undefined, listAuthor?: string): Request {
  const request: Record<string, unknown> = {};
  for (const key of KEYS) {
    const value = filters?.[key];
    if (value !== undefined) request[key] = value;
  }
  if (request.author === undefined && listAuthor !== undefined) request.author = listAuthor;
  return request as Request;
}

/** What a follow-up asks that changes the request in force. */
export interface Refinement {
  /** The follow-up's own limits: they win over the request's. */
  readonly limits: Partial<SearchFilters>;
  /** "by a different author": the request's author, and the authors of the books it is about, are not wanted. */
  readonly otherAuthor: boolean;
}

/**
 * The request in force `memory` carries, merged with a refinement: its own limits win, authors not wanted add
 * up, and "a different author" lets the request's author go and adds the authors of the book the reader
 * started from and of the book just discussed to those not wanted.
 * @example
 * refined({ request: { like: 'dune', maxPages: 379 } }, { limits: { maxYear: 1964 }, otherAuthor: true }, [dune])
 * // { like: 'dune', maxPages: 379, maxYear: 1964, notAuthors: ['Frank Herbert'] }
 */
export function refined(
  memory: Memory | undefined,
  refinement: Refinement,
  books: readonly (Book | undefined)[],
): Partial<SearchFilters> {
  const { author, notAuthors = [], ...request } = memory?.request ?? {};
  const own = refinement.limits;
  // "something like it but not by Christie" lets the request's author go as "a different author" does.
  const otherAuthor =
    refinement.otherAuthor || (author !== undefined && (own.notAuthors ?? []).includes(author));
  const others = otherAuthor
    ? [...(author === undefined ? [] : [author]), ...books.flatMap((b) => b?.authors ?? [])]
    : [];
  const unwanted = [...new Set([...notAuthors, ...(own.notAuthors ?? []), ...others])];
  return {
    ...request,
    ...(author !== undefined && !otherAuthor ? { author } : {}),
    ...own,
    ...(unwanted.length > 0 ? { notAuthors: unwanted } : {}),
  };
}
