import { SwitchyardError } from '../errors.ts';
import { setOwn } from './record.ts';

/** Past this depth the plain copy hands over to `structuredClone`, which also keeps cycles and shared parts. */
const PLAIN_DEPTH = 256;

/** Thrown inside {@link copyValue} when the data is deeper than {@link PLAIN_DEPTH}. */
const TOO_DEEP = Symbol('too deep');

/**
 * A deep copy of item data, so that the caller, a parent item and the child items it hands values to never
 * share mutable data. Plain objects and arrays are copied here (the common case, and much cheaper than a
 * structured clone); anything else (a Date, a Map, a typed array, a class instance), and data nested deeper
 * than a few hundred levels (where a cycle may be), goes through `structuredClone`. An own `__proto__` key
 * stays an own key of the copy and never becomes its prototype. Throws `E_INPUT` for values that cannot be
 * copied, such as functions, or data nested too deep for any copy.
 */
export function copyJson<T>(value: T): T {
  try {
    try {
      return copyValue(value, 0) as T;
    } catch (error) {
      if (error !== TOO_DEEP) throw error;
      return structuredClone(value);
    }
  } catch (error) {
    const why =
      error instanceof RangeError ? 'is nested too deep' : `cannot be copied (${(error as Error).message})`;
    throw new SwitchyardError(
      'E_INPUT',
      `item data holds a value that ${why}; pass plain data (objects, arrays, strings, numbers, booleans, null)`,
      { cause: error },
    );
  }
}

function copyValue(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') {
    // Functions and symbols cannot be item data: structuredClone throws the DataCloneError that says so.
    return typeof value === 'function' || typeof value === 'symbol' ? structuredClone(value) : value;
  }
  if (depth > PLAIN_DEPTH) throw TOO_DEEP;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (Array.isArray(value) && proto === Array.prototype) {
    const n = value.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) if (i in value) out[i] = copyValue(value[i], depth + 1);
    return out;
  }
  if (proto === Object.prototype || proto === null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      setOwn(out, key, copyValue((value as Record<string, unknown>)[key], depth + 1));
    }
    return out;
  }
  return structuredClone(value);
}
