/**
 * The item-data contract (`item-data.ts`) on its own: what it refuses and where it points, what it
 * normalises, that the cheap first pass and the full walk agree, and that data it accepts is what a JSON
 * round trip gives back.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  admitItemData,
  checkItemData,
  ITEM_DATA_MAX_DEPTH,
  isExactItemData,
  replaceByJsonForm,
} from '../../src/runtime/item-data.ts';
import { isFlat } from '../../src/runtime/item-data-flat.ts';

/** The data a JSON round trip makes of `data`, with ordinary objects only. */
const roundTrip = (data: unknown): unknown => JSON.parse(JSON.stringify(data));

/** The value of an own key `__proto__`. */
const protoKey = (data: object): { x: number } =>
  (Object.getOwnPropertyDescriptor(data, '__proto__') as PropertyDescriptor).value as { x: number };

function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) value = { d: value };
  return value;
}

describe('what item data may not hold', () => {
  const cases: [string, unknown, string, RegExp][] = [
    ['a BigInt', { a: [1, { b: 2n }] }, '/a/1/b', /toString/u],
    ['a Date', { when: new Date(0) }, '/when', /toISOString/u],
    ['NaN', { n: Number.NaN }, '/n', /finite number/u],
    ['-Infinity', { n: Number.NEGATIVE_INFINITY }, '/n', /finite number/u],
    ['a Map', { m: new Map() }, '/m', /Object\.fromEntries/u],
    ['a Set', { s: new Set() }, '/s', /\[\.\.\.set\]/u],
    ['a class instance', { p: new (class Point {})() }, '/p', /plain object/u],
    ['a function', { f: () => 1 }, '/f', /services/u],
    ['a symbol', { s: Symbol('s') }, '/s', /string/u],
    ['undefined in an array', { l: [undefined] }, '/l/0', /null/u],
    ['a typed array', { b: new Uint8Array(1) }, '/b', /base64/u],
    ['an escaped key', { 'a/b': { '~': 1n } }, '/a~1b/~0', /toString/u],
  ];
  for (const [name, data, pointer, fix] of cases) {
    it(`refuses ${name}, pointing at ${pointer}`, () => {
      const fault = checkItemData({ data });
      expect(fault?.pointer).toBe(pointer);
      expect(fault?.fix).toMatch(fix);
      expect(() => admitItemData(data, 'items[4]')).toThrow(
        expect.objectContaining({ code: 'E_ITEM_DATA', message: expect.stringContaining(`items[4] holds`) }),
      );
    });
  }

  it('refuses a sparse array, a cycle, data that is not an object, and data nested too deep', () => {
    const sparse = [1, 2];
    delete sparse[0];
    expect(checkItemData({ data: { sparse } })?.pointer).toBe('/sparse/0');
    const cycle: Record<string, unknown> = { a: {} };
    (cycle.a as Record<string, unknown>).back = cycle;
    expect(checkItemData({ data: cycle })).toMatchObject({
      pointer: '/a/back',
      found: expect.stringMatching(/cycle/u),
    });
    for (const data of [null, [], 'x', 1, undefined, new Date(0)])
      expect(checkItemData({ data })?.pointer).toBe('');
    expect(checkItemData({ data: nested(ITEM_DATA_MAX_DEPTH) })).toBeUndefined();
    expect(checkItemData({ data: nested(ITEM_DATA_MAX_DEPTH + 1) })?.found).toMatch(/deeper than 256/u);
  });

  it('names a getter that throws, and never throws itself', () => {
    const data = Object.defineProperty({ ok: 1 }, 'bad', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    expect(checkItemData({ data })).toMatchObject({ pointer: '/bad', found: expect.stringMatching(/no/u) });
    const trap = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('trapped');
        },
      },
    );
    expect(checkItemData({ data: trap })?.found).toMatch(/trapped/u);
  });
});

describe('what item data normalises as JSON does', () => {
  it('drops undefined properties, turns -0 into 0, copies a shared object and a null-prototype one', () => {
    const shared = { n: 1 };
    const bare = Object.assign(Object.create(null) as object, { x: 1 });
    const item = {
      data: { u: undefined, z: -0, l: [-0], a: shared, b: shared, bare } as Record<string, unknown>,
    };
    expect(checkItemData(item)).toBeUndefined();
    expect(Object.keys(item.data)).toEqual(['z', 'l', 'a', 'b', 'bare']);
    expect(Object.is(item.data.z, 0)).toBe(true);
    expect(Object.is((item.data.l as number[])[0], 0)).toBe(true);
    expect(item.data.a).toEqual(item.data.b);
    expect(item.data.a).not.toBe(item.data.b);
    expect(Object.getPrototypeOf(item.data.bare)).toBe(Object.prototype);
    const root = { data: Object.assign(Object.create(null) as object, { x: 1 }) };
    expect(checkItemData(root)).toBeUndefined();
    expect(Object.getPrototypeOf(root.data)).toBe(Object.prototype);
  });

  it('normalises data held in frozen objects by copying them, and leaves the frozen objects as they were', () => {
    const bare = Object.freeze(Object.assign(Object.create(null) as object, { x: 1 }));
    const shared = Object.freeze({ q: 1 });
    const frozen = Object.freeze({
      gone: undefined,
      z: -0,
      l: Object.freeze([-0, 1]),
      bare,
      a: shared,
      b: shared,
    });
    const item = {
      data: { frozen, deep: { ok: Object.freeze({ u: undefined }) } } as Record<string, unknown>,
    };
    expect(checkItemData(item)).toBeUndefined();
    expect(item.data).toEqual({
      frozen: { z: 0, l: [0, 1], bare: { x: 1 }, a: { q: 1 }, b: { q: 1 } },
      deep: { ok: {} },
    });
    const copied = item.data.frozen as Record<string, unknown>;
    expect(Object.is(copied.z, 0)).toBe(true);
    expect(Object.is((copied.l as number[])[0], 0)).toBe(true);
    expect(Object.getPrototypeOf(copied.bare)).toBe(Object.prototype);
    expect(copied.a).not.toBe(copied.b);
    expect(Object.is(frozen.z, -0)).toBe(true);
    expect('gone' in frozen).toBe(true);
    const root = { data: Object.freeze({ u: undefined, n: { m: Object.freeze({ k: -0 }) } }) as unknown };
    expect(checkItemData(root)).toBeUndefined();
    expect(root.data).toEqual({ n: { m: { k: 0 } } });
    expect(Object.isFrozen(root.data)).toBe(false);
    const refused = { data: { f: Object.freeze({ u: undefined, when: new Date(0) }) } };
    expect(checkItemData(refused)?.pointer).toBe('/f/when');
  });

  it('keeps an own __proto__ key as a key, in the check and in the admitted copy', () => {
    const data = JSON.parse('{"__proto__":{"x":-0},"k":1}') as Record<string, unknown>;
    const copy = admitItemData(data, 'the input');
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.is(protoKey(data).x, -0)).toBe(true);
    expect(checkItemData({ data })).toBeUndefined();
    expect(Object.is(protoKey(data).x, 0)).toBe(true);
  });

  it('admits a copy and leaves the caller’s data as it was', () => {
    const input = { list: [1, -0], gone: undefined, deep: { x: 1 } };
    const copy = admitItemData(input, 'the input');
    expect(copy).toEqual({ list: [1, 0], deep: { x: 1 } });
    expect(copy.deep).not.toBe(input.deep);
    expect(Object.is(input.list[1], -0)).toBe(true);
    expect('gone' in input).toBe(true);
  });

  it('reads each value of admitted data once, or checks the copy it made: a getter cannot answer the check and the copy otherwise', () => {
    /** An object whose `n` is 1 when first read and a BigInt after. */
    const shifty = (): Record<string, unknown> => {
      let reads = 0;
      const data: Record<string, unknown> = { a: 'x' };
      Object.defineProperty(data, 'n', { enumerable: true, get: () => (reads++ === 0 ? 1 : 2n) });
      return data;
    };
    // The common shape: checked and copied in one pass, with the value it read.
    expect(admitItemData(shifty(), 'items[0]')).toEqual({ a: 'x', n: 1 });
    // Data the full walk checks (two nested objects): the copy is checked again.
    const deep = { one: { two: { three: 1 } }, inner: shifty() };
    expect(() => admitItemData(deep, 'items[1]')).toThrow(/^items\[1\] holds a BigInt at \/inner\/n,/u);
  });

  it('replaces refused data by its JSON form, which is item data', () => {
    const item: { data: unknown } = {
      data: { n: 10n, when: new Date(0), f: () => 1, m: new Map([['a', 1]]) },
    };
    replaceByJsonForm(item);
    expect(item.data).toEqual({ n: '10', when: '1970-01-01T00:00:00.000Z', m: { a: 1 } });
    expect(checkItemData(item)).toBeUndefined();
  });
});

describe('item data as a property', () => {
  it('JSON data is accepted as it is, and stays what a JSON round trip gives back', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (data) => {
        const item = { data: roundTrip(data) };
        expect(checkItemData(item)).toBeUndefined();
        expect(isDeepStrictEqual(item.data, roundTrip(data))).toBe(true);
        expect(isExactItemData(item.data)).toBe(true);
      }),
    );
  });

  it('data the cheap first pass lets through is item data with nothing to normalise', () => {
    const primitive = fc.oneof(
      fc.jsonValue({ maxDepth: 0 }),
      fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY, undefined, 1n, Symbol('s'), () => 1),
    );
    const child = fc.oneof(
      primitive,
      fc.array(primitive, { maxLength: 3 }),
      fc.dictionary(fc.string(), primitive, { maxKeys: 3 }),
      fc.constantFrom(new Date(0), new Array(2), Object.create(null) as object, new Map()),
    );
    let flat = 0;
    fc.assert(
      fc.property(fc.dictionary(fc.string(), child, { maxKeys: 4 }), (data) => {
        if (!isFlat(data)) return;
        flat++;
        expect(isExactItemData(data)).toBe(true);
        expect(isDeepStrictEqual(admitItemData(data, 'x'), roundTrip(data))).toBe(true);
      }),
      { numRuns: 1000 },
    );
    expect(flat).toBeGreaterThan(50);
  });

  it('whatever the data, accepted data is what a JSON round trip gives back', () => {
    const value = fc.oneof(
      fc.anything({
        withBigInt: true,
        withDate: true,
        withMap: true,
        withSet: true,
        withNullPrototype: true,
        withSparseArray: true,
        withTypedArray: true,
      }),
      fc.constantFrom(-0, Number.NaN, undefined),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string(), value, { maxKeys: 4 }), (data) => {
        const item = { data: data as unknown };
        const fault = checkItemData(item);
        if (fault === undefined) {
          expect(isDeepStrictEqual(item.data, roundTrip(item.data))).toBe(true);
          // Checked again, normalised data needs nothing more.
          expect(checkItemData(item)).toBeUndefined();
        } else {
          expect(() => admitItemData(data, 'x')).toThrow(expect.objectContaining({ code: 'E_ITEM_DATA' }));
        }
      }),
      { numRuns: 500 },
    );
  });
});
