/**
 * What a question names, read against the catalog: a book (also misspelt or shortened), an author (also
 * misspelt), a series, or a title or author the catalog does not hold; and its constraints. Pure.
 */
import { type Catalog, normalise } from './catalog.ts';
import { type Constraints, parseConstraints } from './constraints.ts';
import { type OriginFilter, originOf } from './origin.ts';
import { GENERIC_TAIL, inSeries, nthOfSeries, seriesNamed } from './series-reading.ts';
import { sameWord } from './text-match.ts';
import { titlePattern } from './title-lookup.ts';
import { matchTitle } from './title-match.ts';
import type { Book } from './types.ts';

/** A question read against the catalog. */
export interface Reading {
  readonly constraints: Omit<Constraints, 'notAuthors' | 'notTitles' | 'rest'>;
  /** Catalog authors the reader does not want. */
  readonly notAuthors: readonly string[];
  /** Catalog books the reader does not want ("not the Hobbit"). */
  readonly notBooks: readonly string[];
  /** The question without its constraints. */
  readonly rest: string;
  /** The origin (language, country) and audience asked for. */
  readonly origin: OriginFilter;
  /** A book named loosely (misspelt, without its article…), when no exact title was found. */
  readonly book?: Book;
  /** The book was found by its place in a series ("the second Dune book"): it wins over a title named. */
  readonly placed?: true;
  /** A catalog author named, also misspelt ("Tolstoi"). */
  readonly author?: string;
  /** A series the question asks for. */
  readonly series?: string;
  /** What the reader named that the catalog does not hold, as written, and whether it is an author. */
  readonly missing?: { readonly name: string; readonly author: boolean };
}

// Request words around a title: "tell me about …", "do you have …", "… in the catalog?".
const LEAD =
  /^(?:(?:can|could) you |please |so |and |ok |hi |hello )*(?:(?:tell me (?:more )?about|describe|what(?:'s| is) (?:the book )?|do you (?:have|hold|carry)(?: a copy of)?|have you got|is there|are there|is|are|i(?:'m| am) looking for|looking for|find(?: me)?|search for|show me|what about|anything|something|any|some|all(?: of)?(?: the)?|every|everything|list(?: all| every)?(?: of)?(?: the)?|the book|the novel|a book called|books? called)\s+)+/i;
const TRAIL = /\s*(?:in (?:the|your|this) (?:catalog(?:ue)?|collection|library)|please|at all)?\s*[?.!]*$/i;
/** A title asked for by name has at most this many words; a longer phrase is no title to repeat back. */
const EXPLICIT_WORDS = 8;
/** A request for one book by its name: what follows is a title, whatever its case. */
const EXPLICIT =
  /^(?:(?:hi|hello|hey|please|so|and|ok)[,!]?\s+)*(?:do you (?:have|hold|carry|stock)|have you got|is there a (?:book|novel) called|i(?:'m| am) looking for (?:the|a) (?:book|novel) (?:called )?|does the (?:library|catalog(?:ue)?|collection) (?:have|hold))\s+(?:the |a |an )?(?!any\b|some\b|anything\b|something\b|books?\b|novels?\b)/i;
const CALLED = /\b(?:called|titled|entitled|named)\s+["“]?([^"”]+?)["”]?$/i;
const BY = /(?:^|\s)(?:written )?by\s+(.+)$/i;
/** A phrase of at most this many words may be a lower-case name. */
const BARE_NAME_WORDS = 3;
const LINKING = new Set([
  'of',
  'and',
  'in',
  'on',
  'to',
  'for',
  'at',
  'the',
  'a',
  'an',
  'with',
  'from',
  '&',
  // Particles of names ("John le Carré", "Simone de Beauvoir").
  'le',
  'la',
  'de',
  'du',
  'da',
  'di',
  'del',
  'van',
  'von',
  'der',
]);

/**
 * A phrase written as a name or a title: every word but the linking ones capitalised, and two words at
 * least unless it starts with a capitalised article or an author follows ("The Idiot", "Silence by …").
 */
function looksLikeName(phrase: string, single = /^(The|A|An)\s/.test(phrase)): boolean {
  const words = phrase
    .replace(/[,:;!?]/g, ' ')
    .split(/\s+/)
    .filter((w) => w !== '');
  const content = words.filter((w) => !LINKING.has(w.toLowerCase()));
  return (
    (content.length >= 2 || (single && content.length === 1)) && content.every((w) => /^[\p{Lu}\d]/u.test(w))
  );
}

/** The title phrase and the author phrase of a question framed around one book or author. */
export function framesOf(question: string): { phrase: string; by?: string } {
  const stripped = question.trim().replace(TRAIL, '').replace(LEAD, '').trim();
  // "a sequel to The Great Gatsby called Gatsby Returns": the name after "called" is the one asked for.
  const text = stripped.match(CALLED)?.[1]?.trim() || stripped;
  const by = text.match(BY);
  if (by?.index === undefined) return { phrase: text };
  return { phrase: text.slice(0, by.index).trim(), by: (by[1] ?? '').replace(TRAIL, '').trim() };
}

/** A catalog author whose surname `word` misspells, when exactly one author's does. */
function fuzzyAuthor(text: string, catalog: Catalog, anyCase = false): string | undefined {
  const words = text.match(/(?:\bby\s+)?[\p{L}'’-]+/gu) ?? [];
  const found = new Set<string>();
  for (const raw of words) {
    const by = /^by\s/i.test(raw);
    const word = raw.replace(/^by\s+/i, '');
    // Only a word written as a name, or after "by", is taken for an author's.
    if (!by && !anyCase && !/^\p{Lu}/u.test(word)) continue;
    const key = normalise(word);
    // An exact surname is the catalog's own business (it knows which ones are ordinary words).
    if (key.length < 6 || catalog.surnames.has(key)) continue;
    for (const [surname, names] of catalog.surnames) {
      if (names.size === 1 && surname.length >= 5 && sameWord(key, surname))
        found.add([...names][0] as string);
    }
  }
  return found.size === 1 ? [...found][0] : undefined;
}

/**
 * Whether `phrase` is written as a title: capitalised words, and no subject words unless it reads as a
 * title all the same ("A Dance with Dragons", with an article first or a linking word inside).
 */
function titleLike(phrase: string, frame: { by?: string }, catalog: Catalog): boolean {
  if (phrase === '') return false;
  const article = /^(The|A|An)\s/.test(phrase);
  if (!looksLikeName(phrase, article || frame.by !== undefined)) return false;
  const inner = phrase
    .split(/\s+/)
    .slice(1, -1)
    .some((w) => LINKING.has(w.toLowerCase()));
  return catalog.subjectsIn(phrase).length === 0 || article || inner;
}

/** The catalog author `phrase` is nothing but the name of ("Ursula Le Guin", "Dostoyevsky"). */
function nameOnly(phrase: string, catalog: Catalog): string | undefined {
  const author = catalog.authorsIn(phrase)[0] ?? fuzzyAuthor(phrase, catalog);
  if (author === undefined) return undefined;
  const name = new Set(normalise(author).split(' '));
  const words = normalise(phrase.replace(/['’]s\b/g, '')).split(' ');
  const other = words.filter((w) => !name.has(w) && !catalog.surnames.has(w));
  return other.length <= words.length / 2 ? author : undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `question` without the words that asked for `origin`, found in `named` (the question without authors). */
function withoutOrigin(question: string, named: string): string {
  if (named === question) return originOf(question).rest;
  const removed = new Set(normalise(named).split(' '));
  for (const w of normalise(originOf(named).rest).split(' ')) removed.delete(w);
  const words = question.split(/\s+/).filter((w) => !removed.has(normalise(w)));
  return words.join(' ');
}

/** `phrase` without an author's name at its end, when a title is left before it. */
function withoutAuthorTail(phrase: string, catalog: Catalog): string {
  // "Roald Dahl" is a name, not the title "Roald" (read as "The Road") and a surname.
  if (phrase === '') return phrase;
  const named = catalog.authorsIn(phrase).map((a) => new Set(normalise(a).split(' ')));
  if (
    named.some((name) =>
      normalise(phrase)
        .split(' ')
        .every((w) => name.has(w)),
    )
  )
    return phrase;
  const words = phrase.split(/\s+/);
  for (let k = Math.min(3, words.length - 1); k >= 1; k--) {
    const tail = normalise(
      words
        .slice(-k)
        .join(' ')
        .replace(/['’]s$/, ''),
    );
    // "L'Étranger de Camus", "Der Zauberberg von Thomas Mann": the word for "by" in the title's language goes too.
    const head = words
      .slice(0, -k)
      .join(' ')
      .replace(/\s+(?:de|von|di|par|por|by)$/i, '');
    const isAuthor =
      catalog.surnames.has(tail) || catalog.authorsIn(`by ${tail}`).some((a) => normalise(a) === tail);
    if (isAuthor && matchTitle(head, catalog)) return head;
  }
  return phrase;
}

/** Whether `text` names `author` as the writer: "by Donna Tartt", "Donna Tartt's novel". */
function namesAuthor(text: string, author: string): boolean {
  const name = escapeRegExp(author).replace(/\\\.\s*/g, '\\.?\\s*');
  return new RegExp(`\\bby\\s+${name}\\b|\\b${name}['’]s\\b`, 'i').test(text);
}

/**
 * The capitalised name `text` writes where it quotes `title`, when it goes on past the title ("The Secret
 * Garden Party"): another book, which the catalog does not hold. Undefined when the title stands alone.
 */
function extendedTitle(text: string, title: string, catalog: Catalog): string | undefined {
  const at = text.toLowerCase().indexOf(title.toLowerCase());
  if (at < 0) return undefined;
  const after = text.slice(at + title.length).match(/^(?:\s+\p{Lu}[\p{L}'’-]*)+/u)?.[0] ?? '';
  const words = after
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  // "The Hobbit Tolkien": an author's name after the title is not part of it.
  const extra = words.filter((w) => !catalog.surnames.has(normalise(w)) && !/^(I|By)$/.test(w));
  if (words.length === 0 || extra.length < words.length) return undefined;
  return `${text.slice(at, at + title.length)}${after}`.trim();
}

/**
 * Reads `question` against the catalog. `titleFound` says whether an exact title was already found;
 * `year` is the current year for relative dates.
 * @example
 * readQuestion('books by Leo Tolstoi', catalog, false, 2026).author // 'Leo Tolstoy'
 */
export function readQuestion(
  question: string,
  catalog: Catalog,
  titleFound: Book | undefined,
  year: number,
): Reading {
  const parsed = parseConstraints(question, year);
  const notAuthors = parsed.notAuthors.flatMap((name) => {
    const exact = catalog.authorsIn(`by ${name}`);
    if (exact.length > 0) return [...exact];
    const fuzzy = fuzzyAuthor(`by ${name}`, catalog);
    return fuzzy ? [fuzzy] : [];
  });
  const { notAuthors: _n, notTitles, rest: unlimited, ...constraints } = parsed;
  const notBooks = (notTitles ?? []).flatMap((title) => matchTitle(title, catalog)?.id ?? []);
  // "Tana French" is an author, not an origin.
  const authorNames = catalog.authorsIn(unlimited).flatMap((author) => {
    const surname = normalise(author).split(' ').at(-1) ?? '';
    return [escapeRegExp(author), `\\b${escapeRegExp(surname)}\\b`];
  });
  // "I loved Norwegian Wood" names a book, not Norway: the words of titles named are no origin either.
  const titled = [...new Set([...(titleFound ? [titleFound] : []), ...catalog.titlesIn(unlimited)])];
  const named = [...authorNames, ...titled.map((b) => titlePattern(b.title))].reduce(
    (text, name) => text.replace(new RegExp(name, 'iu'), ' '),
    unlimited,
  );
  const origin = originOf(named).filter;
  // The origin's words leave the question, the author's name stays.
  const rest = Object.keys(origin).length > 0 ? withoutOrigin(unlimited, named) : unlimited;
  const base = { constraints, notAuthors, notBooks, rest, origin };
  const nth = nthOfSeries(rest, catalog);
  if (nth?.book) return { ...base, book: nth.book, placed: true };
  if (nth) return { ...base, missing: { name: nth.name, author: false } };
  const series = seriesNamed(rest, framesOf(rest).phrase, catalog, titleFound);
  if (series) return { ...base, series };
  const frame = framesOf(rest);
  // "Kafka on the Shore", "The Martian": a name inside a title named is no author asked for.
  const untitled = titled.reduce(
    (text, b) => text.replace(new RegExp(titlePattern(b.title), 'iu'), ' '),
    rest,
  );
  const exactAuthor = catalog.authorsIn(untitled)[0];
  // "Dune Frank Herbert", "the hobbit tolkien": a title followed by its author's name.
  const phrase = withoutAuthorTail(frame.phrase.replace(GENERIC_TAIL, '').trim(), catalog);
  // A question that is nothing but a name may be typed in lower case ("hemmingway").
  const bare = phrase !== '' && phrase.split(/\s+/).length <= BARE_NAME_WORDS;
  const author =
    exactAuthor ??
    fuzzyAuthor(untitled, catalog) ??
    (bare && titled.length === 0 ? fuzzyAuthor(phrase, catalog, true) : undefined);
  const book = phrase === '' ? undefined : matchTitle(phrase, catalog);
  // "Brave New World Revisited" holds a catalog title but names another book.
  const longer = titleFound !== undefined && !book && titleLike(phrase, frame, catalog);
  // "Donna Tartt's The Secret Garden Party": a title held, but by someone else, or with more words to it.
  const held = titleFound ?? book ?? catalog.titlesIn(rest)[0];
  if (held && !/\b(like|similar|than|instead|loved|enjoyed|liked)\b/i.test(rest)) {
    const name = extendedTitle(rest, held.title, catalog);
    const other =
      exactAuthor !== undefined && !held.authors.includes(exactAuthor) && namesAuthor(rest, exactAuthor);
    if (other || name !== undefined)
      return { ...base, missing: { name: name ?? held.title, author: false }, ...(author ? { author } : {}) };
  }
  if (titleFound && !longer) return { ...base, ...(author ? { author } : {}) };
  // A phrase that is an author's name ("Yukio Mishima") is not a title.
  const phraseAuthor = phrase === '' ? undefined : nameOnly(phrase, catalog);
  if (book && !phraseAuthor) return { ...base, book, ...(author ? { author } : {}) };
  if (longer || (!phraseAuthor && (titleLike(phrase, frame, catalog) || inSeries(phrase, catalog)))) {
    // "The Idiot by Dostoevsky": the author is held, the book is not.
    const named = frame.phrase !== phrase && frame.by === undefined;
    return { ...base, missing: { name: phrase, author: named }, ...(author ? { author } : {}) };
  }
  if (author) return { ...base, author };
  // "have you got the silver kettle": a request for one book by name, in any case, names a title.
  if (
    EXPLICIT.test(rest) &&
    phrase !== '' &&
    phrase.split(/\s+/).length <= EXPLICIT_WORDS &&
    frame.by === undefined &&
    catalog.subjectsIn(phrase).length === 0
  ) {
    return { ...base, missing: { name: phrase, author: false } };
  }
  if (frame.by !== undefined && looksLikeName(frame.by.replace(GENERIC_TAIL, ''))) {
    return { ...base, missing: { name: frame.by.replace(GENERIC_TAIL, ''), author: true } };
  }
  // "John Grisham legal thrillers": a leading name the catalog does not know, then what is wanted.
  const lead = frame.phrase.match(/^(\p{Lu}[\p{L}'’.-]+(?:\s+\p{Lu}[\p{L}'’.-]+)+)\s+[\p{Ll}]/u);
  if (lead?.[1] && catalog.titlesIn(lead[1], { anyCase: true }).length === 0) {
    return { ...base, missing: { name: lead[1], author: true } };
  }
  return base;
}
