/**
 * The order of book titles that tie on everything else: English collation, as `localeCompare` gives it
 * under an English locale, and the same on every machine. Titles of printable ASCII are compared directly
 * where their first difference (letters compared without case) is between two letters or digits, which
 * English collation orders digits first, then alphabetically; only other titles load the collator, which
 * costs milliseconds at the start of a process.
 */

/** Letters and digits in English collation's order: digits first, letters without case. */
function rankOf(code: number): number | undefined {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 122) return code - 97 + 10;
  return undefined;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The order of `a` and `b` when it needs no collator, else undefined. */
function plainOrder(a: string, b: string): number | undefined {
  if (!PRINTABLE_ASCII.test(a) || !PRINTABLE_ASCII.test(b)) return undefined;
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const shared = Math.min(x.length, y.length);
  for (let i = 0; i < shared; i++) {
    const p = x.charCodeAt(i);
    const q = y.charCodeAt(i);
    if (p === q) continue;
    const rp = rankOf(p);
    const rq = rankOf(q);
    // Spaces and punctuation have an order of their own; the collator knows it.
    if (rp === undefined || rq === undefined) return undefined;
    return rp < rq ? -1 : 1;
  }
  // The same words in other cases are ordered by case, which the collator knows; a title that starts
  // another comes first.
  if (x.length === y.length) return undefined;
  return x.length < y.length ? -1 : 1;
}

let english: Intl.Collator | undefined;

/**
 * Compares two titles in English collation order (negative when `a` comes first).
 * @example
 * ['dune', 'Brave New World', '1984'].sort(compareTitles) // ['1984', 'Brave New World', 'dune']
 */
export function compareTitles(a: string, b: string): number {
  const plain = plainOrder(a, b);
  if (plain !== undefined) return plain;
  english ??= new Intl.Collator('en');
  return english.compare(a, b);
}
