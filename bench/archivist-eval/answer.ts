/**
 * How the evaluation reads an answer: the books it presents, in order, and whether it says the catalog
 * does not hold what was asked. The contract is described in examples/archivist/eval/questions.schema.json.
 */

/** A catalog book as the evaluation needs it. */
export interface EvalBook {
  readonly id: string;
  readonly title: string;
  readonly authors: readonly string[];
  readonly year: number;
  readonly pages: number;
}

/** What one turn answered, as the scoring reads it. */
export interface ReadAnswer {
  readonly text: string;
  /** Catalog ids presented, in order of first appearance, each once. */
  readonly books: readonly string[];
  readonly miss: boolean;
  /** Quoted strings that name no catalog book (a missing title the reader asked for, or an invented one). */
  readonly unknownQuotes: readonly string[];
}

/** Lower case, no accents, every run of other characters one space: how titles are compared. */
export function foldTitle(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Finds catalog books by a quoted title: the whole title, or the part before its colon when unique. */
export function titleIndex(books: readonly EvalBook[]): (quoted: string) => string | undefined {
  const whole = new Map<string, string>();
  const short = new Map<string, string | null>();
  for (const b of books) {
    whole.set(foldTitle(b.title), b.id);
    const head = b.title.split(':')[0] ?? b.title;
    if (head !== b.title) {
      const key = foldTitle(head);
      short.set(key, short.has(key) ? null : b.id);
    }
  }
  return (quoted) => {
    const key = foldTitle(quoted);
    return whole.get(key) ?? short.get(key) ?? undefined;
  };
}

// Phrases that say the catalog does not hold something; wide enough for other wordings of the same fact.
const MISS_PATTERNS: readonly RegExp[] = [
  /\bnot in (?:the|our|this|my) (?:catalog|catalogue|collection)\b/i,
  /\b(?:isn't|aren't|is not|are not) (?:held |listed )?in (?:the|our|this|my) (?:catalog|catalogue|collection)\b/i,
  /\b(?:catalog|catalogue|collection) (?:does not|doesn't|do not|don't|has no|holds no|contains no|lacks)\b/i,
  /\b(?:not|isn't|aren't) held\b/i,
  /\b(?:could not|couldn't|cannot|can't|did not|didn't|do not|don't) (?:find|have|hold)\b/i,
  /\bno (?:book|books|title|titles|work|works|author) (?:by|called|named|titled|of|matching|that)\b[^.]*\b(?:catalog|catalogue|collection)\b/i,
];

// Phrases that decline a request plainly and say what the Archivist is for.
const REFUSAL_PATTERNS: readonly RegExp[] = [
  /\b(?:I can only|I only) (?:help|answer|talk)\b/i,
  /\b(?:can(?:not|'t|’t)|won(?:'|’)t|will not|do not|don't|don’t) (?:help with|write|share|reveal|show|print|follow|change)\b/i,
  /\bnot (?:something I can|a question about books|about books)\b/i,
];

/** Whether `text` declines the request plainly (see {@link REFUSAL_PATTERNS}). */
export function saysRefusal(text: string): boolean {
  return REFUSAL_PATTERNS.some((p) => p.test(text));
}

/** Whether `text` asks the reader what they mean: a question sentence addressed to them. */
export function asksReader(text: string): boolean {
  return /\b(?:which|what|who|tell me|do you mean|could you|can you)\b[^.!?]*\?/i.test(text);
}

/** Whether `text` says that the catalog does not hold what was asked. */
export function saysMiss(text: string): boolean {
  return MISS_PATTERNS.some((p) => p.test(text));
}

/** The strings an answer quotes in straight or curly double quotes, in order. */
export function quoted(text: string): string[] {
  return [...text.matchAll(/"([^"\n]+)"|“([^”\n]+)”/g)].map((m) => m[1] ?? m[2] ?? '');
}

function idOf(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (entry && typeof entry === 'object' && typeof (entry as { id?: unknown }).id === 'string')
    return (entry as { id: string }).id;
  return undefined;
}

/**
 * Reads one answer: `json` is the `archivist ask --json` object (absent for a chat turn, which has only text).
 * Its `books` array, when present, names the presented books; otherwise the quoted titles do.
 */
export function readAnswer(
  text: string,
  find: (quoted: string) => string | undefined,
  json?: Readonly<Record<string, unknown>>,
): ReadAnswer {
  const books: string[] = [];
  const unknownQuotes: string[] = [];
  const add = (id: string) => {
    if (!books.includes(id)) books.push(id);
  };
  const listed = json?.books;
  for (const q of quoted(text)) {
    const id = find(q);
    if (id === undefined) unknownQuotes.push(q);
    else if (!Array.isArray(listed)) add(id);
  }
  if (Array.isArray(listed)) {
    for (const entry of listed) {
      const id = idOf(entry);
      if (id !== undefined) add(id);
    }
  }
  return { text, books, miss: json?.miss === true || saysMiss(text), unknownQuotes };
}
