/**
 * Text in the scripts readers write titles and names in: Latin, Cyrillic, Greek, and the scripts written
 * without spaces between words (Chinese, Japanese, Korean, Thai). Pure functions over normalised text
 * (see `normalise`): a name in a script without spaces is found inside a run of text, a Cyrillic word in
 * any grammatical case ("Толстого" is "Толстой"), and Cyrillic text is read in Latin letters too.
 */

/** Letters of the scripts written without spaces between words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
/** Letters of any script but Latin. */
const NON_LATIN = /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u;

/** Whether `text` holds letters of a script written without spaces between words. */
export function isUnspaced(text: string): boolean {
  return UNSPACED.test(text);
}

/** Whether `text` holds Cyrillic letters. */
export function isCyrillic(text: string): boolean {
  return CYRILLIC.test(text);
}

/** Whether `text` holds letters of a script other than Latin. */
export function hasOtherScript(text: string): boolean {
  return NON_LATIN.test(text);
}

const SPACE_BETWEEN_UNSPACED = new RegExp(`(?<=${UNSPACED.source}) (?=${UNSPACED.source})`, 'gu');

/** `text` without the spaces between letters of scripts written without them ("村上 春樹" → "村上春樹"). */
export function joinUnspaced(text: string): string {
  return text.replace(SPACE_BETWEEN_UNSPACED, '');
}

// The endings of Russian nouns, adjectives and names in their cases, longest first.
const ENDINGS = [
  'ами',
  'ями',
  'ого',
  'его',
  'ому',
  'ему',
  'ыми',
  'ими',
  'ой',
  'ей',
  'ий',
  'ый',
  'ая',
  'яя',
  'ое',
  'ее',
  'ую',
  'юю',
  'ым',
  'им',
  'ом',
  'ем',
  'ам',
  'ям',
  'ах',
  'ях',
  'ов',
  'ев',
  'ою',
  'ею',
  'ых',
  'их',
  'а',
  'я',
  'у',
  'ю',
  'е',
  'ы',
  'и',
  'о',
  'й',
];
/** The shortest stem two Cyrillic words are compared by. */
const MIN_STEM = 3;

/** A Cyrillic word and its stems: the word without each case ending it has. */
function stemsOf(word: string): string[] {
  const stems = [word];
  for (const ending of ENDINGS) {
    if (word.endsWith(ending) && word.length - ending.length >= MIN_STEM)
      stems.push(word.slice(0, -ending.length));
  }
  return stems;
}

/**
 * Whether two normalised words are the same word: equal, or, in Cyrillic, two cases of one word ("толстого",
 * "толстой"; "маргариту", "маргарита"): the same stem once a case ending is taken off each.
 */
export function sameInflected(a: string, b: string): boolean {
  if (a === b) return true;
  if (!isCyrillic(a) || !isCyrillic(b)) return false;
  const stems = new Set(stemsOf(a));
  return stemsOf(b).some((stem) => stems.has(stem));
}

/**
 * Whether the normalised `key` (a title or a name) is in the normalised `text`: as whole words, a Cyrillic
 * word in any case, and a key in a script without spaces anywhere inside the text ("ノルウェイの森を読みたい").
 */
export function containsKey(text: string, key: string): boolean {
  if (key === '') return false;
  if (isUnspaced(key)) return joinUnspaced(text).includes(joinUnspaced(key));
  if (` ${text} `.includes(` ${key} `)) return true;
  if (!isCyrillic(key)) return false;
  const words = text.split(' ');
  const wanted = key.split(' ');
  for (let at = 0; at + wanted.length <= words.length; at++) {
    if (wanted.every((w, i) => sameInflected(words[at + i] as string, w))) return true;
  }
  return false;
}

/** `text` with every occurrence of `key` ({@link containsKey}) replaced by `mark`. */
export function replaceKey(text: string, key: string, mark: string): string {
  if (key === '') return text;
  if (isUnspaced(key)) return joinUnspaced(text).split(joinUnspaced(key)).join(` ${mark} `);
  const words = text.split(' ');
  const wanted = key.split(' ');
  const out: string[] = [];
  for (let at = 0; at < words.length; ) {
    const here =
      at + wanted.length <= words.length && wanted.every((w, i) => sameInflected(words[at + i] as string, w));
    if (here) {
      out.push(mark);
      at += wanted.length;
    } else {
      out.push(words[at] as string);
      at += 1;
    }
  }
  return out.join(' ');
}

// Russian Cyrillic in Latin letters, as names are usually written in English ("Достоевский" → dostoevskiy).
const LATIN_OF: Readonly<Record<string, string>> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
  і: 'i',
  ї: 'yi',
  є: 'ye',
  ґ: 'g',
};

/**
 * Cyrillic letters of a normalised text in Latin letters; other letters as they are.
 * @example
 * latinOf('лев толстой') // 'lev tolstoy'
 */
export function latinOf(text: string): string {
  let out = '';
  for (const ch of text) out += LATIN_OF[ch] ?? ch;
  return out;
}
