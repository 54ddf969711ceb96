/**
 * Finds the catalog subjects a question names: by their own names ("science fiction"), by everyday words
 * ("funny" → humor), and by themes ("grief" → death). A subject named or said in everyday words is asked for;
 * a theme is met by a book of its subjects or one whose own text speaks of it.
 */
import { normalise } from './normalise.ts';
import { containsKey, replaceKey } from './scripts.ts';
import { SUBJECT_WORDS } from './subject-words.ts';
import { NARROW_THEMES, THEME_WORDS } from './theme-words.ts';

/** A theme a question names: its words as written (normalised), and the catalog subjects it belongs to. */
export interface ThemeMatch {
  readonly word: string;
  readonly subjects: readonly string[];
  /** Narrower than its subjects (see `NARROW_THEMES`): a book about it speaks of it. */
  readonly narrow?: true;
  /** Met only by a book of one of its subjects that also speaks of it ("dragons": fantasy that has them). */
  readonly both?: true;
}

/** What a text names of the catalog's subjects. */
export interface SubjectMatches {
  /** Subjects named, or said in everyday words. */
  readonly subjects: readonly string[];
  /** Themes named, each with the subjects it belongs to. */
  readonly themes: readonly ThemeMatch[];
  /** The text normalised, with the words that named subjects or themes replaced by `|`. */
  readonly rest: string;
}

/** "love" as a verb: after a person, a modal, or an adverb ("I'd love", "we really love", "to love"). */
const LOVE_VERB =
  /\b(i|we|you|they|he|she|id|wed|youd|theyd|would|will|really|just|absolutely|also|do|dont|to|kids|children|son|daughter)\s+love\b/g;

/** "play" as a noun: after an article and at most two words of its own ("a short French play"). */
const PLAY = /\b(?:a|an|one|the|this|that)(?: [a-z]+){0,2} play\b/;

function containsWords(haystack: string, needle: string): boolean {
  return needle !== '' && ` ${haystack} `.includes(` ${needle} `);
}

/** The subject matcher of a catalog whose subjects are `subjectKeys` (normalised name → name). */
export function subjectLookup(
  subjectKeys: readonly (readonly [string, string])[],
): (text: string) => SubjectMatches {
  const known = new Set(subjectKeys.map(([, subject]) => subject));
  const ofKnown = (value: string | readonly string[]) =>
    (typeof value === 'string' ? [value] : value).filter((s) => known.has(s));
  // Everyday words and themes, longest first ("world war ii" before "world war"), for subjects the catalog has.
  const phrases = [
    ...Object.entries(SUBJECT_WORDS).map(([word, subject]) => ({
      word,
      subjects: ofKnown(subject),
      theme: false,
    })),
    ...Object.entries(THEME_WORDS).map(([word, subjects]) => ({
      word,
      subjects: ofKnown(subjects),
      theme: true,
    })),
  ]
    .filter((p) => p.subjects.length > 0)
    .sort((a, b) => b.word.length - a.word.length);
  // Longer subjects first: "science fiction" is not also "science".
  const names = [...subjectKeys].sort(([a], [b]) => b.length - a.length);
  return (text) => {
    // "I would love something about gardens": the verb names no subject.
    let rest = normalise(text).replace(LOVE_VERB, '$1 |');
    const subjects = new Set<string>();
    const themes: ThemeMatch[] = [];
    // An everyday phrase wins over the subject words inside it: a "love story" is romance, not love.
    for (const { word, subjects: named, theme } of phrases) {
      if (!containsKey(rest, word)) continue;
      if (theme)
        themes.push({ word, subjects: named, ...(NARROW_THEMES.has(word) ? { narrow: true as const } : {}) });
      else for (const subject of named) subjects.add(subject);
      rest = replaceKey(rest, word, '|');
    }
    // "a French play", "the play Hamlet": a play, where the verb ("books that play with time") is none.
    if (known.has('drama') && PLAY.test(rest)) {
      subjects.add('drama');
      rest = rest.replace(PLAY, '|');
    }
    for (const [key, subject] of names) {
      if (!containsWords(rest, key)) continue;
      subjects.add(subject);
      rest = replaceKey(rest, key, '|');
    }
    return { subjects: [...subjects], themes, rest };
  };
}
