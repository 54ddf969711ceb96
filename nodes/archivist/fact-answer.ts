/**
 * Answers that are catalog facts rather than prose: an honest miss with the closest real matches
 * labelled as such, and the whole list of an author's or a series' books in order.
 */
import type { MissKnown } from './closest.ts';
import type { SearchFilters } from './services.ts';
import { cite } from './templates.ts';
import type { Book } from './types.ts';

function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * The answer to a question whose filters ask for a whole list or name what the catalog does not hold;
 * undefined for every other question.
 * @example
 * factAnswer({ exclude: [], missing: { name: 'Oliver Twist', author: false } }, [carol])
 * // 'The catalog does not hold Oliver Twist. The closest matches it does hold: …'
 */
export function factAnswer(filters: SearchFilters | undefined, books: readonly Book[]): string | undefined {
  if (filters?.missing) return missAnswer(filters.missing, books);
  if (filters?.list) return listAnswer(books);
  return undefined;
}

/** A well-known book as an answer names it: unquoted, since quotation marks name the catalog's own books. */
function knownBook(book: NonNullable<MissKnown['book']>): string {
  const when =
    book.year === undefined
      ? ', not yet published'
      : book.year < 0
        ? ` of ${-book.year} BC`
        : ` of ${book.year}`;
  const place =
    book.series === undefined || book.seriesNumber === undefined
      ? ''
      : `, book ${book.seriesNumber} of ${/^the\s/i.test(book.series) ? '' : 'the '}${book.series} series`;
  return `${book.title}, ${list(book.authors)}'s book${when}${place}`;
}

/** The honest miss: what the catalog lacks, then the nearest books it holds, said for what they are. */
function missAnswer(missing: NonNullable<SearchFilters['missing']>, books: readonly Book[]): string {
  const { name, author, known } = missing;
  const cited = list(books.map((b) => cite(b)));
  if (author) {
    const lead = `The catalog does not hold any books by ${name}.`;
    if (books.length === 0) return lead;
    return `${lead} Books it holds that are like ${name}'s: ${cited}.`;
  }
  const lead = `The catalog does not hold ${known?.book ? knownBook(known.book) : name}.`;
  if (books.length === 0) {
    return known?.book === undefined
      ? `${lead} I do not know that book, so I cannot tell which of the catalog's books are like it: tell me its author or what it is about.`
      : lead;
  }
  if (known?.offered === 'like') return `${lead} Books it holds that are like it: ${cited}.`;
  if (known?.offered === 'related') return `${lead} The nearest books it holds: ${cited}.`;
  return `${lead} The closest matches it does hold are ${cited}.`;
}

/**
 * The whole list of an author's or a series' books, when `books` are all by one author or of one series
 * and in publication (or series) order; undefined otherwise. `narrowed` says the question's limits left
 * out some of them, so the list is not all the catalog holds.
 */
export function listAnswer(books: readonly Book[], narrowed = false): string | undefined {
  const first = books[0];
  if (first === undefined) return undefined;
  if (!books.every((b, i) => i === 0 || inOrder(books[i - 1] as Book, b))) return undefined;
  // Books written together ("Good Omens") belong to each author's list.
  const common = first.authors.find((a) => books.every((b) => b.authors.includes(a)));
  const series = first.series !== undefined && books.every((b) => b.series === first.series);
  if (!series && common === undefined) return undefined;
  const what = series
    ? `of ${/^the\s/i.test(first.series ?? '') ? '' : 'the '}${first.series} series, in series order`
    : `by ${common}, in publication order`;
  const count = books.length === 1 ? 'one book' : `${books.length} books`;
  // The sentence names the author once; each book then needs only its title and year.
  const item = (b: Book) => (!series && b.authors.length === 1 ? `"${b.title}" (${b.year})` : cite(b));
  // A list the question's limits narrowed is not all the catalog holds.
  const [whose, order] = what.split(', ');
  const lead = narrowed
    ? `Of the catalog's books ${whose}, ${count} ${books.length === 1 ? 'fits' : 'fit'} the question, ${order}:`
    : `The catalog holds ${count} ${what}:`;
  return `${lead} ${list(books.map(item))}.`;
}

function inOrder(a: Book, b: Book): boolean {
  if (a.series !== undefined && a.series === b.series) return (a.seriesNumber ?? 0) <= (b.seriesNumber ?? 0);
  return a.year <= b.year;
}
