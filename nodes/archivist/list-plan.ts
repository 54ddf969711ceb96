/**
 * The plans of questions answered by a whole list or an honest miss: an author's or a series' books in order
 * ("all the Agatha Christie novels you have"), and what the reader named that the catalog does not hold,
 * with the nearest books it does. Pure.
 */
import { type Catalog, normalise } from './catalog.ts';
import { nearestTo } from './closest.ts';
import { meets } from './limits.ts';
import type { SearchPlan } from './plan-search.ts';
import type { Reading } from './reading.ts';
import { keywordsOf } from './rules.ts';
import type { SearchFilters } from './services.ts';
import { sameWord } from './text-match.ts';
import { compareTitles } from './title-order.ts';
import type { Book, Classification, Memory } from './types.ts';

/** Words of a request for an author's whole list: "all the Agatha Christie novels you have, oldest first". */
const LIST_WORDS = new Set(
  (
    'everything all every list catalog catalogue order publication published plays poems stories works did ' +
    'write writes oldest first newest latest complete titles they them he she her his in anything wrote ' +
    'written reading hold holds held carry stock library collection available own got'
  ).split(' '),
);

/** Whether a question about `author` also names a topic ("Diamond on why societies collapse"). */
function topical(rest: string, author: string | undefined, catalog: Catalog): boolean {
  if (author === undefined) return false;
  const name = new Set(normalise(author).split(' '));
  const words = vocabularyOf(catalog);
  // A word no book of the catalog uses ("bibliography", "oeuvre") cannot narrow the list: it only asks for it.
  const known = (w: string) => words.has(w) || (w.endsWith('s') && words.has(w.slice(0, -1)));
  return keywordsOf(rest.replace(/['’]s\b/g, ''))
    .split(' ')
    .some((w) => w !== '' && !LIST_WORDS.has(w) && known(w) && ![...name].some((n) => sameWord(w, n)));
}

const vocabularies = new WeakMap<Catalog, ReadonlySet<string>>();

/** Every word of the catalog's titles, subjects and descriptions, normalised. */
function vocabularyOf(catalog: Catalog): ReadonlySet<string> {
  let words = vocabularies.get(catalog);
  if (words === undefined) {
    words = new Set(
      catalog.books.flatMap((b) =>
        normalise(`${b.title} ${b.subjects.join(' ')} ${b.description}`).split(' '),
      ),
    );
    vocabularies.set(catalog, words);
  }
  return words;
}

/** Publication order, series order within a series. */
export function byPublication(a: Book, b: Book): number {
  if (a.series !== undefined && a.series === b.series) return (a.seriesNumber ?? 0) - (b.seriesNumber ?? 0);
  return a.year - b.year || compareTitles(a.title, b.title);
}

/**
 * The plan of a question that asks for a whole list (an author's or a series' books) or names what the
 * catalog does not hold; undefined for every other question.
 */
export function listOrMiss(
  question: string,
  c: Classification,
  reading: Reading,
  memory: Memory | undefined,
  catalog: Catalog,
  limits: Partial<SearchFilters>,
): SearchPlan | undefined {
  if (reading.missing) {
    const { name, author } = reading.missing;
    const nearest = nearestTo(name, author, catalog, reading.author);
    return {
      strategies: [{ strategy: 'title', query: name }],
      filters: {
        exclude: [],
        missing: { ...reading.missing, known: nearest.known },
        list: nearest.books.map((b) => b.id),
        ...limits,
      },
      intent: 'find',
    };
  }
  const series = reading.series;
  const followUp = c.shorter || c.longer || (memory !== undefined && c.author === memory.author);
  // "anything by Calvino" asks for the author's books, though it reads like a recommendation.
  const whole = c.intent !== 'recommend' || /\b(anything|everything|all|every)\b/i.test(question);
  const author =
    c.title === undefined &&
    whole &&
    c.intent !== 'describe' &&
    !followUp &&
    !topical(reading.rest, c.author, catalog)
      ? c.author
      : undefined;
  // "by Walker" names every author of that surname; a first name picks one.
  const named = author === undefined ? [] : catalog.authorsIn(reading.rest);
  const authors = named.length > 1 && author !== undefined && named.includes(author) ? named : [author];
  const books = series
    ? catalog.books.filter((b) => b.series === series)
    : authors.flatMap((a) => (a === undefined ? [] : catalog.byAuthor(a)));
  if (books.length === 0) return undefined;
  const all = [...new Set([...books].sort(byPublication))];
  const list = all.filter((b) => !reading.notBooks.includes(b.id)).map((b) => b.id);
  const narrowed = list.length < all.length || all.some((b) => !meets(b, { exclude: [], ...limits }));
  return {
    strategies: [{ strategy: 'title', query: question }],
    filters: { exclude: [], list, ...limits, ...(narrowed ? { narrowed } : {}) },
    intent: 'find',
  };
}
