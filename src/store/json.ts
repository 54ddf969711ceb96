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
