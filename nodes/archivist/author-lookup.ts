/**
 * Finds the catalog's authors named in a question: by full name, by a distinctive surname, and by the names
 * readers write in other scripts ("Лев Толстой", "村上春樹", "Толстого"). Surnames that are ordinary words
 * ("Swift", "King") name an author only where the sentence is about one.
 */
import { AUTHOR_NAMES } from './author-names.ts';
import { normalise } from './normalise.ts';
import { containsKey, isCyrillic, isUnspaced, latinOf } from './scripts.ts';

// Surnames that are also common English words ("more like this", "a swift read", "birthday card"): they
// name the author only where the sentence is about an author (see `namedAsAuthor`).
const COMMON_WORDS = new Set([
  'king',
  'wells',
  'london',
  'young',
  'little',
  'brown',
  'white',
  'green',
  'hope',
  'rice',
  'more',
  'french',
  'card',
  'swift',
  'hardy',
  'sacks',
  'diamond',
  'frost',
  'lee',
  'grant',
  'bacon',
  'wolf',
  'hill',
  'banks',
  'lewis',
  'mann',
  'moore',
  'carter',
  'miller',
  'march',
  'gay',
  'cross',
  'wood',
  'stone',
  'hunter',
]);

/** Particles that belong to a surname ("Le Guin", "de Beauvoir"). */
const PARTICLES = new Set(['le', 'la', 'de', 'du', 'van', 'von', 'der', 'del', 'di', 'da']);

/** Surnames that are also the adjective of a people or a language ("Tana French", "French novels"). */
const NATIONALITIES = new Set(['french', 'english', 'german', 'irish', 'welsh', 'dutch', 'british', 'roman']);
const WRITERS_AFTER =
  /^[\s-]+(?:authors?|writers?|novelists?|poets?|playwrights?|literature|fiction|novels?|books?|poetry|poems?|plays?|drama|stories|classics?|thrillers?|crime|myster(?:y|ies)|philosophy|history|memoirs?|essays?|language)\b/i;
const AFTER_PREPOSITION = /\b(?:from|in|into|about|of|on|set in|like)\s+$/i;

/**
 * Whether `surname` (a normalised word) is used as an author's name in `text` as written: after "by",
 * capitalised inside the sentence ("the Harper Lee novel"), or capitalised first and possessive or followed
 * by "on" ("Swift's satire", "Diamond on why societies collapse").
 */
export function namedAsAuthor(text: string, surname: string): boolean {
  for (const m of text.matchAll(new RegExp(`\\b${escapeRegExp(surname)}\\b`, 'gi'))) {
    const at = m.index ?? 0;
    const before = text.slice(0, at);
    const after = text.slice(at + m[0].length);
    // "by French authors", "Russian writers": a word before what is written is an adjective.
    if (NATIONALITIES.has(surname) && WRITERS_AFTER.test(after)) continue;
    if (/\bby\s+$/i.test(before)) return true;
    if (!/^\p{Lu}/u.test(m[0])) continue;
    // "translated from French", "set in London": a capital after a preposition is a place or a language.
    if (AFTER_PREPOSITION.test(before)) continue;
    if (before.trim() !== '' && !/[.!?:]\s*$/.test(before)) return true;
    if (/^(['’]s\b|\s+on\b)/.test(after)) return true;
  }
  return false;
}

/** What finds authors in a question. */
export interface AuthorLookup {
  /** Every catalog author by normalised surname ("le guin", "tolstoy"), for fuzzy matching. */
  readonly surnames: ReadonlyMap<string, ReadonlySet<string>>;
  /** Catalog authors named in `text`, by full name, by a distinctive surname, or in another script. */
  authorsIn(text: string): readonly string[];
}

function surnameOf(key: string): string {
  const words = key.split(' ');
  const last = words.at(-1) ?? '';
  const before = words.at(-2) ?? '';
  return PARTICLES.has(before) ? `${before} ${last}` : last;
}

/**
 * The author lookup of a catalog whose authors are `authorKeys` (normalised name → name, as the catalog's
 * keys hold them).
 */
export function authorLookup(authorKeys: readonly (readonly [string, string])[]): AuthorLookup {
  const authors = new Map(authorKeys);
  const held = new Set(authors.values());
  // Names in other scripts and spellings, of the catalog's own authors only.
  const others = new Map<string, string>();
  for (const [author, names] of Object.entries(AUTHOR_NAMES)) {
    if (!held.has(author)) continue;
    for (const name of names) others.set(normalise(name), author);
  }
  const surnames = new Map<string, Set<string>>();
  for (const [key, author] of authors) {
    const surname = surnameOf(key);
    if (surname.length < 3) continue;
    const set = surnames.get(surname) ?? new Set<string>();
    set.add(author);
    surnames.set(surname, set);
  }
  return {
    surnames,
    authorsIn(text) {
      // "John Green's novels": the possessive is not part of the name.
      const norm = normalise(text.replace(/['’]s\b/g, ''));
      const found = new Set<string>();
      for (const [key, author] of authors) if (containsKey(norm, key)) found.add(author);
      if (found.size === 0 && norm !== '') {
        for (const [key, author] of others) if (containsKey(norm, key)) found.add(author);
      }
      if (found.size === 0) {
        for (const [surname, names] of surnames) {
          if (!containsKey(norm, surname)) continue;
          // A surname several authors share ("Walker") names them all, but only in a sentence about an author.
          if (names.size > 1) {
            if (namedAsAuthor(text, surname)) for (const name of names) found.add(name);
            continue;
          }
          // A surname that is an ordinary word, or too short to be telling, needs a sentence about an author.
          const plain = COMMON_WORDS.has(surname) || surname.length < 4;
          if (plain && !namedAsAuthor(text, surname)) continue;
          // "Dan Brown" is not Dee Brown, nor "Thomas Cromwell" Angie Thomas: a capitalised name next to the
          // surname that is not the author's is someone else.
          if (otherFirstName(text, surname, [...names][0] as string)) continue;
          if (otherSurname(text, surname, [...names][0] as string)) continue;
          found.add([...names][0] as string);
        }
      }
      // A Cyrillic name the table does not hold, read in Latin letters ("Набоков" → nabokov).
      if (found.size === 0 && isCyrillic(norm)) {
        const latin = latinOf(norm);
        for (const [surname, names] of surnames) {
          if (names.size === 1 && surname.length >= 5 && !isUnspaced(surname) && containsKey(latin, surname))
            found.add([...names][0] as string);
        }
      }
      return [...found];
    },
  };
}

function otherFirstName(text: string, surname: string, author: string): boolean {
  const own = new Set(normalise(author).split(' '));
  const before = text.match(new RegExp(`(\\p{Lu}[\\p{L}.]*)\\s+${escapeRegExp(surname)}\\b`, 'iu'));
  const first = before?.[1];
  if (first === undefined || !/^\p{Lu}/u.test(first)) return false;
  return !own.has(normalise(first)) && !/^(The|A|An|By|And|Of)$/i.test(first);
}

/** Whether `surname` is written followed by a capitalised name that is not the author's ("Thomas Cromwell"). */
function otherSurname(text: string, surname: string, author: string): boolean {
  const own = new Set(normalise(author).split(' '));
  const after = text.match(new RegExp(`\\b${escapeRegExp(surname)}\\s+(\\p{Lu}[\\p{L}'’-]*)`, 'iu'));
  const next = after?.[1];
  if (next === undefined || !/^\p{Lu}/u.test(next)) return false;
  return !own.has(normalise(next)) && !/^(The|A|An|And|Of|In|On|By|I)$/.test(next);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
