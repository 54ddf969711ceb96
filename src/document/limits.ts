/**
 * The stated limits on documents: anything past them is refused with one line before it reaches a parser,
 * a schema or a JSON-LD processor, so no input can exhaust the stack or the memory of a command.
 */

/** Largest document file read, in bytes (128 MiB: a 100,000-placement document written out is about 58 MiB). */
export const MAX_DOCUMENT_BYTES = 128 * 1024 * 1024;

/** Deepest nesting of arrays and objects in a document (a DAG in any JSON-LD form needs fewer than 20 levels). */
export const MAX_DOCUMENT_DEPTH = 64;

/**
 * Most term definitions with a scoped `@context` in one document: a DAG needs none, and the JSON-LD
 * processor's work grows with the square of their number.
 */
export const MAX_SCOPED_CONTEXTS = 100;

/**
 * Most work JSON-LD expansion may do on a document's contexts, in term definitions processed or copied as
 * `expansionWork` estimates it (about half a second here): past it the document is refused before the
 * processor runs. A DAG in any form needs a few hundred; only contexts applied again and again at many
 * nodes (scoped contexts of types or properties, contexts on each node over a large one) come near it.
 */
export const MAX_EXPANSION_WORK = 1_000_000;

/** Most schema problems reported for one document; the rest are summed up in one more line. */
export const MAX_SCHEMA_PROBLEMS = 50;

/** Longest quotation of a value inside a problem message, in characters. */
export const MAX_QUOTED_CHARS = 80;

/** Where a text first nests deeper than a limit. */
export interface TooDeep {
  /** Offset of the bracket that goes one level past the limit. */
  readonly offset: number;
}

/**
 * Scans `text` (valid JSON or not) for the first `[` or `{` outside a string that opens level `limit + 1`;
 * one linear pass with no recursion, so it is safe on any input.
 */
export function firstTooDeep(text: string, limit: number): TooDeep | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 91 || c === 123) {
      depth++;
      if (depth > limit) return { offset: i };
    } else if (c === 93 || c === 125) {
      if (depth > 0) depth--;
    }
  }
  return undefined;
}

/**
 * A short, single-line quotation of any value for a problem message: JSON, cut to
 * {@link MAX_QUOTED_CHARS}; numbers JSON cannot write (Infinity, NaN) as themselves.
 */
export function quote(value: unknown): string {
  let text: string;
  if (typeof value === 'number' && !Number.isFinite(value)) text = String(value);
  else if (typeof value === 'string') text = JSON.stringify(cut(value, MAX_QUOTED_CHARS));
  else if (Array.isArray(value)) text = `an array of ${value.length}`;
  else if (value !== null && typeof value === 'object') text = 'an object';
  else text = String(JSON.stringify(value));
  return cut(text, MAX_QUOTED_CHARS + 2);
}

/** `text` cut to {@link MAX_QUOTED_CHARS}, control characters escaped as in JSON, for names quoted in messages. */
export function clip(text: string): string {
  return cut(JSON.stringify(text).slice(1, -1), MAX_QUOTED_CHARS);
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
