/**
 * Finds where a JSON pointer's value is written in a JSON text, by one scan that descends only along the
 * pointer and skips everything else without building anything. Where an object writes a name twice, the
 * last one is taken, as `JSON.parse` does. Meant for a text that `JSON.parse` accepted; on any other text it
 * still ends, with an answer that may be wrong.
 */

const QUOTE = 34;
const BACKSLASH = 92;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function skipSpace(text: string, i: number): number {
  let at = i;
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  return at;
}

/** The index after the string that starts (with its quote) at `i`. */
function skipString(text: string, i: number): number {
  let at = i + 1;
  while (at < text.length) {
    const c = text.charCodeAt(at);
    if (c === BACKSLASH) at += 2;
    else if (c === QUOTE) return at + 1;
    else at++;
  }
  return at;
}

/** The index after the value that starts at `i`; containers are skipped by counting brackets. */
function skipValue(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first === QUOTE) return skipString(text, i);
  if (first !== 123 && first !== 91) {
    let at = i;
    while (at < text.length) {
      const c = text.charCodeAt(at);
      if (c === 44 || c === 93 || c === 125 || isSpace(c)) break;
      at++;
    }
    return at;
  }
  let depth = 0;
  let at = i;
  while (at < text.length) {
    const c = text.charCodeAt(at);
    if (c === QUOTE) {
      at = skipString(text, at);
      continue;
    }
    if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return at + 1;
    }
    at++;
  }
  return at;
}

/**
 * The offset where the value at `segments` is written: the name of its property when the last segment
 * names one, else the value itself; undefined when the text holds no such value.
 *
 * @example
 * ```ts
 * offsetOf('{"a": [1, {"b": 2}]}', ['a', '1', 'b']); // 11, the offset of "b"
 * ```
 */
export function offsetOf(text: string, segments: readonly string[]): number | undefined {
  let found: number | undefined;
  // Scans the value at `i` (at depth `depth` of the pointer, written at `anchor`); returns the index after it.
  const scan = (i: number, depth: number, anchor: number): number => {
    if (depth === segments.length) {
      found = anchor;
      return skipValue(text, i);
    }
    // A later value at this place replaces what an earlier one held.
    found = undefined;
    const segment = segments[depth];
    const open = text.charCodeAt(i);
    if (open !== 123 && open !== 91) return skipValue(text, i);
    let at = skipSpace(text, i + 1);
    let index = 0;
    while (at < text.length && text.charCodeAt(at) !== (open === 123 ? 125 : 93)) {
      const before = at;
      if (open === 123) {
        const nameEnd = skipString(text, at);
        const raw = text.slice(at + 1, nameEnd - 1);
        const name = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        const valueAt = skipSpace(text, skipSpace(text, nameEnd) + 1);
        at = name === segment ? scan(valueAt, depth + 1, at) : skipValue(text, valueAt);
      } else {
        at = String(index) === segment ? scan(at, depth + 1, at) : skipValue(text, at);
        index++;
      }
      at = skipSpace(text, at);
      if (text.charCodeAt(at) === 44) at = skipSpace(text, at + 1);
      // Only text that is not JSON can stand still here: stop rather than loop.
      if (at <= before) return text.length;
    }
    return at + 1;
  };
  const start = skipSpace(text, 0);
  if (start >= text.length) return undefined;
  scan(start, 0, start);
  return found;
}
