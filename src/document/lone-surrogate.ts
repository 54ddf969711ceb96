/**
 * Finds a lone UTF-16 surrogate (a `\ud800` escape without its pair) in parsed JSON: it is not a character,
 * and would be written out as U+FFFD, like a text that writes U+FFFD itself, so two different documents
 * would read alike.
 */
import { pointerSegment } from './json.ts';

const LONE_SURROGATE = /\p{Cs}/u;
/** A text without a surrogate escape or a lone surrogate cannot parse to a string that holds one. */
const MAY_HOLD_SURROGATE = /\\u[dD][89a-fA-F]|\p{Cs}/u;

/**
 * The pointer of the first name or string in `value` holding a lone UTF-16 surrogate (a `\ud800` escape
 * without its pair): it is not a character, and would be written out as U+FFFD, like the text that writes
 * U+FFFD itself. One iterative pass.
 */
function loneSurrogateAt(value: unknown): string | undefined {
  const stack: { value: unknown; pointer: string }[] = [{ value, pointer: '' }];
  while (stack.length > 0) {
    const { value: current, pointer } = stack.pop() as { value: unknown; pointer: string };
    if (typeof current === 'string') {
      if (LONE_SURROGATE.test(current)) return pointer;
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--)
        stack.push({ value: current[i], pointer: `${pointer}/${i}` });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, inner] = entries[i] as [string, unknown];
        const at = `${pointer}/${pointerSegment(key)}`;
        if (LONE_SURROGATE.test(key)) return at;
        stack.push({ value: inner, pointer: at });
      }
    }
  }
  return undefined;
}

/**
 * The pointer of the first name or string of `value` (parsed from `text`) that holds a lone surrogate, or
 * undefined; the value is only walked when the text has a surrogate escape at all.
 */
export function loneSurrogateIn(text: string, value: unknown): string | undefined {
  return MAY_HOLD_SURROGATE.test(text) ? loneSurrogateAt(value) : undefined;
}
