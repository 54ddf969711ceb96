/**
 * Pages of events written by shape (schema version 7): whatever the bodies, a page reads back as the JSON
 * of its events, keys in the same order, and the events of the engine's stream are kept by shape.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageText } from '../../src/store/sqlite-page-text.ts';
import { eventsFromPage } from '../../src/store/sqlite-rows.ts';
import type { EventRecord } from '../../src/store/types.ts';

const RUN = 'r1';

/** What a reader of a page must see: each event as JSON writes and reads it back. */
function asJson(events: readonly EventRecord[]): string {
  return JSON.stringify(
    events.map((e) => ({
      runId: e.runId,
      seq: e.seq,
      type: e.type,
      body: JSON.parse(JSON.stringify(e.body) ?? 'null'),
    })),
  );
}

function readBack(events: readonly EventRecord[], after = Number.NEGATIVE_INFINITY): EventRecord[] {
  const out: EventRecord[] = [];
  eventsFromPage(RUN, pageText(RUN, events, 'the page'), after, out);
  return out;
}

const value = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 4 }),
  fc.boolean(),
  fc.constant(new Date(0)),
  fc.constant(() => 1),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.constantFrom('a', 'b', '0'), fc.integer(), { maxKeys: 2 }),
);

/** A body with keys from a small set (so that shapes repeat), its seq and type, and maybe the run id. */
const body = fc.record({
  keys: fc.array(
    fc.tuple(fc.constantFrom('item', 'dag', 'reason', 'time', '7', 'toJSON', '__proto__'), value),
    {
      maxLength: 5,
    },
  ),
  type: fc.constantFrom('route', 'placement.start'),
  runId: fc.constantFrom('last', 'first', 'other', 'none'),
  typeOfEvent: fc.boolean(),
});

describe('a page written by shape', () => {
  it('reads back as the JSON of its events, keys in order, from any seq', () => {
    fc.assert(
      fc.property(fc.array(body, { maxLength: 12 }), fc.integer({ min: -1, max: 12 }), (specs, after) => {
        const events = specs.map((spec, seq): EventRecord => {
          const b: Record<string, unknown> = {};
          if (spec.runId === 'first') b.runId = RUN;
          b.type = spec.typeOfEvent ? spec.type : 'other';
          for (const [key, v] of spec.keys) {
            // An own `__proto__` key, as JSON.parse makes it.
            if (key === '__proto__')
              Object.defineProperty(b, key, {
                value: v,
                enumerable: true,
                writable: true,
                configurable: true,
              });
            else b[key] = v;
          }
          b.seq = seq;
          if (spec.runId === 'last') b.runId = RUN;
          if (spec.runId === 'other') b.runId = 'r2';
          return { runId: RUN, seq, type: spec.type, body: b };
        });
        const expected = events.filter((e) => e.seq > after);
        expect(JSON.stringify(readBack(events, after))).toBe(asJson(expected));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the events of the engine stream by shape, each order of keys once, leaving repeats out', () => {
    const events: EventRecord[] = [0, 1, 2, 3].map((seq) => ({
      runId: RUN,
      seq,
      type: 'route',
      body: { type: 'route', item: String(seq), reason: undefined, seq, time: seq / 3, runId: RUN },
    }));
    const text = pageText(RUN, events, 'the page');
    expect(JSON.parse(text)).toEqual({
      k: [['route', 'type', 'item', 'seq', 'time']],
      // The first event's values all; then `seq` (place 1, mask 2) is the last seq plus one, left out.
      e: [
        [0, 0, '0', 0, 0],
        [0, 2, '1', 1 / 3],
        [0, 2, '2', 2 / 3],
        [0, 2, '3', 1],
      ],
    });
    expect(readBack(events)).toEqual(events.map((e) => ({ ...e, body: JSON.parse(JSON.stringify(e.body)) })));
    // The caller's bodies are left as they were.
    expect(Object.keys(events[0]?.body as object)).toEqual([
      'type',
      'item',
      'reason',
      'seq',
      'time',
      'runId',
    ]);
  });

  it('keeps whole a body that is not a plain object holding its own seq, type and run id', () => {
    const events: EventRecord[] = [
      { runId: RUN, seq: 0, type: 'route', body: [1] },
      { runId: RUN, seq: 1, type: 'route', body: null },
      { runId: RUN, seq: 2, type: 'route', body: { type: 'route', seq: 9, runId: RUN } },
      {
        runId: RUN,
        seq: 3,
        type: 'route',
        body: Object.assign(Object.create(null), { type: 'route', seq: 3, runId: RUN }),
      },
      { runId: RUN, seq: 4, type: 'route', body: { type: 'route', toJSON: () => 'x', seq: 4, runId: RUN } },
    ];
    const { e } = JSON.parse(pageText(RUN, events, 'the page')) as { e: unknown[][] };
    expect(e.map((entry) => entry[0])).toEqual([-1, -1, -1, -1, -1]);
    expect(JSON.stringify(readBack(events))).toBe(asJson(events));
  });
});

describe('the repeats a page leaves out', () => {
  it('are the values equal to the last of the same key in the page, across types, and seq one past the last', () => {
    const body = (seq: number, type: string, rest: Record<string, unknown>) => ({
      runId: RUN,
      seq,
      type,
      body: { type, ...rest, seq, time: 5, runId: RUN },
    });
    const events: EventRecord[] = [
      body(0, 'placement.start', { item: '1', dag: 'urn:d', placement: 'a' }),
      body(1, 'placement.end', { item: '1', dag: 'urn:d', placement: 'a', output: 'ok' }),
      // A list is never left out, even when it equals the last one.
      body(3, 'route', { item: '1', dag: 'urn:e', from: [1], output: 'ok' }),
      body(4, 'route', { item: '2', dag: 'urn:e', from: [1], output: 'ok' }),
    ];
    const { e } = JSON.parse(pageText(RUN, events, 'the page')) as { e: unknown[][] };
    expect(e).toEqual([
      [0, 0, '1', 'urn:d', 'a', 0, 5],
      // item, dag, placement (places 0–2), seq (4) and time (5) repeat: 1 + 2 + 4 + 16 + 32.
      [1, 55, 'ok'],
      // item (0), output (3) and time (5) repeat; seq 3 is not one past 1.
      [2, 1 + 8 + 32, 'urn:e', [1], 3],
      [2, 2 + 8 + 16 + 32, '2', [1]],
    ]);
    expect(readBack(events)).toEqual(events);
    expect(readBack(events, 1)).toEqual(events.slice(2));
  });
});

describe('the shapes of the engine events', () => {
  it('name an event of an engine type only when its keys are the engine shape, in order', () => {
    const start = (seq: number, body: Record<string, unknown>): EventRecord => ({
      runId: RUN,
      seq,
      type: 'placement.start',
      body: { type: 'placement.start', ...body, seq, time: seq, runId: RUN },
    });
    const events: EventRecord[] = [
      // Keys out of the engine's order, then an extra key: shapes of the page's own.
      start(0, { dag: 'urn:d', item: '1', placement: 'a', visit: 1 }),
      start(1, { item: '1', dag: 'urn:d', placement: 'a', visit: 1, note: 'x' }),
      start(2, { item: '1', dag: 'urn:d', placement: 'a', visit: 1 }),
      start(3, { item: '2', dag: 'urn:d', placement: 'a', visit: 1 }),
    ];
    const page = JSON.parse(pageText(RUN, events, 'the page')) as { k: unknown[]; e: unknown[][] };
    expect(page.k).toEqual([
      ['placement.start', 'type', 'dag', 'item', 'placement', 'visit', 'seq', 'time'],
      ['placement.start', 'type', 'item', 'dag', 'placement', 'visit', 'note', 'seq', 'time'],
    ]);
    expect(page.e.map((entry) => entry[0])).toEqual([0, 1, -3, -3]);
    expect(readBack(events)).toEqual(events);
    expect(readBack(events, 2)).toEqual(events.slice(3));
  });

  it('are named without being listed in the page', () => {
    const start = (seq: number, item: string) => ({
      runId: RUN,
      seq,
      type: 'placement.start',
      body: {
        type: 'placement.start',
        item,
        dag: 'urn:d',
        placement: 'a',
        visit: 1,
        seq,
        time: seq,
        runId: RUN,
      },
    });
    const events: EventRecord[] = [start(0, '1'), start(1, '2')];
    const page = JSON.parse(pageText(RUN, events, 'the page')) as { k: unknown[]; e: unknown[][] };
    expect(page.k).toEqual([]);
    // The second of the engine's shapes, placement.start: -2 - 1.
    expect(page.e).toEqual([
      [-3, 0, '1', 'urn:d', 'a', 1, 0, 0],
      [-3, 2 + 4 + 8 + 16, '2', 1],
    ]);
    expect(readBack(events)).toEqual(events);
  });
});
