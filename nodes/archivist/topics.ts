/**
 * The topic a question asks about, read from its "about …" phrase ("short books about grief", "a novel
 * dealing with slavery", "books with dragons"): the catalog subjects its words name (through the everyday and
 * theme words: grief → death), the words books must mention to be about it, and the words no book of the
 * catalog mentions at all, which no answer can meet. Also the kinds of book the catalog holds none of
 * ("a cookbook"). Pure.
 */
import { type Catalog, normalise } from './catalog.ts';
import type { ThemeMatch } from './subject-lookup.ts';
import type { Book } from './types.ts';

/** What a question's topic phrase asks for. */
export interface Topic {
  /** The topic phrase as the reader wrote it ("Noah's ark and the flood"). */
  readonly phrase: string;
  /** Catalog subjects the phrase names, or says in everyday words. */
  readonly subjects: readonly string[];
  /** Themes the phrase names ("grief"): a book is about one when it has one of its subjects or speaks of it. */
  readonly themes: readonly ThemeMatch[];
  /** Words of the phrase no subject covers that books of the catalog mention: a book about it mentions them. */
  readonly terms: readonly string[];
  /** Words of the phrase that no book of the catalog mentions. */
  readonly lacking: readonly string[];
}

// The words that introduce a topic, and what follows them.
const TOPIC =
  /\b(?:about|regarding|concerning|featuring|involving|dealing with|deals? with|exploring|explores?|set (?:in|during|among)|taking place in|on the (?:subject|topic) of|(?:books?|novels?|stor(?:y|ies)|something|anything|reading|a memoir|a history) (?:on|with))\s+(.+)$/i;
// Where the topic phrase ends: punctuation, a limit, an audience, an author, another clause.
const TOPIC_END =
  /\s*(?:[,;.!?()]|\b(?:under|over|less than|more than|fewer than|at least|at most|before|after|since|between|from the|in the (?:\d|last|past)|published|written|by|for (?:a|an|my|our|the|kids|children|teens|adults|young)|not|but|except|that (?:is|are|isn't|aren't)|which|who|set in|shorter|longer|please|preferably|ideally|if possible|in (?:french|german|spanish|russian|italian|japanese|english|translation))\b).*$/i;
/** Words of a topic phrase that carry no topic. */
const PLAIN = new Set(
  (
    'a an the and or of in on to with his her their its my your our some any this that these those ' +
    'book books novel novels story stories kind kinds sort sorts type types lot lots bit something ' +
    'anything things thing good great best interesting real people person someone somebody life lives ' +
    'world time times way ways really very quite about also more most other others one ones two first ' +
    'new old young little big small long short whole own just like such much many well ' +
    'them they it its him her us we you me there where who whose system systems becomes become'
  ).split(' '),
);
/** Words that describe the word of a topic after them rather than name one of their own. */
const DESCRIBING = new Set(
  'ancient medieval victorian modern contemporary early late classical famous dark strange lonely brave poor rich rural urban'.split(
    ' ',
  ),
);
/** Kinds of book a catalog of literature holds none of, named for what they are. */
const NO_SUCH_KIND: readonly (readonly [RegExp, string])[] = [
  [/\b(?:cook ?books?|cookery books?|recipe books?|recipes)\b/i, 'cookbooks'],
  [/\b(?:text ?books?|course books?|workbooks?)\b/i, 'textbooks'],
  [/\b(?:dictionar(?:y|ies)|thesaurus|encyclopa?edias?)\b/i, 'dictionaries or encyclopedias'],
  [/\b(?:guide ?books?|travel guides?|phrase ?books?)\b/i, 'guidebooks'],
  [/\b(?:colou?ring books?|activity books?|puzzle books?|crossword books?)\b/i, 'activity books'],
];

const vocabularies = new WeakMap<Catalog, ReadonlySet<string>>();

/** Every word of the catalog's titles, subjects and descriptions, normalised. */
function vocabularyOf(catalog: Catalog): ReadonlySet<string> {
  let words = vocabularies.get(catalog);
  if (words === undefined) {
    words = new Set(catalog.books.flatMap((b) => textOf(b).split(' ')));
    vocabularies.set(catalog, words);
  }
  return words;
}

/** The forms of a word a book may use for it: "dogs" for "dog", "whale" for "whales". */
export function wordForms(word: string): string[] {
  // "Rome" is spoken of as "Roman", "Italy" as "Italian".
  const people = word.endsWith('e') || word.endsWith('y') ? `${word.slice(0, -1)}an` : `${word}an`;
  const forms = [word, `${word}s`, `${word}es`, people, `${word.slice(0, -1)}ian`, `${word}ness`];
  if (word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`);
  else if (word.endsWith('es')) forms.push(word.slice(0, -2), word.slice(0, -1));
  else if (word.endsWith('s') && !word.endsWith('ss')) forms.push(word.slice(0, -1));
  return forms;
}

/** Whether `book`'s own text (title, subjects, description) mentions `word` in one of its forms. */
export function mentions(text: string, word: string): boolean {
  const padded = ` ${text} `;
  return wordForms(word).some((form) => padded.includes(` ${form} `));
}

/**
 * The kind of book `question` asks for that a catalog of literature holds none of ("cookbooks"), if any. A
 * capitalised word inside the sentence belongs to a name ("the Hitchhiker's Guide books").
 */
export function missingKindOf(question: string): string | undefined {
  for (const [pattern, kind] of NO_SUCH_KIND) {
    const m = question.match(pattern);
    if (m === null) continue;
    const named =
      /^\p{Lu}/u.test(m[0]) && (m.index ?? 0) > 0 && !/[.!?]\s*$/.test(question.slice(0, m.index));
    if (!named) return kind;
  }
  return undefined;
}

/**
 * The topic `question` (without its limits) asks about, or undefined when it names none. Names of the
 * catalog's authors and titles in the phrase are left to the rest of the reading.
 * @example
 * topicOf('short books about grief', catalog) // { phrase: 'grief', subjects: ['death'], terms: [], lacking: [] }
 */
export function topicOf(question: string, catalog: Catalog): Topic | undefined {
  const m = question.match(TOPIC);
  const phrase = m?.[1]?.replace(TOPIC_END, '').trim();
  if (phrase === undefined || phrase === '') return undefined;
  // "books about Tolstoy", "about The Lord of the Rings": a name is the rest of the reading's business; only
  // the words of the phrase besides names are its topic ("Noah's ark" is about an ark, not Trevor Noah).
  if (catalog.titlesIn(phrase).length > 0) return undefined;
  const names = new Set(catalog.authorsIn(phrase).flatMap((a) => normalise(a).split(' ')));
  // "Noah's ark": a possessive names the same word as the name alone.
  const { subjects, themes, rest } = catalog.subjectMatches(phrase.replace(/['’]s\b/g, ''));
  const words = rest.split(' ');
  const kept = (w: string) => w.length > 2 && !PLAIN.has(w) && !names.has(w) && !/^\d+$/.test(w);
  // "ancient Rome", "medieval monks": a describing word before a word of the topic narrows it, it is not one.
  const left = words.filter((w, at) => kept(w) && !(DESCRIBING.has(w) && kept(words[at + 1] ?? '')));
  if (subjects.length === 0 && themes.length === 0 && left.length === 0) return undefined;
  const known = knownIn(catalog);
  const topic = themed(phrase, themes, catalog);
  return {
    ...topic,
    subjects,
    terms: [...topic.terms, ...left.filter(known)],
    lacking: left.filter((w) => !known(w)),
  };
}

/** Whether some book of `catalog` mentions a word, in one of its forms. */
function knownIn(catalog: Catalog): (word: string) => boolean {
  const vocabulary = vocabularyOf(catalog);
  return (w) => wordForms(w).some((form) => vocabulary.has(form));
}

/**
 * The topic of `themes`. A narrow theme ("slavery", "dragons") some book speaks of is met by the books of its
 * subjects that speak of it ("dragons": fantasy that has them, not "The Dragons of Eden"), or, where none of
 * its subjects' books does, by any book that speaks of it.
 */
function themed(phrase: string, themes: readonly ThemeMatch[], catalog: Catalog): Topic {
  const known = knownIn(catalog);
  const spoken = themes.filter((t) => t.narrow && t.word.split(' ').every(known));
  const both = spoken.filter((t) =>
    catalog.books.some((b) => t.subjects.some((s) => b.subjects.includes(s)) && mentions(textOf(b), t.word)),
  );
  return {
    phrase,
    subjects: [],
    themes: [
      ...themes.filter((t) => !spoken.includes(t)),
      ...both.map((t) => ({ ...t, both: true as const })),
    ],
    terms: spoken.filter((t) => !both.includes(t)).map((t) => t.word),
    lacking: [],
  };
}

/** A book's own text, normalised: what it is said to be about. */
export function textOf(book: Pick<Book, 'title' | 'subjects' | 'description'>): string {
  return wordsOf(`${book.title} ${book.subjects.join(' ')} ${book.description}`);
}

/** Normalised words of `text` without possessives: "Cat's Cradle" does not speak of cats. */
function wordsOf(text: string): string {
  return normalise(text.replace(/[\p{L}\p{N}]+['’]s\b/gu, ' '));
}

/** How many of the topic's words and themes `book`'s own title names: "Practical Cats" for "cats". */
export function titleNames(book: Book, topic: TopicParts): number {
  const title = wordsOf(book.title);
  const words = [...(topic.terms ?? []), ...(topic.themes ?? []).map((t) => t.word)];
  return words.filter((w) => mentions(title, w)).length;
}

/** Subjects the catalog keeps apart that a reader does not: a love story is a romance, a detective story a mystery. */
const KIN: Readonly<Record<string, readonly string[]>> = {
  love: ['romance'],
  romance: ['love'],
  detective: ['mystery'],
  mystery: ['detective'],
};

/** Whether `book` has `subject`, or a subject a reader takes for it (see {@link KIN}). */
function hasSubject(book: Book, subject: string): boolean {
  return book.subjects.includes(subject) || (KIN[subject] ?? []).some((s) => book.subjects.includes(s));
}

/** The parts of a topic asked for, as filters hold them. */
export interface TopicParts {
  readonly subjects?: readonly string[];
  readonly themes?: readonly ThemeMatch[];
  readonly terms?: readonly string[];
}

/**
 * How many parts of the topic `book` is about, and how many there are: each subject it has, each theme it
 * has a subject of or speaks of, each word its own text mentions.
 */
export function coverage(
  book: Book,
  topic: TopicParts,
): { readonly covered: number; readonly whole: number } {
  const subjects = topic.subjects ?? [];
  const themes = topic.themes ?? [];
  const terms = topic.terms ?? [];
  const whole = subjects.length + themes.length + terms.length;
  if (whole === 0) return { covered: 0, whole };
  const text = themes.length + terms.length > 0 ? textOf(book) : '';
  const covered =
    subjects.filter((s) => hasSubject(book, s)).length +
    themes.filter((t) =>
      t.both
        ? t.subjects.some((s) => hasSubject(book, s)) && mentions(text, t.word)
        : t.subjects.some((s) => hasSubject(book, s)) || mentions(text, t.word),
    ).length +
    terms.filter((t) => mentions(text, t)).length;
  return { covered, whole };
}

/** The filters a question's topic adds: its subjects and themes, the words books about it mention, what none is about. */
export interface TopicFilters extends TopicParts {
  readonly topic?: string;
  readonly lacking?: { readonly words?: readonly string[]; readonly kind?: string };
  /** Nothing can be about it: the answer says so and offers no book. */
  readonly none?: true;
}

/**
 * The filters of the topic `rest` (the question without its limits) asks about, with the `asked` subjects the
 * classification found (less those only a theme of the topic named: a theme is met by its subjects or its
 * word); `question` is read whole for a kind of book the catalog lacks.
 */
export function topicFilters(
  question: string,
  rest: string,
  asked: readonly string[],
  catalog: Catalog,
): TopicFilters {
  const kind = missingKindOf(question);
  if (kind !== undefined) return { lacking: { kind }, none: true };
  const matches = catalog.subjectMatches(rest);
  // Without an "about …" phrase, the themes the question names are its topic ("vampire novels").
  const topic =
    topicOf(rest, catalog) ??
    (matches.themes.length === 0
      ? undefined
      : themed(matches.themes.map((t) => t.word).join(' and '), matches.themes, catalog));
  const named = new Set(matches.subjects);
  // A subject only a theme named ("vampires" → horror) is where to look, not what every book must be.
  const theirs = new Set(matches.themes.flatMap((t) => t.subjects));
  const subjects = [
    ...new Set([...asked.filter((s) => named.has(s) || !theirs.has(s)), ...(topic?.subjects ?? [])]),
  ];
  if (topic === undefined) return subjects.length > 0 ? { subjects } : {};
  // Every word of the topic is one no book mentions: no book is about it.
  const none =
    topic.lacking.length > 0 &&
    topic.subjects.length === 0 &&
    topic.themes.length === 0 &&
    topic.terms.length === 0;
  return {
    ...(subjects.length > 0 ? { subjects } : {}),
    ...(topic.themes.length > 0 ? { themes: topic.themes } : {}),
    ...(topic.terms.length > 0 ? { terms: topic.terms } : {}),
    topic: topic.phrase,
    ...(topic.lacking.length > 0 ? { lacking: { words: topic.lacking } } : {}),
    ...(none ? { none: true as const } : {}),
  };
}
