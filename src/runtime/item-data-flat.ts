/**
 * The cheap first pass of the item-data check (see `item-data.ts`): it recognises the common shape of item
 * data, which has nothing to normalise, so that only other data gets the full walk.
 */
import { setOwn } from './record.ts';

/**
 * True for the common shape of item data, found in one cheap pass: an object whose prototype is
 * `Object.prototype`, whose values are JSON primitives (no -0, no `undefined`), and at most one of them a
 * plain object or array of such primitives. Such data is item data with nothing to normalise (an object at
 * two places, or a cycle, needs two nested objects). Anything else goes through the full walk.
 */
export function isFlat(data: unknown): boolean {
  try {
    return isFlatData(data);
  } catch {
    // A getter or a Proxy trap that throws: the full walk says where.
    return false;
  }
}

function isFlatData(data: unknown): boolean {
  if (data === null || typeof data !== 'object' || Object.getPrototypeOf(data) !== Object.prototype) {
    return false;
  }
  let nested = false;
  // for-in walks the enumeration cache: several times cheaper than Object.keys on small objects. An
  // inherited enumerable key (a polluted Object.prototype) is only checked as well, never written.
  for (const key in data) {
    const v = (data as Record<string, unknown>)[key];
    if (v !== null && typeof v === 'object') {
      if (nested || !hasFlatChildren(v)) return false;
      nested = true;
    } else if (!isPrimitive(v)) return false;
  }
  return true;
}

/**
 * A copy of input data of the common shape (see {@link isFlat}), built in the same pass that checks it, so
 * that each value is read once (a getter or a Proxy trap cannot answer one thing to the check and another to
 * the copy); undefined for anything else, which the full walk checks. Own keys only, `__proto__` kept as a key.
 */
export function flatCopy(data: unknown): Record<string, unknown> | undefined {
  try {
    return flatCopyOf(data);
  } catch {
    // A getter or a Proxy trap that throws: the full walk says where.
    return undefined;
  }
}

function flatCopyOf(data: unknown): Record<string, unknown> | undefined {
  if (data === null || typeof data !== 'object' || Object.getPrototypeOf(data) !== Object.prototype) {
    return undefined;
  }
  const out: Record<string, unknown> = {};
  let nested = false;
  for (const key of Object.keys(data)) {
    let v = (data as Record<string, unknown>)[key];
    if (v !== null && typeof v === 'object') {
      if (nested) return undefined;
      v = flatChildCopy(v);
      if (v === undefined) return undefined;
      nested = true;
    } else if (!isPrimitive(v)) return undefined;
    setOwn(out, key, v);
  }
  return out;
}

/** A copy of a plain object or dense array whose values are all JSON primitives; else undefined. */
function flatChildCopy(value: object): unknown[] | Record<string, unknown> | undefined {
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return undefined;
    const n = value.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const v: unknown = value[i];
      if (!isPrimitive(v)) return undefined;
      out[i] = v;
    }
    return out;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (!isPrimitive(v)) return undefined;
    setOwn(out, key, v);
  }
  return out;
}

/** True for a plain object or dense array whose values are all JSON primitives. */
function hasFlatChildren(value: object): boolean {
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    // A hole reads as undefined, which is no primitive: the full walk names it.
    for (let i = 0; i < value.length; i++) if (!isPrimitive(value[i])) return false;
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) if (!isPrimitive((value as Record<string, unknown>)[key])) return false;
  return true;
}

/** A string, a boolean, null, or a finite number other than -0. */
function isPrimitive(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v) && !(v === 0 && 1 / v < 0);
    case 'object':
      return v === null;
    default:
      return false;
  }
}
