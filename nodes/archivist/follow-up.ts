/**
 * Questions that only make sense after the previous answer: "the second one", "which of them is the
 * shortest", "only the ones under 200 pages", "another one", "the sequel", "older ones", "something from the same decade", "not those, something else".
 * Pure: reads the question and what the conversation remembers.
 */
import { type Catalog, normalise } from './catalog.ts';
import type { OriginFilter } from './origin.ts';
import { ORDINALS } from './references.ts';
import type { Book, Memory } from './types.ts';

/** What a follow-up refers to: one earlier book, or books like the one the reader started from. */
export interface FollowUp {
  /** The book the question is about ("the second one", "the sequel", "the shortest"). */
  readonly book?: Book;
  /** The book to find others like ("older ones", "same decade", "something else"). */
  readonly like?: Book;
  readonly minYear?: number;
  readonly maxYear?: number;
  readonly notAuthors?: readonly string[];
  /** Books not to present again. */
  readonly exclude: readonly string[];
  /** Only these books may be presented ("which of them are for children"). */
  readonly within?: readonly string[];
  /** The previous request again, for books not yet shown ("another one"). */
  readonly again?: boolean;
  /** Books from the anchor's country or in its language ("more from the same country"). */
  readonly origin?: OriginFilter;
}

const ORDINAL = /\b(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last)(?: one| book| title| novel)?\b/;
/** "number two", "item 2": a place in the last answer's list, by its number. */
const NUMBERED = /\b(?:number|item) (1|2|3|4|5|one|two|three|four|five)\b/;
const NUMBER_ORDINALS: Readonly<Record<string, string>> = {
  '1': 'first',
  '2': 'second',
  '3': 'third',
  '4': 'fourth',
  '5': 'fifth',
  one: 'first',
  two: 'second',
  three: 'third',
  four: 'fourth',
  five: 'fifth',
};
const NEXT = /\b(next|sequel|comes after|after that|follow(?:s|ing) (?:it|on))\b/;
const LAST_OF_SERIES = /\b(last|final) (?:one |book )?(?:of|in) the (series|trilogy|saga|sequence)\b/;
const SHORTEST = /\bshortest\b/;
const LONGEST = /\blongest\b/;
const OLDEST = /\b(oldest|earliest|(?:came out|published|written|appeared) first)\b/;
const NEWEST = /\b(newest|latest|most recent|(?:came out|published|written|appeared) last)\b/;
const OLDER = /\b(older|earlier)\b/;
const NEWER = /\b(newer|more recent|later)\b/;
const SAME_COUNTRY = /\bsame (country|nation|place)\b/;
const SAME_LANGUAGE = /\bsame language\b/;
const SAME_DECADE = /\bsame (decade|era|period|time)\b/;
const OTHER_AUTHOR =
  /\b(different|another|other) (authors?|writers?)\b|\b(?:someone|who) else\b|\bnot by (?:him|her|them)\b/;
const SOMETHING_ELSE =
  /\b(something|anything) else\b|\bnot (?:those|these|them)\b|\bmore like (?:these|those|them)\b|\bother ones\b/;
const MORE_LIKE = /\bmore like (?:this|that|it)\b|\bsimilar\b|\blike (?:it|this|that)\b/;
/** A question narrowing the previous answer: "only the ones under 200 pages", "just those from France". */
const REFINE = /\b(?:only|just) (?:the ones?|those|these|them|ones)\b|\b(?:of|among) (?:them|these|those)\b/;
/** A question asking for more of the same: "another one please", "show me a few more", "and one more". */
const AGAIN =
  /^(?:and |ok |okay |please )*(?:(?:show|give|tell) me |got |have you got |any )?(?:another(?: one)?|one more|a few more|some more|more|others)(?: (?:one|ones|books?|please|like (?:that|those|these)|of (?:those|them)))*$/;
/** An "again" question is short: a longer one asks for something of its own. */
const AGAIN_WORDS = 7;
const WHICH_OF = /\bwhich (?:ones?|of (?:them|these|those))\b/;

/** Whether `question` asks for books by someone other than the author of the books discussed. */
export function asksOtherAuthor(question: string): boolean {
  return OTHER_AUTHOR.test(normalise(question));
}

/** Whether `question` asks for books by the author of the books discussed ("by her", "his other books"). */
export function asksSameAuthor(question: string): boolean {
  return /\b(same (author|writer)|by (her|him|them)|(her|his|their) other)\b/.test(normalise(question));
}

function pick(books: readonly Book[], better: (a: Book, b: Book) => boolean): Book | undefined {
  return books.reduce<Book | undefined>(
    (best, b) => (best === undefined || better(b, best) ? b : best),
    undefined,
  );
}

function nextInSeries(book: Book, catalog: Catalog, last: boolean): Book | undefined {
  if (book.series === undefined || book.seriesNumber === undefined) return undefined;
  const number = book.seriesNumber;
  const later = catalog.books.filter(
    (b) => b.series === book.series && b.seriesNumber !== undefined && b.seriesNumber > number,
  );
  return last
    ? pick(later, (a, b) => (a.seriesNumber ?? 0) > (b.seriesNumber ?? 0))
    : pick(later, (a, b) => (a.seriesNumber ?? 0) < (b.seriesNumber ?? 0));
}

/**
 * What `question` refers to in the conversation, or undefined when it does not depend on the previous
 * answer. `memory.shortlist` is the previous answer's books in order, `memory.anchor` the book the reader
 * started from.
 * @example
 * followUpOf('tell me about the second one', { shortlist: ['dune', 'hyperion'] }, catalog)?.book?.id // 'hyperion'
 */
export function followUpOf(
  question: string,
  memory: Memory | undefined,
  catalog: Catalog,
): FollowUp | undefined {
  if (memory === undefined) return undefined;
  const q = normalise(question);
  const shown = (memory.shortlist ?? []).flatMap((id) => catalog.get(id) ?? []);
  const current = memory.bookId === undefined ? undefined : catalog.get(memory.bookId);
  const anchor = (memory.anchor === undefined ? undefined : catalog.get(memory.anchor)) ?? current;
  const seen = [...new Set([...(memory.shortlist ?? []), ...(anchor ? [anchor.id] : [])])];

  if (current && (LAST_OF_SERIES.test(q) || NEXT.test(q))) {
    const book = nextInSeries(current, catalog, LAST_OF_SERIES.test(q));
    if (book) return { book, exclude: [] };
  }
  if (shown.length > 1 || WHICH_OF.test(q)) {
    if (SHORTEST.test(q)) return { book: pick(shown, (a, b) => a.pages < b.pages) as Book, exclude: [] };
    if (LONGEST.test(q)) return { book: pick(shown, (a, b) => a.pages > b.pages) as Book, exclude: [] };
    if (OLDEST.test(q)) return { book: pick(shown, (a, b) => a.year < b.year) as Book, exclude: [] };
    if (NEWEST.test(q)) return { book: pick(shown, (a, b) => a.year > b.year) as Book, exclude: [] };
  }
  const numbered = q.match(NUMBERED);
  const ordinal = numbered ? ([numbered[0], NUMBER_ORDINALS[numbered[1] ?? '']] as const) : q.match(ORDINAL);
  // "the second one", "tell me about the third": a word count keeps "the first novel about…" out.
  if (ordinal && shown.length > 0 && q.split(' ').length <= 8 && !/\bseries|trilogy\b/.test(q)) {
    const at = ordinal[1] === 'last' ? shown.length : (ORDINALS[ordinal[1] ?? ''] ?? 0);
    const book = shown[at - 1];
    if (book) return { book, exclude: [] };
  }
  if ((WHICH_OF.test(q) || REFINE.test(q)) && shown.length > 0) {
    // The limits of the question ("under 200 pages", "for children") are applied to these by the caller.
    const subjects = catalog.subjectsIn(q);
    const within = shown
      .filter((b) => subjects.length === 0 || subjects.some((s) => b.subjects.includes(s)))
      .map((b) => b.id);
    return { within, exclude: [] };
  }
  // "another one", "show me a few more": the same request again, without what was already shown.
  if (AGAIN.test(q) && q.split(' ').length <= AGAIN_WORDS && catalog.titlesIn(question).length === 0) {
    const all = [...new Set([...seen, ...(memory.shown ?? [])])];
    if (anchor) return { like: anchor, again: true, exclude: all };
  }
  if (!anchor) return undefined;
  const like = { like: anchor };
  const decade = Math.floor(anchor.year / 10) * 10;
  const found: FollowUp[] = [];
  if (SAME_DECADE.test(q))
    found.push({ ...like, minYear: decade, maxYear: decade + 9, exclude: [anchor.id] });
  if (SAME_COUNTRY.test(q) && anchor.country !== undefined)
    found.push({ ...like, origin: { countries: [anchor.country] }, exclude: [anchor.id] });
  if (SAME_LANGUAGE.test(q) && anchor.language !== undefined)
    found.push({
      ...like,
      origin: { languages: [anchor.language], languageOnly: true },
      exclude: [anchor.id],
    });
  if (OLDER.test(q)) found.push({ ...like, maxYear: anchor.year - 1, exclude: [anchor.id] });
  if (NEWER.test(q)) found.push({ ...like, minYear: anchor.year + 1, exclude: [anchor.id] });
  if (OTHER_AUTHOR.test(q)) found.push({ ...like, notAuthors: anchor.authors, exclude: [anchor.id] });
  if (SOMETHING_ELSE.test(q)) found.push({ ...like, exclude: seen });
  else if (MORE_LIKE.test(q) && found.length === 0) found.push({ ...like, exclude: seen });
  if (found.length === 0) return undefined;
  const merged: FollowUp = Object.assign({}, ...found);
  return { ...merged, exclude: [...new Set(found.flatMap((f) => f.exclude))] };
}
