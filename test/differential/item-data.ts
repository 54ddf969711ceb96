/**
 * The item-data cases of the differential suite: values JSON holds, normalises or cannot hold, given as
 * input items or written by nodes (directly or through `ctx.step`), and a node that describes exactly what
 * it was handed (prototypes, -0, `undefined`, shared objects, own `__proto__` keys), so that the three
 * executors can be held to hand nodes the same values.
 */
import { dag } from '../../src/document/builder.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import type { DiffCase } from './corpus.ts';

const WRITE = 'urn:diff:data:node:write';
const LOOK = 'urn:diff:data:node:look';

class Point {
  x = 1;
}

/** Data nested `levels` deep. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) value = { d: value };
  return value;
}

/** Values item data cannot hold, by name: refused at admission, and when a node writes them. */
export const REFUSED: Readonly<Record<string, () => unknown>> = {
  bigint: () => 10n,
  date: () => new Date(0),
  nan: () => Number.NaN,
  infinity: () => Number.POSITIVE_INFINITY,
  map: () => new Map([[1, 'one']]),
  set: () => new Set([1]),
  instance: () => new Point(),
  cycle: () => {
    const o: Record<string, unknown> = { a: 1 };
    o.self = { back: o };
    return o;
  },
  function: () => () => 1,
  symbol: () => Symbol('s'),
  sparse: () => {
    const list = [1, 2, 3];
    delete list[1];
    return list;
  },
  'undefined in an array': () => [undefined],
  bytes: () => new Uint8Array([1, 2]),
  regexp: () => /x/u,
  error: () => new Error('boom'),
  boxed: () => new String('x'),
  'too deep': () => nested(300),
  'a getter that throws': () =>
    Object.defineProperty({}, 'bad', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    }),
};

/** Values item data holds, as they are or normalised as a JSON round trip does. */
export const HELD: Readonly<Record<string, () => unknown>> = {
  undefined: () => ({ a: undefined, b: 1 }),
  'minus zero': () => ({ z: -0, list: [-0, 1] }),
  '__proto__ key': () => JSON.parse('{"__proto__":{"x":1},"n":{"__proto__":[1]}}'),
  shared: () => {
    const s = { n: 1 };
    return { a: s, b: s, list: [s, s] };
  },
  'null prototype': () => Object.assign(Object.create(null) as object, { x: { y: 1 } }),
  frozen: () => {
    const s = Object.freeze({ n: 1 });
    const bare = Object.freeze(Object.assign(Object.create(null) as object, { x: 1 }));
    return Object.freeze({ a: undefined, z: -0, list: Object.freeze([-0]), s, t: s, bare });
  },
  'big string': () => 'x'.repeat(200_000),
  'big numbers': () => [2 ** 53 + 2, Number.MAX_VALUE, 5e-324, -(2 ** 60)],
  strings: () => ({ lone: '\ud800', nul: '\u0000', '': 'empty key', '~/': 'escaped' }),
  'deep but not too deep': () => nested(250),
};

/**
 * What a node was handed, exactly: each object's prototype and own keys in order, -0 and `undefined` told
 * apart, and an object met again shown as a reference to its first place.
 */
export function described(value: unknown, seen = new Map<object, number>()): unknown {
  if (typeof value === 'number') return Object.is(value, -0) ? '(-0)' : value;
  if (value === undefined) return '(undefined)';
  if (typeof value === 'bigint' || typeof value === 'symbol' || typeof value === 'function') {
    return `(${typeof value})`;
  }
  if (typeof value === 'string' && value.length > 64)
    return `(${value.length} chars from ${value.slice(0, 8)})`;
  if (value === null || typeof value !== 'object') return value;
  const known = seen.get(value);
  if (known !== undefined) return { ref: known };
  seen.set(value, seen.size);
  const proto = Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null;
  const kind = proto === null ? 'null' : (proto.constructor?.name ?? '?');
  if (Array.isArray(value)) {
    return {
      kind,
      length: value.length,
      items: value.map((v, i) => (i in value ? described(v, seen) : '(hole)')),
    };
  }
  const keys = Object.keys(value);
  return { kind, entries: keys.map((k) => [k, described((value as Record<string, unknown>)[k], seen)]) };
}

/** `data` without `seen` (what `look` wrote), described. */
function handed(data: Record<string, unknown>): string {
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(data)) {
    if (key === 'seen') continue;
    Object.defineProperty(rest, key, {
      value: data[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return JSON.stringify(described(rest));
}

/**
 * The nodes: `write` puts the value its item names (`write`) in `out` (directly, or as the value of a
 * journalled step for `step:<name>`; `step-kind:<name>` writes only what the step gave back), and `look`
 * adds to `seen` a description of what it was handed, once per visit.
 */
export const DATA_NODES: readonly NodeDefinition<string, never>[] = [
  defineNode({
    id: WRITE,
    outputs: ['ok'],
    run: async (item, ctx) => {
      const name = String(item.data.write ?? '');
      if (name.startsWith('step:')) {
        const make = REFUSED[name.slice(5)] ?? HELD[name.slice(5)];
        item.data.out = await ctx.step('value', () => make?.());
      } else if (name.startsWith('step-kind:')) {
        const make = REFUSED[name.slice(10)] ?? HELD[name.slice(10)];
        const value = await ctx.step('value', () => make?.());
        item.data.out = JSON.stringify(described(value));
      } else if (name !== '') {
        item.data.out = (REFUSED[name] ?? HELD[name])?.();
      }
      return 'ok';
    },
  }),
  defineNode({
    id: LOOK,
    outputs: ['again', 'ok'],
    run: (item, ctx) => {
      const seen = Array.isArray(item.data.seen) ? item.data.seen : [];
      item.data.seen = [...seen, handed(item.data)];
      // The first visit waits: the second one comes after a delayed job in a distributed run.
      return ctx.visit === 1 ? { output: 'again', retryAfter: 5 } : 'ok';
    },
  }),
] as NodeDefinition<string, never>[];

/**
 * `write`, then `look` twice (a retry with a wait between the visits); an error at `write` (`E_ITEM_DATA`)
 * goes to `caught`, which looks at the data as it was carried on.
 */
const document = dag('urn:diff:data', { name: 'item data', version: '1' })
  .budget('again', 1)
  .entry('write')
  .task('write', WRITE)
  .route('ok', 'look')
  .route('error', 'caught')
  .task('look', LOOK)
  .retry('again', 'look', { budget: 'again', exhausted: 'done' })
  .route('ok', 'done')
  .task('caught', LOOK)
  .retry('again', 'caught', { budget: 'again', exhausted: 'salvaged' })
  .route('ok', 'salvaged')
  .terminal('done', 'completed')
  .terminal('salvaged', 'completed')
  .build();

/** A case of the item-data document over `items`, for the executors of `executors.ts`. */
export function dataCase(seed: number, items: readonly Record<string, unknown>[]): DiffCase {
  return {
    seed,
    root: document,
    library: [],
    plans: new Map(),
    nodes: DATA_NODES,
    items,
    policy: { defaults: { backoff: { strategy: 'constant', baseMs: 1, capMs: 1 }, jitter: 'none' } },
    deadlineMs: undefined,
    features: new Map(),
  };
}
