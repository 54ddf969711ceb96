/**
 * A durable run resumed after a crash honours a gate still closed: the closing its events recorded is
 * restored before any item goes on, items wait for the reopening without spending budget, and a paced gate
 * starts again without a burst. Virtual clocks, exact timelines; memory, SQLite and Redis stores.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/runtime/events.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import type { RunStore } from '../../src/store/types.ts';
import { removeScratchKeys, scratchRedisStore } from '../store/redis-scratch.ts';
import { CALL_MS, type Crashed, crashAndResume, gatedPolicy, RETRY_AFTER_S } from './gates-helpers.ts';
import { removeTempStores, storedEvents, tempSqliteStore } from './helpers.ts';

const stores: RunStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  removeTempStores();
  await removeScratchKeys();
});

async function opened(open: () => Promise<RunStore>): Promise<RunStore> {
  const store = await open();
  stores.push(store);
  return store;
}

/** One item that gets the 429, three that come after it. */
const ITEMS = [{ limited: true }, {}, {}, {}];

/** Stores, and the store the first process records in (see `crashAndResume`). */
const STORES: readonly [string, () => Promise<RunStore>, (() => RunStore) | undefined][] = [
  ['memory', async () => createMemoryStore(), undefined],
  ['SQLite', tempSqliteStore, undefined],
  ['Redis', scratchRedisStore, createMemoryStore],
];

/** The wall time the gate reopens, from the run's recorded `gate.closed`. */
function reopening(events: readonly RunEvent[]): number {
  const closed = events.filter((e) => e.type === 'gate.closed');
  expect(closed).toHaveLength(1);
  return (closed[0] as Extract<RunEvent, { type: 'gate.closed' }>).untilMs;
}

/** The calls process 2 made, as [item, ms after `from`]. */
const resumedCalls = (run: Crashed, from: number) =>
  run.calls.filter((c) => c.process === 2).map((c) => [c.item, c.wall - from]);

const budgetsOf = (run: Crashed) => run.result.items.map((i) => [i.id, { ...i.state.budgets }]);

describe.each(STORES)(
  'a durable run resumed while its gate is closed (%s store)',
  (_name, open, firstStore) => {
    it('holds every item under the gate until the reopening, without spending budget', async () => {
      const store = await opened(open);
      // Resumed 20 s after the crash: past the dead process's lease, 40 s before the reopening.
      const first = firstStore?.();
      const resumeAt = (died: number) => died + 20_000;
      const run = await crashAndResume(
        store,
        'closed',
        gatedPolicy({ concurrency: 1 }),
        ITEMS,
        resumeAt,
        first,
      );
      const events = await storedEvents(store, 'closed');
      const until = reopening(events);
      // The 429 came at the end of item 1's first call, and closed the gate for the Retry-After.
      expect(until).toBe((run.calls[0]?.wall ?? Number.NaN) + CALL_MS + RETRY_AFTER_S * 1000);
      // The closing came before item 1 gave its place back: no other item went through in process 1.
      expect(run.calls.filter((c) => c.process === 1).map((c) => c.item)).toEqual(['1']);
      expect(run.diedAt).toBeLessThan(until);
      expect(run.resumedAt).toBeLessThan(until);
      // Items 2-4 waited at the gate since the resume; item 1 in its retry wait, which ends at the same time.
      // Then in arrival order, one at a time (concurrency 1).
      expect(resumedCalls(run, until)).toEqual([
        ['2', 0],
        ['3', CALL_MS],
        ['4', 2 * CALL_MS],
        ['1', 3 * CALL_MS],
      ]);
      expect(run.result.status).toBe('completed');
      expect(budgetsOf(run)).toEqual([
        ['1', { tries: 1 }],
        ['2', {}],
        ['3', {}],
        ['4', {}],
      ]);
      // The resumed run says why its items wait, and when the gate reopened.
      const waits = run.events.filter((e) => e.type === 'gate.wait');
      expect(waits.map((e) => [e.item, e.why, e.untilMs])).toEqual([
        ['2', 'closed', until],
        ['3', 'closed', until],
        ['4', 'closed', until],
        // Once item 2 is through, the others wait for its place.
        ['3', 'concurrency', undefined],
        ['4', 'concurrency', undefined],
        ['1', 'concurrency', undefined],
      ]);
      const reopened = run.events.filter((e) => e.type === 'gate.opened');
      expect(reopened.map((e) => [e.gate, e.key, e.closedMs])).toEqual([
        ['api', 'api', until - run.resumedAt],
      ]);
      // The store holds every gate event as the stream emitted it: the closing before the crash, the
      // waits and the reopening after the resume.
      const gateEvents = (list: readonly RunEvent[]) => list.filter((e) => e.type.startsWith('gate.'));
      const resumedFrom = events.findIndex((e) => e.type === 'run.start' && e.resumed === true);
      expect(gateEvents(events.slice(resumedFrom))).toEqual(gateEvents(run.events));
      expect(gateEvents(events.slice(0, resumedFrom)).map((e) => e.type)).toContain('gate.closed');
    });
  },
);

describe('a durable run resumed after its gate reopened (SQLite store)', () => {
  it('goes on at once', async () => {
    const store = await opened(tempSqliteStore);
    const run = await crashAndResume(store, 'open', gatedPolicy({ concurrency: 1 }), ITEMS, (died) => {
      return died + 90_000;
    });
    const until = reopening(await storedEvents(store, 'open'));
    expect(run.resumedAt).toBeGreaterThan(until);
    // Item 1's retry wait ended during the outage: every item goes on from the resume, in input order.
    expect(resumedCalls(run, run.resumedAt)).toEqual([
      ['1', 0],
      ['2', CALL_MS],
      ['3', 2 * CALL_MS],
      ['4', 3 * CALL_MS],
    ]);
    expect(run.events.filter((e) => e.type === 'gate.wait').every((e) => e.why === 'concurrency')).toBe(true);
    expect(run.events.some((e) => e.type === 'gate.opened')).toBe(false);
    expect(budgetsOf(run)).toEqual([
      ['1', { tries: 1 }],
      ['2', {}],
      ['3', {}],
      ['4', {}],
    ]);
  });

  // Ten starts a second, five at once after a quiet spell; one at a time, each call 10 ms: without the pace
  // restored, the resumed items would go 10 ms apart.
  const paced = gatedPolicy({ concurrency: 1, rate: { limit: 10, periodMs: 1000, burst: 5 } });
  const quick = ITEMS.map((item) => ({ ...item, ms: 10 }));

  it('starts a paced gate again without a burst: as if the stopped process had spent every token', async () => {
    const store = await opened(tempSqliteStore);
    const run = await crashAndResume(store, 'paced', paced, quick, (died) => died + 90_000);
    expect(run.resumedAt).toBeGreaterThan(reopening(await storedEvents(store, 'paced')));
    // One emission interval (100 ms) apart from the resume on, the first one interval after it.
    expect(resumedCalls(run, run.resumedAt)).toEqual([
      ['1', 100],
      ['2', 200],
      ['3', 300],
      ['4', 400],
    ]);
    expect(run.events.filter((e) => e.type === 'gate.wait').map((e) => [e.item, e.why])).toEqual([
      ['1', 'rate'],
      ['2', 'rate'],
      ['3', 'rate'],
      ['4', 'rate'],
    ]);
  });

  it('honours the closing and the pace together when resumed before the reopening', async () => {
    const store = await opened(tempSqliteStore);
    const run = await crashAndResume(store, 'both', paced, quick, (died) => died + 20_000);
    const until = reopening(await storedEvents(store, 'both'));
    // By the reopening the pace owed since the resume is paid: the burst goes, one at a time, as it would
    // after any closing.
    expect(resumedCalls(run, until)).toEqual([
      ['2', 0],
      ['3', 10],
      ['4', 20],
      ['1', 30],
    ]);
    expect(budgetsOf(run)).toEqual([
      ['1', { tries: 1 }],
      ['2', {}],
      ['3', {}],
      ['4', {}],
    ]);
  });
});
