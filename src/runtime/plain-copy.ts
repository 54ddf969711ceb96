/** What {@link plainCopy} returns for a value a JSON round trip would change. */
import { setOwn } from './record.ts';
export const NOT_PLAIN: unique symbol = Symbol('not plain JSON');

/** Deeper than this, {@link plainCopy} gives up (a cycle, or data deeper than any checkpoint needs). */
const MAX_DEPTH = 256;

/**
 * A copy of `value` in one pass when it is plain JSON (null, strings, booleans, finite numbers other than
 * -0, plain objects and dense arrays of them, at most {@link MAX_DEPTH} deep), else {@link NOT_PLAIN}: the
 * cheap first try of a checkpoint, whose other values go through the journal's encoding. An object reached
 * twice is copied twice, as JSON would write it.
 */
export function plainCopy(value: unknown): unknown {
  return copy(value, 0);
}

function copy(value: unknown, depth: number): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0) ? value : NOT_PLAIN;
  if (typeof value !== 'object' || depth > MAX_DEPTH) return NOT_PLAIN;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (Array.isArray(value)) {
    if (proto !== Array.prototype) return NOT_PLAIN;
    const n = value.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      if (!(i in value)) return NOT_PLAIN;
      const v = copy(value[i], depth + 1);
      if (v === NOT_PLAIN) return NOT_PLAIN;
      out[i] = v;
    }
    return out;
  }
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  const out: Record<string, unknown> = {};
  // `for…in` with an own-key test reads the keys `Object.keys` gives, in the same order, without making
  // an array of them: checkpoints take this copy at every transition.
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const v = copy((value as Record<string, unknown>)[key], depth + 1);
    if (v === NOT_PLAIN) return NOT_PLAIN;
    setOwn(out, key, v);
  }
  return out;
}

/**
 * True when {@link plainCopy} would copy `value` (plain JSON by its rules), found without copying: the
 * check of data whose copy may never be needed.
 */
export function isPlain(value: unknown): boolean {
  return check(value, 0);
}

function check(value: unknown, depth: number): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (typeof value !== 'object' || depth > MAX_DEPTH) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (Array.isArray(value)) {
    if (proto !== Array.prototype) return false;
    const n = value.length;
    for (let i = 0; i < n; i++) if (!(i in value) || !check(value[i], depth + 1)) return false;
    return true;
  }
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in value) {
    if (Object.hasOwn(value, key) && !check((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}
