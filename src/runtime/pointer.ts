/**
 * RFC 6901 JSON pointers over item data: read a value, or write one creating objects on the way. Both
 * refuse the tokens `__proto__`, `constructor` and `prototype`, and both follow own properties only, so a
 * pointer never reaches an object's prototype, whether to read it or to write through it.
 */
import { SwitchyardError } from '../errors.ts';

/** Tokens that would reach an object's prototype instead of its own data. */
const FORBIDDEN_TOKENS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** An array index token: `0`, or digits without a leading zero. */
const INDEX = /^(?:0|[1-9][0-9]*)$/;

function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) {
    throw new SwitchyardError(
      'E_INPUT',
      `'${pointer}' is not a JSON pointer; start it with '/', as in '/result'`,
    );
  }
  const path = pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (const token of path) {
    if (FORBIDDEN_TOKENS.has(token)) {
      throw new SwitchyardError(
        'E_INPUT',
        `pointer '${pointer}' names '${token}', which would reach an object prototype; use another key`,
      );
    }
  }
  return path;
}

/** The own value under `token` of an object or array, or undefined. */
function child(at: object, token: string): unknown {
  if (Array.isArray(at)) return INDEX.test(token) && Object.hasOwn(at, token) ? at[Number(token)] : undefined;
  return Object.hasOwn(at, token) ? (at as Record<string, unknown>)[token] : undefined;
}

/**
 * The value at `pointer` in `root`, or undefined when a step is missing. `''` is the root itself. Throws
 * `E_INPUT` when a token is `__proto__`, `constructor` or `prototype`, or the pointer does not start with '/'.
 */
export function getPointer(root: unknown, pointer: string): unknown {
  let at: unknown = root;
  for (const token of tokens(pointer)) {
    if (at === null || typeof at !== 'object') return undefined;
    at = child(at, token);
  }
  return at;
}

/**
 * Writes `value` at `pointer` in `root`, creating missing objects on the way; returns the new root (`value`
 * itself when the pointer is `''`, else `root`). Throws `E_INPUT` when the pointer is `''` and `value` is not
 * an object (item data is always an object), and when a token is `__proto__`, `constructor` or `prototype`.
 * Only own properties are followed: a step whose own value is not an object is replaced by a new object.
 */
export function setPointer(
  root: Record<string, unknown>,
  pointer: string,
  value: unknown,
): Record<string, unknown> {
  const path = tokens(pointer);
  if (path.length === 0) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
    const found = Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value;
    throw new SwitchyardError(
      'E_INPUT',
      `cannot write ${found} at pointer '' (the whole item data), which must be an object; write it under a key such as '/result'`,
    );
  }
  let at: Record<string, unknown> = root;
  for (let i = 0; i < path.length - 1; i++) {
    const token = path[i] as string;
    const next = child(at, token);
    if (next === null || typeof next !== 'object') {
      const created: Record<string, unknown> = {};
      at[token] = created;
      at = created;
    } else {
      at = next as Record<string, unknown>;
    }
  }
  at[path[path.length - 1] as string] = value;
  return root;
}
