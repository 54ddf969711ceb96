/**
 * The limits a question puts on the books it wants: not by some author, a page range, a year range
 * ("before 1960", "from the 1960s", "the last twenty years"). Pure: the current year is passed in.
 */
import { wordValue } from './text-match.ts';

/** Limits read from a question; a book must meet all of them. */
export interface Constraints {
  /** Author names as the reader wrote them after "not by" (resolved against the catalog by the caller). */
  readonly notAuthors: readonly string[];
  /** Titles as the reader wrote them after "not" or "except" ("not the Hobbit"), resolved by the caller. */
  readonly notTitles?: readonly string[];
  readonly minPages?: number;
  readonly maxPages?: number;
  readonly minYear?: number;
  readonly maxYear?: number;
  /** The question with the phrases of the constraints taken out, for the rest of the reading. */
  readonly rest: string;
}

const CENTURY_WORDS: Readonly<Record<string, number>> = {
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  twentieth: 20,
  'twenty-first': 21,
  'twenty first': 21,
};
const DECADE_WORDS: Readonly<Record<string, number>> = {
  twenties: 20,
  thirties: 30,
  forties: 40,
  fifties: 50,
  sixties: 60,
  seventies: 70,
  eighties: 80,
  nineties: 90,
};

type Found = { minPages?: number; maxPages?: number; minYear?: number; maxYear?: number };

interface Rule {
  readonly pattern: RegExp;
  readonly read: (m: RegExpMatchArray, year: number) => Found | undefined;
}

const PAGES = String.raw`(\d+)\s*(?:pages?|pp)\b`;
const YEAR = String.raw`(\d{4})\b`;

const RULES: readonly Rule[] = [
  {
    pattern: new RegExp(String.raw`\b(?:under|less than|fewer than|below|shorter than)\s+${PAGES}`, 'gi'),
    read: (m) => ({ maxPages: Number(m[1]) - 1 }),
  },
  {
    pattern: new RegExp(String.raw`\b(?:at most|no more than|up to|max(?:imum)?)\s+${PAGES}`, 'gi'),
    read: (m) => ({ maxPages: Number(m[1]) }),
  },
  {
    pattern: new RegExp(String.raw`\b(?:over|more than|longer than|above)\s+${PAGES}`, 'gi'),
    read: (m) => ({ minPages: Number(m[1]) + 1 }),
  },
  {
    pattern: new RegExp(String.raw`\b(?:at least|no fewer than|min(?:imum)?)\s+${PAGES}`, 'gi'),
    read: (m) => ({ minPages: Number(m[1]) }),
  },
  {
    pattern: new RegExp(String.raw`\bbetween\s+(\d+)\s*(?:and|-|to)\s*${PAGES}`, 'gi'),
    read: (m) => ({ minPages: Number(m[1]), maxPages: Number(m[2]) }),
  },
  {
    pattern: new RegExp(String.raw`\b(\d+)\s*(?:-|to)\s*${PAGES}`, 'gi'),
    read: (m) => ({ minPages: Number(m[1]), maxPages: Number(m[2]) }),
  },
  {
    pattern: new RegExp(String.raw`\bbetween\s+${YEAR}\s+and\s+${YEAR}`, 'gi'),
    read: (m) => ({ minYear: Number(m[1]), maxYear: Number(m[2]) }),
  },
  {
    pattern: /\b(?:in the |from the |of the |during the )?(?:(1\d|20)th|(21)st) century\b/gi,
    read: (m) => {
      const century = Number(m[1] ?? m[2]);
      return { minYear: (century - 1) * 100 + 1, maxYear: century * 100 };
    },
  },
  {
    pattern: new RegExp(
      String.raw`\b(?:in the |from the |of the |during the )?(${Object.keys(CENTURY_WORDS).join('|')})[- ]century\b`,
      'gi',
    ),
    read: (m) => {
      const century = CENTURY_WORDS[(m[1] ?? '').toLowerCase()] ?? 0;
      return { minYear: (century - 1) * 100 + 1, maxYear: century * 100 };
    },
  },
  {
    pattern: /\b(?:in the |from the |of the |during the )?(1\d|20)00s\b/gi,
    read: (m) => ({ minYear: Number(m[1]) * 100, maxYear: Number(m[1]) * 100 + 99 }),
  },
  {
    pattern: /\b(?:in the |from the |of the |during the )?((?:1\d|20)\d0)s\b/gi,
    read: (m) => ({ minYear: Number(m[1]), maxYear: Number(m[1]) + 9 }),
  },
  {
    pattern: /\b(?:in the |from the |of the |during the )?'?(\d0)s\b/gi,
    read: (m, year) => decade(Number(m[1]), year),
  },
  {
    pattern:
      /\b(?:in the |from the |of the |during the )(twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties)\b/gi,
    read: (m, year) => decade(DECADE_WORDS[(m[1] ?? '').toLowerCase()] ?? 0, year),
  },
  {
    // The golden age of detective fiction: the years between the two world wars.
    pattern:
      /\b(?:from |in |of )?the golden age of (?:crime|detective|mystery) (?:fiction|novels?|stories)\b/gi,
    read: () => ({ minYear: 1920, maxYear: 1939 }),
  },
  {
    pattern: /\b(?:from |in |of |during )?this century\b/gi,
    read: (_m, year) => ({ minYear: Math.floor((year - 1) / 100) * 100 + 1 }),
  },
  {
    pattern: /\b(?:from |in |of |during |over )?the (?:last|past) (?:(\w+) )?(years?|decades?)\b/gi,
    read: (m, year) => {
      const n = m[1] === undefined ? 1 : wordValue(m[1].toLowerCase());
      if (n === undefined) return undefined;
      const years = /^decade/i.test(m[2] ?? '') ? n * 10 : n;
      return { minYear: year - years };
    },
  },
  {
    pattern: new RegExp(
      String.raw`\b(?:published |written |from )?(?:before|earlier than|prior to)\s+${YEAR}`,
      'gi',
    ),
    read: (m) => ({ maxYear: Number(m[1]) - 1 }),
  },
  {
    pattern: new RegExp(String.raw`\b(?:published |written |from )?(?:after|later than)\s+${YEAR}`, 'gi'),
    read: (m) => ({ minYear: Number(m[1]) + 1 }),
  },
  {
    pattern: new RegExp(String.raw`\b(?:published |written |from )?since\s+${YEAR}`, 'gi'),
    read: (m) => ({ minYear: Number(m[1]) }),
  },
  {
    pattern: new RegExp(String.raw`\b(?:published|written) in\s+${YEAR}`, 'gi'),
    read: (m) => ({ minYear: Number(m[1]), maxYear: Number(m[1]) }),
  },
];

/** A decade named by its last two digits: the most recent one that has ended ("the twenties" in 2026 is the 1920s). */
function decade(tens: number, year: number): Found {
  let start = Math.floor(year / 100) * 100 + tens;
  if (start + 9 >= year) start -= 100;
  return { minYear: start, maxYear: start + 9 };
}

// "not by X", "but not by X or Y": the names run to the next punctuation or constraint word.
const NOT_BY =
  /\b(?:but )?(?:not|nothing|no books?) (?:by|from|written by) (.+?)(?=$|[,.;?!]| (?:under|over|before|after|from|in|with|published|written|that|which|and not)\b)/gi;

// "but not Agatha Christie", "except Tolkien", "anything other than Stephen King": a capitalised name right
// after the word that excludes it (the caller keeps only names of catalog authors).
const NOT_NAME =
  /\b(?:but not|and not|not|except(?: for)?|excluding|other than|apart from|besides|anything but)\s+((?:\p{Lu}[\p{L}.'’-]*)(?:\s+(?:(?:de|le|la|van|von|du|da|di)\s+)?\p{Lu}[\p{L}.'’-]*)*)/gu;

// "not the Hobbit", "except The Two Towers": a title after the word that excludes it, up to punctuation or
// the next limit.
const NOT_TITLE =
  /\b(?:but not|and not|not|except(?: for)?|excluding|other than|apart from|besides)\s+((?:the|a|an)\s+.+?)(?=$|[,.;?!]| (?:and|or|but|under|over|before|after|from|published|written)\b)/gi;

function tighter(a: number | undefined, b: number | undefined, pick: (x: number, y: number) => number) {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return pick(a, b);
}

/**
 * Reads the constraints of `question`; `year` is the current year, for "the last twenty years".
 * @example
 * parseConstraints('fantasy under 250 pages not by Tolkien', 2026)
 * // { notAuthors: ['Tolkien'], maxPages: 249, rest: 'fantasy' }
 */
export function parseConstraints(question: string, year: number): Constraints {
  let rest = question;
  const notAuthors: string[] = [];
  rest = rest.replace(NOT_BY, (_all, names: string) => {
    for (const name of names.split(/\s+(?:or|and|nor)\s+|,\s*/)) {
      const trimmed = name.trim();
      if (trimmed !== '') notAuthors.push(trimmed);
    }
    return ' ';
  });
  const notTitles: string[] = [];
  rest = rest.replace(NOT_TITLE, (_all, title: string) => {
    notTitles.push(title.trim());
    return ' ';
  });
  rest = rest.replace(NOT_NAME, (all, names: string) => {
    // "not I" is no author: the caller drops names the catalog does not know.
    if (/^I$/.test(names.split(/\s+/)[0] ?? '')) return all;
    notAuthors.push(names.trim());
    return ' ';
  });
  let found: Found = {};
  for (const rule of RULES) {
    rest = rest.replace(rule.pattern, (...args) => {
      const m = args.slice(0, -2) as unknown as RegExpMatchArray;
      const read = rule.read(m, year);
      if (read === undefined) return m[0] ?? '';
      found = {
        ...pick('minPages', tighter(found.minPages, read.minPages, Math.max)),
        ...pick('maxPages', tighter(found.maxPages, read.maxPages, Math.min)),
        ...pick('minYear', tighter(found.minYear, read.minYear, Math.max)),
        ...pick('maxYear', tighter(found.maxYear, read.maxYear, Math.min)),
      };
      return ' ';
    });
  }
  return {
    notAuthors,
    ...(notTitles.length > 0 ? { notTitles } : {}),
    ...found,
    rest: rest.replace(/\s+/g, ' ').trim(),
  };
}

function pick<K extends keyof Found>(key: K, value: number | undefined): Pick<Found, K> | object {
  return value === undefined ? {} : { [key]: value };
}
