/**
 * Forgiving comparison of the words readers type with the words of titles and names: numbers read as
 * words, articles optional, small typos tolerated by edit distance. Pure functions.
 */
import { normalise } from './normalise.ts';

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

function belowHundred(n: number): string {
  if (n < 20) return ONES[n] as string;
  const tens = TENS[Math.floor(n / 10)] as string;
  return n % 10 === 0 ? tens : `${tens} ${ONES[n % 10]}`;
}

/**
 * The value of a number written as one word ("seven", "fifteen", "forty", "hundred") or in digits ("12");
 * undefined for anything else.
 * @example
 * wordValue('twelve') // 12
 */
export function wordValue(word: string): number | undefined {
  if (/^\d+$/.test(word)) return Number(word);
  const one = ONES.indexOf(word);
  if (one >= 0) return one;
  const ten = TENS.indexOf(word);
  if (ten >= 2) return ten * 10;
  return word === 'hundred' ? 100 : undefined;
}

/**
 * A whole number in English words, as a count ("twenty thousand") or, for four-digit numbers, as a year
 * is read ("nineteen eighty four"). Numbers of a million or more are left as digits.
 * @example
 * numberWords(1984) // ['one thousand nine hundred eighty four', 'nineteen eighty four']
 */
export function numberWords(n: number): string[] {
  if (!Number.isInteger(n) || n < 0 || n >= 1_000_000) return [String(n)];
  const count = (m: number): string => {
    if (m < 100) return belowHundred(m);
    if (m < 1000) {
      const rest = m % 100;
      return `${ONES[Math.floor(m / 100)]} hundred${rest ? ` ${belowHundred(rest)}` : ''}`;
    }
    const rest = m % 1000;
    return `${count(Math.floor(m / 1000))} thousand${rest ? ` ${count(rest)}` : ''}`;
  };
  const words = [count(n)];
  if (n >= 1100 && n < 10000 && Math.floor(n / 100) % 10 !== 0) {
    const tail = n % 100;
    words.push(`${belowHundred(Math.floor(n / 100))} ${tail === 0 ? 'hundred' : belowHundred(tail)}`);
  }
  return words;
}

/** Articles that a reader leaves out or adds ("Catcher in the Rye", "the Hobbit"), in several languages. */
export const ARTICLES = new Set(['the', 'a', 'an', 'das', 'der', 'die', 'le', 'la', 'les', 'el', 'il']);

/**
 * The ways a title or phrase may be written, normalised: digits as written and as words, `&` as "and",
 * ordinal suffixes kept with their number ("21st").
 */
export function spellings(text: string): string[] {
  const base = normalise(text.replace(/&/g, ' and ').replace(/(\d),(\d{3})\b/g, '$1$2'));
  const out = new Set([base]);
  const numbers = [...base.matchAll(/\b\d+\b/g)];
  if (numbers.length > 0) {
    let variants = [base];
    for (const m of numbers) {
      const digits = m[0];
      variants = variants.flatMap((v) =>
        numberWords(Number(digits)).map((w) => v.replace(new RegExp(`\\b${digits}\\b`), w)),
      );
    }
    for (const v of variants) out.add(v);
  }
  for (const v of [...out]) out.add(romanAsWords(v));
  return [...out];
}

const ROMAN: Readonly<Record<string, string>> = {
  i: 'one',
  ii: 'two',
  iii: 'three',
  iv: 'four',
  v: 'five',
  vi: 'six',
  vii: 'seven',
  viii: 'eight',
  ix: 'nine',
  x: 'ten',
};
/** Roman numerals read as number words where they are numbers: after "volume", "part" or "book", or last. */
function romanAsWords(key: string): string {
  const words = key.split(' ');
  return words
    .map((w, k) => {
      const number = ROMAN[w];
      // "I" elsewhere is the pronoun.
      const numeric = k > 0 && (k === words.length - 1 || NUMBERED.has(words[k - 1] as string));
      return number !== undefined && numeric ? number : w;
    })
    .join(' ');
}

const NUMBERED = new Set(['volume', 'part', 'book']);

/** The words of a normalised phrase without articles. */
export function withoutArticles(key: string): string {
  return key
    .split(' ')
    .filter((w) => !ARTICLES.has(w))
    .join(' ');
}

/**
 * Edit distance between two strings (optimal string alignment: insertions, deletions, substitutions and
 * transpositions of two neighbouring letters each count one, so "tolkein" is one edit from "tolkien"),
 * stopping early once it exceeds `max`.
 * @example
 * editDistance('hobit', 'hobbit') // 1
 * editDistance('tolkein', 'tolkien') // 1
 */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let previous: number[] = [];
  for (let j = 0; j <= b.length; j++) previous.push(j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, (before[j - 2] as number) + 1);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length] as number;
}

/** The typos tolerated in a word or phrase of this length: none in short words, more in long phrases. */
export function tolerance(length: number): number {
  if (length < 5) return 0;
  if (length < 9) return 1;
  return Math.min(3, 1 + Math.floor(length / 12));
}

/** Whether two normalised words are the same word, allowing a typo or a possessive/plural `s`. */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  if (/^\d/.test(a) || /^\d/.test(b)) return false;
  if (`${a}s` === b || `${b}s` === a) return a.length >= 3 && b.length >= 3;
  // A single word of five letters or fewer with one letter changed is usually another word ("grief", "brief").
  const shorter = Math.min(a.length, b.length);
  const allowed = shorter < 6 ? 0 : tolerance(shorter);
  return allowed > 0 && editDistance(a, b, allowed) <= allowed;
}
