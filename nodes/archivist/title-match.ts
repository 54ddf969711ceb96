/**
 * Finds the catalog book a reader means by a title phrase written loosely: without its article or
 * subtitle, with digits for words ("Slaughterhouse 5"), with typos ("the hobit"), or shortened ("Alice in
 * Wonderland"). A phrase with a word the title does not have ("Heretics of Dune") matches nothing: a
 * look-alike is never taken for the book asked for.
 */
import type { Catalog } from './catalog.ts';
import { editDistance, sameWord, spellings, tolerance, withoutArticles } from './text-match.ts';
import type { Book } from './types.ts';

/** Words that carry no title on their own. */
const LINKING = new Set(['of', 'and', 'in', 'on', 'to', 'for', 'at', 'the', 'a', 'an', 'by', 'with', 'from']);
/** Words a reader adds around a title ("the Dune books"), dropped when the title does not have them. */
const GENERIC = new Set([
  'book',
  'books',
  'novel',
  'novels',
  'story',
  'stories',
  'series',
  'trilogy',
  'saga',
]);
/** A shortened title must still name at least this share of the title's own words. */
const MIN_COVERAGE = 0.5;

/** The content words of the titles' spellings, and every word among them. */
interface TitleWords {
  /** The content words of each spelling of each title, in the order of the catalog's books. */
  readonly byTitle: readonly (readonly string[])[][];
  readonly all: readonly string[];
}

const wordsCache = new WeakMap<readonly (readonly string[])[], TitleWords>();

/** The content words of the catalog's titles, made when first needed. */
function wordsOf(catalog: Catalog): TitleWords {
  let words = wordsCache.get(catalog.titleSpellings);
  if (words === undefined) {
    const byTitle = catalog.titleSpellings.map((keys) => keys.map(contentWords));
    words = { byTitle, all: [...new Set(byTitle.flat(2))] };
    wordsCache.set(catalog.titleSpellings, words);
  }
  return words;
}

function contentWords(key: string): string[] {
  return key.split(' ').filter((w) => w !== '' && !LINKING.has(w));
}

/** How well a phrase's words name a title's words: undefined when a phrase word is not in the title. */
function coverage(phrase: readonly string[], title: readonly string[]): number | undefined {
  if (title.length === 0) return undefined;
  const used = new Set<number>();
  for (const word of phrase) {
    const at = title.findIndex((t, i) => !used.has(i) && sameWord(word, t));
    if (at < 0) {
      if (GENERIC.has(word)) continue;
      return undefined;
    }
    used.add(at);
  }
  return used.size / title.length;
}

/**
 * The catalog book `phrase` names, or undefined when no title matches closely enough. Exact spellings
 * win, then the closest by edit distance, then the title whose words the phrase covers best.
 * @example
 * matchTitle('the hobit', catalog)?.id // 'the-hobbit'
 */
export function matchTitle(phrase: string, catalog: Catalog): Book | undefined {
  const asked = [...new Set(spellings(phrase).map(withoutArticles))].filter((k) => k !== '');
  if (asked.length === 0) return undefined;
  const { books, titleSpellings } = catalog;
  for (const key of asked) {
    // The whole title first: "Dune" is the book, not "Dune Messiah"'s head.
    const whole = titleSpellings.findIndex((keys) => keys[0] === key);
    if (whole >= 0) return books[whole];
    const exact = titleSpellings.findIndex((keys) => keys.includes(key));
    if (exact >= 0) return books[exact];
  }
  let best: { book: Book; distance: number } | undefined;
  for (const key of asked) {
    const allowed = tolerance(key.length);
    if (allowed === 0) continue;
    for (const [at, keys] of titleSpellings.entries()) {
      for (const k of keys) {
        const distance = editDistance(key, k, allowed);
        if (distance <= allowed && (best === undefined || distance < best.distance))
          best = { book: books[at] as Book, distance };
      }
    }
  }
  if (best) return best.book;
  let covered: { book: Book; share: number; size: number } | undefined;
  const titleWords = wordsOf(catalog);
  for (const key of asked) {
    const words = contentWords(key);
    // One short word ("it", "war") is too little to stand for a longer title.
    if (!words.some((w) => w.length >= 4 && !GENERIC.has(w))) continue;
    const telling = words.filter((w) => !GENERIC.has(w)).length;
    // A word that is in no title (as `coverage` compares words) leaves every title uncovered.
    if (words.some((w) => !GENERIC.has(w) && !titleWords.all.some((t) => sameWord(w, t)))) continue;
    for (const [at, spelt] of titleWords.byTitle.entries()) {
      for (const title of spelt) {
        const share = coverage(words, title);
        // One word stands for a title only when it is the whole title ("Silence" is not "The Silence of…").
        if (share === undefined || share < (telling === 1 ? 1 : MIN_COVERAGE)) continue;
        if (
          covered === undefined ||
          share > covered.share ||
          (share === covered.share && title.length < covered.size)
        )
          covered = { book: books[at] as Book, share, size: title.length };
      }
    }
  }
  return covered?.book;
}
