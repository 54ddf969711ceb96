/** RFC 6901 JSON pointers over item data: read a value, or write one creating objects on the way. */
import { SwitchyardError } from '../errors.ts';

function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at `pointer` in `root`, or undefined when a step is missing. `''` is the root itself. */
export function getPointer(root: unknown, pointer: string): unknown {
  let at: unknown = root;
  for (const token of tokens(pointer)) {
    if (at === null || typeof at !== 'object') return undefined;
    at = Array.isArray(at) ? at[Number(token)] : (at as Record<string, unknown>)[token];
  }
  return at;
}

/** Tokens that would reach an object's prototype instead of its own data. */
const FORBIDDEN_TOKENS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Writes `value` at `pointer` in `root`, creating missing objects on the way; returns the new root (`value`
 * itself when the pointer is `''`, else `root`). Throws `E_INPUT` when the pointer is `''` and `value` is not
 * an object (item data is always an object), and when a token is `__proto__`, `constructor` or `prototype`.
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
  for (const token of path) {
    if (FORBIDDEN_TOKENS.has(token)) {
      throw new SwitchyardError(
        'E_INPUT',
        `pointer '${pointer}' names '${token}', which would change an object prototype; use another key`,
      );
    }
  }
  let at: Record<string, unknown> = root;
  for (let i = 0; i < path.length - 1; i++) {
    const token = path[i] as string;
    const next = at[token];
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
