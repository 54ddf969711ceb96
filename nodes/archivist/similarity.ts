/**
 * How alike two books are, from what each book is: the subjects they share (a rare subject such as
 * "dystopia" tells more than a common one such as "classic"), their form (a novel, a play, poems, a work of
 * non-fiction), who they are for, and when they were written. Words of titles and descriptions play no part:
 * "1984 Tokyo" in a description does not make a book like "1984". Pure.
 */
import type { Catalog } from './catalog.ts';
import type { Book } from './types.ts';

/** What similarity reads of a book: a catalog book, or a well-known book the catalog does not hold. */
export type BookProfile = Pick<Book, 'subjects'> & Partial<Pick<Book, 'year' | 'audience' | 'authors'>>;

/** The form of a book, as a reader tells books apart before their subjects. */
export type Form = 'drama' | 'poetry' | 'short stories' | 'non-fiction' | 'fiction';

/** Subjects of writing about real lives and of essays: non-fiction whatever else a book is about. */
const LIFE_WRITING = new Set(['memoir', 'biography', 'essays']);
/** Subjects that mark a work of non-fiction when no genre of fiction is among its subjects. */
const NON_FICTION = new Set([
  'history',
  'science',
  'economics',
  'philosophy',
  'psychology',
  'politics',
  'physics',
  'biology',
  'cosmology',
  'evolution',
  'medicine',
  'mathematics',
  'business',
  'travel',
  'environment',
]);
/** Subjects that mark fiction. */
const FICTION = new Set([
  'literary fiction',
  'science fiction',
  'historical fiction',
  'fantasy',
  'mystery',
  'detective',
  'thriller',
  'horror',
  'romance',
  'gothic',
  'dystopia',
  'adventure',
  'satire',
  'coming of age',
  'young adult',
  'children',
  'magic',
  'time travel',
]);

/**
 * The form of `book`: a play, poems, short stories, life writing and essays, a genre of fiction, non-fiction
 * (only subjects of non-fiction, such as history or science), else fiction.
 * @example
 * formOf(hamlet) // 'drama'
 */
export function formOf(book: Pick<Book, 'subjects'>): Form {
  const subjects = book.subjects;
  if (subjects.includes('drama')) return 'drama';
  if (subjects.includes('poetry')) return 'poetry';
  if (subjects.includes('short stories')) return 'short stories';
  if (subjects.some((s) => LIFE_WRITING.has(s))) return 'non-fiction';
  if (subjects.some((s) => FICTION.has(s))) return 'fiction';
  return subjects.some((s) => NON_FICTION.has(s)) ? 'non-fiction' : 'fiction';
}

/** Who a book is for: `adult` when the catalog records no audience. */
function readerOf(book: BookProfile): 'children' | 'young adult' | 'adult' {
  if (book.audience === 'young children' || book.audience === 'children') return 'children';
  return book.audience === 'young adult' ? 'young adult' : 'adult';
}

/** Weight of a different form: a play is rarely what a reader of a novel asked for. */
const OTHER_FORM = 0.5;
/** Weight of a book for another age of reader; children's and young adult books are closer to each other. */
const OTHER_READER = 0.6;
const NEAR_READER = 0.85;
/** How much of the score the period decides, and over how many years it fades. */
const PERIOD_SHARE = 0.15;
const PERIOD_YEARS = 60;

/**
 * How alike `book` is to `reference`, from 0 to 1: the weighted share of subjects they have in common (each
 * subject weighted by how telling it is, `catalog.subjectWeight`), lowered for another form or another age of
 * reader, and a little for books of a distant period.
 * @example
 * similarity(braveNewWorld, nineteenEightyFour, catalog) > similarity(q84, nineteenEightyFour, catalog) // true
 */
export function similarity(book: BookProfile, reference: BookProfile, catalog: Catalog): number {
  const weight = (subjects: readonly string[]) =>
    subjects.reduce((sum, s) => sum + catalog.subjectWeight(s), 0);
  const shared = book.subjects.filter((s) => reference.subjects.includes(s));
  const total = weight(book.subjects) + weight(reference.subjects);
  if (total === 0 || shared.length === 0) return 0;
  let score = (2 * weight(shared)) / total;
  if (formOf(book) !== formOf(reference)) score *= OTHER_FORM;
  const readers = [readerOf(book), readerOf(reference)];
  if (readers[0] !== readers[1]) score *= readers.includes('adult') ? OTHER_READER : NEAR_READER;
  if (book.year === undefined || reference.year === undefined) return score;
  const years = Math.abs(book.year - reference.year);
  return score * (1 - PERIOD_SHARE + PERIOD_SHARE * Math.exp(-years / PERIOD_YEARS));
}

/**
 * The form a question asks for by name: "a novel", "fiction", "short stories" ask for fiction; "non-fiction",
 * "a true story" for non-fiction; undefined when it names none.
 * @example
 * formAsked('short novels about loneliness') // 'fiction'
 */
export function formAsked(question: string): 'fiction' | 'non-fiction' | undefined {
  if (/\b(?:non-?fiction|true stor(?:y|ies)|a history of|history books?)\b/i.test(question))
    return 'non-fiction';
  if (/\b(?:novels?|novellas?|fiction|a story|stories)\b/i.test(question)) return 'fiction';
  return undefined;
}

/** Whether `book` is of the form asked: fiction takes novels and stories, non-fiction any work of it. */
export function fitsForm(book: Pick<Book, 'subjects'>, form: 'fiction' | 'non-fiction'): boolean {
  const own = formOf(book);
  return form === 'fiction' ? own === 'fiction' || own === 'short stories' : own === 'non-fiction';
}
