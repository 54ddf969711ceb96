/**
 * JSON text in and out of a store. Both stores keep records as JSON text, so a value read back is always a
 * fresh copy with the same meaning whichever store holds it: `undefined` fields are dropped, an own
 * `__proto__` key stays an own key (JSON.parse defines it, never sets the prototype).
 */
import { SwitchyardError } from '../errors.ts';

/** The JSON text of `value`; `E_INPUT` naming `what` when it is not JSON (a BigInt, a cycle). */
export function toJsonText(value: unknown, what: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new SwitchyardError(
      'E_INPUT',
      `${what} cannot be stored: ${(error as Error).message}; keep it plain JSON (objects, arrays, strings, numbers, booleans, null)`,
      { cause: error },
    );
  }
  return text ?? 'null';
}

/** The value of JSON text written by {@link toJsonText}. */
export function fromJsonText<T>(text: string): T {
  return JSON.parse(text) as T;
}

/** Values whose JSON text never changes, with the text once made. */
const unchanging = new WeakSet<object>();
const texts = new WeakMap<object, string>();

/**
 * Marks `value` as never changing, down to its last nested value, so that {@link jsonTextOf} makes its JSON
 * text once: for records the engine writes with every run (a document, a policy). Returns `value`.
 */
export function unchangingJson<T extends object>(value: T): T {
  unchanging.add(value);
  return value;
}

/** {@link toJsonText}, made once for a value marked with {@link unchangingJson}. */
export function jsonTextOf(value: unknown, what: string): string {
  if (typeof value !== 'object' || value === null || !unchanging.has(value)) return toJsonText(value, what);
  let text = texts.get(value);
  if (text === undefined) {
    text = toJsonText(value, what);
    texts.set(value, text);
  }
  return text;
}

/** The JSON text of an array of values, each through {@link jsonTextOf}. */
export function jsonListTextOf(values: readonly unknown[], what: string): string {
  if (values.length === 0) return '[]';
  return `[${values.map((value) => jsonTextOf(value, what)).join(',')}]`;
}
