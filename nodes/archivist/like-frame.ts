/**
 * What a reader names as the book to find others like: "books like Sapiens", "I loved Norwegian Wood",
 * "fans of Gone Girl", "in the vein of The Name of the Rose", "something like Stephen King". Pure.
 */
import { type Catalog, normalise } from './catalog.ts';
import { withoutArticles } from './text-match.ts';
import { matchTitle } from './title-match.ts';
import type { Book } from './types.ts';

// The words that introduce the book a reader wants others like, and the phrase after them.
const LIKE_CUES: readonly RegExp[] = [
  /\b(?:like|similar to|similar in (?:style|tone|spirit) to|in the (?:vein|style|spirit|mould|mold) of|along the lines of|reminiscent of|comparable to|akin to|read-?alikes? (?:for|to|of)|the same as)\s+(.+)$/i,
  /\b(?:i|we|my \w+) (?:really |just |absolutely |totally )?(?:loved|enjoyed|liked|adored|devoured|was hooked on|couldn't put down)\s+(.+)$/i,
  /\b(?:if|since|because|as) (?:you|i|we|she|he|they) (?:liked|loved|enjoyed|adored)\s+(.+)$/i,
  /\bfans? of\s+(.+)$/i,
  /\bafter (?:reading|finishing)\s+(.+)$/i,
  // Other languages: "похожее на …", "вроде …", "parecido a …", "ähnlich wie …", "Bücher wie …", "comme …".
  /(?:^|\s)(?:похож\p{L}*\s+на|вроде|типа|parecid[oa]s?\s+a|similares?\s+a|del estilo de|ähnlich wie|(?:bücher|romane|etwas)\s+wie|comme|semblables?\s+à|dans le style de|simili\s+a)\s+(.+)$/iu,
];
/** Japanese puts the book first: "ノルウェイの森みたいな本". */
const LIKE_BEFORE = /^(.+?)(?:のような|みたいな|に似た|っぽい)/u;
/** Where the named book's phrase surely ends: punctuation or a word that starts another clause. */
const PHRASE_END =
  /\s*(?:[,;.!?()]|\s-\s|\b(?:but|what|which|please|because|though|although|except|so|can you|could you|do you|any|anything|something|recommend|suggest)\b).*$/i;
/** Words a phrase never starts a title with, and words it means by "like" that are no book. */
const NOT_A_BOOK =
  /^(?:it|this|that|these|those|them|one|ones|the same|the above|the first|the second|the last)\b/i;
/** Longest phrase read as a title. */
const TITLE_WORDS = 12;

/**
 * The phrase `question` names as the book to find others like, cut at the end of its clause, or undefined
 * when the question names no such book ("more like this" refers to an earlier answer).
 * @example
 * likePhraseOf('I loved Norwegian Wood, what next?') // 'Norwegian Wood'
 */
export function likePhraseOf(question: string): string | undefined {
  const before = question.match(LIKE_BEFORE)?.[1]?.trim();
  if (before) return before;
  for (const cue of LIKE_CUES) {
    const m = question.match(cue);
    const phrase = m?.[1]
      ?.replace(PHRASE_END, '')
      .replace(/['’]s$/, '')
      .trim();
    if (phrase === undefined || phrase === '' || NOT_A_BOOK.test(phrase)) continue;
    return phrase;
  }
  return undefined;
}

/** What a like-phrase names: a book, or a series (by its first book, with every book of it). */
export interface LikeTarget {
  readonly book: Book;
  /** The series named ("books like Harry Potter"): its books are not offered as like it. */
  readonly series?: readonly Book[];
}

const SERIES_TAIL = /\s+(?:books?|novels?|series|saga|trilogy|sequence|cycle)$/i;

/**
 * What a like-phrase names: a series by its name ("Harry Potter"), or the book of the longest run of its
 * first words that is a title ("Pride and Prejudice what else" → Pride and Prejudice); undefined otherwise.
 */
export function likeTargetOf(phrase: string, catalog: Catalog): LikeTarget | undefined {
  const asked = withoutArticles(normalise(phrase.replace(SERIES_TAIL, '')));
  const series = catalog.books.filter(
    (b) => b.series !== undefined && withoutArticles(normalise(b.series)) === asked,
  );
  const titled = catalog.books.some((b) => withoutArticles(normalise(b.title)) === asked);
  if (series.length > 0 && !(titled && !SERIES_TAIL.test(phrase))) {
    const ordered = [...series].sort((a, b) => (a.seriesNumber ?? 0) - (b.seriesNumber ?? 0));
    return { book: ordered[0] as Book, series: ordered };
  }
  const book = likeBookOf(phrase, catalog);
  return book === undefined ? undefined : { book };
}

/**
 * The catalog book a like-phrase names: the longest run of its first words that is a title ("Pride and
 * Prejudice what else" → Pride and Prejudice), or undefined.
 */
export function likeBookOf(phrase: string, catalog: Catalog): Book | undefined {
  const words = phrase.split(/\s+/).slice(0, TITLE_WORDS);
  for (let n = words.length; n >= 1; n--) {
    const head = words.slice(0, n).join(' ');
    const exact = catalog.titlesIn(head, { anyCase: true })[0];
    if (exact) return exact;
    const loose = matchTitle(head, catalog);
    if (loose) return loose;
  }
  return undefined;
}
