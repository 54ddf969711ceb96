/**
 * Reading a thrown value that may fight back: a Proxy whose traps throw, getters that throw, a `toString`
 * that throws, a revoked Proxy. Every read here answers (undefined, or a fallback) instead of throwing.
 */

/** An object or function: something with properties. `typeof` runs no Proxy trap. */
export function isObjectLike(value: unknown): value is object {
  return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

/** `value[key]`, or undefined when the read throws (a throwing getter or Proxy trap). */
export function read(value: object, key: PropertyKey): unknown {
  try {
    return (value as Record<PropertyKey, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** `value[key]` when it is a string, else undefined; never throws. */
export function readString(value: object, key: PropertyKey): string | undefined {
  const found = read(value, key);
  return typeof found === 'string' ? found : undefined;
}

/** Whether `value` is an array; a revoked Proxy, which makes `Array.isArray` throw, is not. */
export function isArraySafe(value: unknown): value is readonly unknown[] {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * The first (or, with `end` 'last', the last) `limit` entries of an array in its order, each read on its
 * own: a hole, or an entry whose read throws, is undefined; a `length` that cannot be read or is not a count
 * gives none. No more than `limit` entries are read, however long the array says it is.
 */
export function entriesOf(
  array: readonly unknown[],
  limit: number,
  end: 'first' | 'last' = 'first',
): unknown[] {
  const length = read(array, 'length');
  if (typeof length !== 'number' || !Number.isInteger(length) || length <= 0) return [];
  const count = Math.max(0, Math.min(length, Math.floor(limit)));
  const start = end === 'first' ? 0 : length - count;
  const out: unknown[] = [];
  for (let i = start; i < start + count; i++) out.push(read(array, i));
  return out;
}

/** What the printed form of a value says, or undefined when printing it throws. */
function printed(value: unknown): string | undefined {
  try {
    return String(value);
  } catch {
    return undefined;
  }
}

/**
 * A one-line description of any thrown value, never throwing: an error's `message` when it is a string, a
 * string as it is, a primitive (`null`, `undefined`, a symbol, a BigInt, …) as it prints, an object as its
 * `toString` prints it, else `fallback`.
 *
 * @example
 * describeThrown(new Error('busy')); // 'busy'
 * describeThrown(Symbol('x')); // 'Symbol(x)'
 * describeThrown(new Proxy({}, { get() { throw new Error(); } })); // 'an unprintable thrown value'
 */
export function describeThrown(value: unknown, fallback = 'an unprintable thrown value'): string {
  if (typeof value === 'string') return value;
  if (!isObjectLike(value)) return printed(value) ?? fallback;
  return readString(value, 'message') ?? printed(value) ?? fallback;
}
