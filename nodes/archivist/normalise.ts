/** A character outside printable ASCII: text without one takes the short way. */
const NOT_PLAIN = /[^\t\n\r -~]/;
const LATIN_LETTER = /\p{Script=Latin}/gu;
const COMBINING_LATIN = /[\u0300-\u036f]/g;
/** Latin letters that keep their stroke or ligature when their diacritics are taken off. */
const PLAIN_LATIN: Readonly<Record<string, string>> = {
  ł: 'l',
  Ł: 'l',
  ø: 'o',
  Ø: 'o',
  đ: 'd',
  Đ: 'd',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
  ß: 'ss',
  þ: 'th',
  Þ: 'th',
  ı: 'i',
};

/**
 * Lower-cases and strips punctuation so that matching is forgiving, keeping the letters of every script
 * ("Война и мир", "ノルウェイの森"); Latin letters also lose their diacritics ("Misérables" → "miserables"),
 * other scripts keep theirs ("й" stays itself).
 */
export function normalise(text: string): string {
  if (!NOT_PLAIN.test(text)) {
    return text
      .toLowerCase()
      .replace(/'/g, '')
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  }
  return text
    .normalize('NFKC')
    .replace(LATIN_LETTER, (ch) => PLAIN_LATIN[ch] ?? ch.normalize('NFD').replace(COMBINING_LATIN, ''))
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, ' ')
    .trim();
}
