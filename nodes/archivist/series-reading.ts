/**
 * Series as questions name them: a series asked for by name ("the Dune books", "Mantel's Cromwell trilogy"),
 * a book by its place in one ("the fourth Hunger Games book", "harry potter 4"), and a title that runs on past
 * a series' name ("harry potter and the goblet of fire"). Pure.
 */
import { type Catalog, normalise } from './catalog.ts';
import { withoutArticles, wordValue } from './text-match.ts';
import type { Book } from './types.ts';

/** Words that say the question is about a series rather than one book. */
export const SERIES_WORDS =
  /\b(books|novels|stories|series|trilogy|saga|sequence|cycle|in order|reading order|(?:what|which) order|(?:a|an|one|which|what) \w+(?: \w+)? (?:book|novel) to (?:start|begin) with)\b/i;
/** Words a reader adds after a series' name ("the Dune books in order"). */
export const GENERIC_TAIL =
  /(?:\s+(?:books?|novels?|stories|plays|poems|works|series|trilogy|saga|in (?:reading |publication )?order))+$/i;
/** Words that carry no name of their own inside a longer one. */
const LINKING = new Set(['of', 'and', 'in', 'on', 'to', 'for', 'at', 'the', 'a', 'an', 'with', 'from', '&']);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The series `question` asks for by name, if any; `phrase` is its framed phrase (see `framesOf`), `named` a
 * book it already names.
 */
export function seriesNamed(
  question: string,
  framed: string,
  catalog: Catalog,
  named: Book | undefined,
): string | undefined {
  // "more books like Dune" asks for others like the book.
  if (/\b(like|similar)\b/i.test(question)) return undefined;
  const asked = ` ${withoutArticles(normalise(question))} `;
  const names = [...new Set(catalog.books.flatMap((b) => (b.series ? [b.series] : [])))];
  for (const name of names) {
    const key = withoutArticles(normalise(name));
    const phrase = withoutArticles(normalise(framed.replace(GENERIC_TAIL, '')));
    // "the Hitchhiker's Guide books": the start of a series name, with words that ask for a series.
    const start = phrase.includes(' ') && `${key} `.startsWith(`${phrase} `) && SERIES_WORDS.test(question);
    // "Mantel's Cromwell trilogy": a telling word of the name just before a word that asks for a series.
    const before = key
      .split(' ')
      .some(
        (w) =>
          w.length >= 5 &&
          !SERIES_WORDS.test(w) &&
          new RegExp(`\\b${w}\\s+${SERIES_WORDS.source}`, 'i').test(asked),
      );
    if (!asked.includes(` ${key} `) && !start && !before) continue;
    // "Harry Potter and the Goblet of Fire" names a book, not the series.
    if (phrase !== key && !SERIES_WORDS.test(question)) continue;
    // "Dune" alone is the book; "the Dune books" is the series.
    const isTitle = catalog.books.some((b) => withoutArticles(normalise(b.title)) === key);
    if (isTitle && !SERIES_WORDS.test(question)) continue;
    if (named && named.series !== name && !SERIES_WORDS.test(question)) continue;
    return name;
  }
  return undefined;
}

/**
 * Whether `phrase` is a series' name followed by more words, in any case ("harry potter and the goblet of
 * fire"): the title of a book of that series, which the catalog would have matched if it held it.
 */
export function inSeries(phrase: string, catalog: Catalog): boolean {
  const key = normalise(phrase);
  return catalog.books.some((b) => {
    if (b.series === undefined) return false;
    const name = normalise(b.series);
    const more = key.startsWith(`${name} `) ? key.slice(name.length).trim().split(' ') : [];
    return more.filter((w) => !LINKING.has(w)).length >= 2;
  });
}

const ORDINAL_WORDS: Readonly<Record<string, number>> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
};
const NTH =
  /\b(?:(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)|(\d{1,2})(?:st|nd|rd|th))\b|\b(?:book|volume|part|number|no)\.? (\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)\b/i;

/** A number of one or two digits right after a series' name, as an ordinal match's third group. */
function numberAfterSeries(question: string, catalog: Catalog): RegExpMatchArray | null {
  const asked = withoutArticles(normalise(question));
  for (const name of new Set(catalog.books.flatMap((b) => (b.series ? [b.series] : [])))) {
    const m = asked.match(new RegExp(`\\b${escapeRegExp(withoutArticles(normalise(name)))} (\\d{1,2})\\b`));
    if (m)
      return Object.assign([m[0], undefined, undefined, m[1]], {
        index: m.index,
      }) as unknown as RegExpMatchArray;
  }
  return null;
}

/**
 * "the fourth Hunger Games book", "Dune book 2": the book at that place of a series the question names,
 * or, when the catalog does not hold that place, the name of what was asked for.
 */
export function nthOfSeries(
  question: string,
  catalog: Catalog,
): { book?: Book; name: string; placed?: true } | undefined {
  // "harry potter 4": a number right after a series' name is its place in the series.
  const m = question.match(NTH) ?? numberAfterSeries(question, catalog);
  if (!m) return undefined;
  const word = (m[1] ?? m[2] ?? m[3] ?? '').toLowerCase();
  const place = ORDINAL_WORDS[word] ?? wordValue(word);
  if (place === undefined) return undefined;
  const asked = ` ${withoutArticles(normalise(question))} `;
  const names = [...new Set(catalog.books.flatMap((b) => (b.series ? [b.series] : [])))];
  const series = names.find((name) => asked.includes(` ${withoutArticles(normalise(name))} `));
  if (series === undefined) return undefined;
  // "the first Harry Potter and the…" names a title that happens to hold an ordinal; only the series is asked.
  if (catalog.titlesIn(question, { anyCase: true }).some((b) => normalise(b.title).includes(normalise(m[0]))))
    return undefined;
  const book = catalog.books.find((b) => b.series === series && b.seriesNumber === place);
  const called = /^the\s/i.test(series) ? series : `the ${series}`;
  return book ? { book, name: book.title, placed: true } : { name: `book ${place} of ${called} series` };
}
