/**
 * Await placements below the top level: inside a scatter's sub-DAG (each child parks with a token of its
 * own) and inside an embed (the child parks, the parent takes the embed's result mapping), in process and
 * in a durable run that stops waiting, is answered by another dispatcher and resumes in place.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answerToken } from '../../src/awaits/token.ts';
import { libraryOf } from '../../src/document/load.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { RunStore } from '../../src/store/types.ts';
import {
  BODY,
  body,
  type Calls,
  checkNode,
  embedding,
  fanned,
  INNER,
  inner,
  nestedPolicy,
} from './nested-fixtures.ts';
import { parkedEvent, until } from './wait-for.ts';

const WALL = 1_000_000;
const DEADLINE = 30_000;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function sqlite(): Promise<RunStore> {
  const dir = mkdtempSync(join(tmpdir(), 'sy-await-nested-'));
  dirs.push(dir);
  return openSqliteStore(join(dir, 'runs.db'));
}

function dispatcherOf(calls: Calls, auto: boolean, store?: RunStore) {
  const clock = createVirtualClock({ start: 0, wallStart: WALL, auto });
  const policy = {
    placements: { ...nestedPolicy(BODY, DEADLINE).placements, ...nestedPolicy(INNER, DEADLINE).placements },
  };
  const dispatcher = createDispatcher({
    nodes: [checkNode(calls)],
    clock,
    library: libraryOf([body, inner]),
    policy,
    ...(store === undefined ? {} : { store }),
  });
  return { clock, dispatcher };
}

const childToken = (runId: string, item: string, dag: string) =>
  answerToken({ runId, item, dag, placement: 'review', visit: 1 });

/** What the gather makes of the three children: 1.0 approved with data, 1.1 rejected, 1.2 past its deadline. */
const GATHERED = {
  completed: [{ v: 'A' }],
  failed: [
    { index: 1, terminal: 'poor' },
    { index: 2, terminal: 'late' },
  ],
};

describe('an await inside a scatter sub-DAG', () => {
  it('parks each child with its own token; answered children and the one left to its deadline are gathered', async () => {
    const calls: Calls = new Map();
    const { clock, dispatcher } = dispatcherOf(calls, false);
    const events: RunEvent[] = [];
    const run = dispatcher.run(
      fanned,
      { list: ['a', 'b', 'c'] },
      { runId: 's1', onEvent: (e) => events.push(e) },
    );
    const parked = await until(events, parkedEvent, 3);
    expect(parked.map((p) => [p.item, p.dag, p.placement, p.visit])).toEqual([
      ['1.0', BODY, 'review', 1],
      ['1.1', BODY, 'review', 1],
      ['1.2', BODY, 'review', 1],
    ]);
    for (const p of parked) expect(p.token).toBe(childToken('s1', p.item, BODY));
    expect(new Set(parked.map((p) => p.token)).size).toBe(3);

    clock.advance(1_000);
    const first = await dispatcher.answer({
      runId: 's1',
      token: childToken('s1', '1.0', BODY),
      output: 'approved',
      data: { v: 'A' },
    });
    expect(first).toMatchObject({ status: 'taken', item: '1.0', placement: 'review' });
    // By item and placement: the child's document is the one it is parked in.
    const second = await dispatcher.answer({
      runId: 's1',
      item: '1.1',
      placement: 'review',
      output: 'rejected',
    });
    expect(second).toMatchObject({ status: 'taken', token: childToken('s1', '1.1', BODY) });
    await until(events, (e): e is RunEvent => e.type === 'await.answered', 2);
    expect(events.some((e) => e.type === 'run.end')).toBe(false);

    clock.advance(DEADLINE - 1_000);
    const result = await run;
    expect(result.status).toBe('completed');
    expect(result.items.map((i) => [i.terminal, i.data.gathered])).toEqual([['ok', GATHERED]]);
    expect(events.filter((e) => e.type === 'await.expired').map((e) => e.item)).toEqual(['1.2']);
    expect([...calls.values()]).toEqual([1, 1, 1]);
  });

  it('in a durable run: stops waiting with every child listed, takes answers recorded by another dispatcher, resumes in place', async () => {
    const store = await sqlite();
    const calls: Calls = new Map();
    const { clock, dispatcher } = dispatcherOf(calls, true, store);
    const waiting = await dispatcher.run(
      fanned,
      { list: ['a', 'b', 'c'] },
      { runId: 's2', whenParked: 'stop' },
    );
    expect(waiting.status).toBe('waiting');
    expect(waiting.waiting?.map((w) => w.item)).toEqual(['1']);
    expect(waiting.parked?.map((p) => [p.item, p.dag, p.token])).toEqual(
      ['1.0', '1.1', '1.2'].map((item) => [item, BODY, childToken('s2', item, BODY)]),
    );
    expect(waiting.parked?.every((p) => p.deadlineAt === WALL + DEADLINE)).toBe(true);
    expect((await store.getRun('s2'))?.status).toBe('waiting');

    const other = dispatcherOf(calls, true, store).dispatcher;
    const [a, b] = waiting.parked ?? [];
    expect(
      await other.answer({ runId: 's2', token: a?.token as string, output: 'approved', data: { v: 'A' } }),
    ).toMatchObject({ status: 'recorded', item: '1.0' });
    expect(await other.answer({ runId: 's2', token: b?.token as string, output: 'rejected' })).toMatchObject({
      status: 'recorded',
      item: '1.1',
    });

    const events: RunEvent[] = [];
    const done = await dispatcher.resume('s2', { onEvent: (e) => events.push(e) });
    expect(done.status).toBe('completed');
    expect(done.items.map((i) => [i.terminal, i.data.gathered])).toEqual([['ok', GATHERED]]);
    // In place: every child parks again where it was, none runs its check again.
    expect(events.filter(parkedEvent).map((p) => [p.item, p.resumed])).toEqual([
      ['1.0', true],
      ['1.1', true],
      ['1.2', true],
    ]);
    expect(events.filter((e) => e.type === 'placement.start' && e.placement === 'check')).toEqual([]);
    expect([...calls.values()]).toEqual([1, 1, 1]);
    expect(events.filter((e) => e.type === 'await.answered').map((e) => e.item)).toEqual(['1.0', '1.1']);
    expect(events.find((e) => e.type === 'await.expired')).toMatchObject({ item: '1.2', waitedMs: DEADLINE });
    expect(clock.wallNow()).toBe(WALL + DEADLINE);
    expect((await store.getRun('s2'))?.status).toBe('completed');
    await store.close();
  });
});

describe('an await inside an embed', () => {
  it('parks the child; its answer ends the child and the parent takes the result mapping', async () => {
    const calls: Calls = new Map();
    const { dispatcher } = dispatcherOf(calls, false);
    const events: RunEvent[] = [];
    const run = dispatcher.run(embedding, { title: 'T' }, { runId: 'e1', onEvent: (e) => events.push(e) });
    const [parked] = await until(events, parkedEvent);
    expect(parked).toMatchObject({ item: '1/sub', dag: INNER, placement: 'review', visit: 1 });
    expect(parked?.token).toBe(childToken('e1', '1/sub', INNER));
    const receipt = await dispatcher.answer({
      runId: 'e1',
      token: parked?.token as string,
      output: 'approved',
      data: { by: 'ed' },
    });
    expect(receipt.status).toBe('taken');
    const result = await run;
    expect(result.items.map((i) => [i.terminal, i.data])).toEqual([
      ['ok', { title: 'T', checked: true, review: { by: 'ed' } }],
    ]);
    expect(calls.get('check 1/sub')).toBe(1);
  });

  it('in a durable run: stops waiting with the child listed, is answered by another dispatcher, resumes in place', async () => {
    const store = await sqlite();
    const calls: Calls = new Map();
    const { dispatcher } = dispatcherOf(calls, true, store);
    const waiting = await dispatcher.run(embedding, { title: 'T' }, { runId: 'e2', whenParked: 'stop' });
    expect(waiting.status).toBe('waiting');
    expect(waiting.waiting?.map((w) => w.item)).toEqual(['1']);
    expect(waiting.parked?.map((p) => [p.item, p.dag, p.placement])).toEqual([['1/sub', INNER, 'review']]);

    const other = dispatcherOf(calls, true, store).dispatcher;
    const receipt = await other.answer({
      runId: 'e2',
      item: '1/sub',
      placement: 'review',
      dag: INNER,
      output: 'rejected',
      data: { by: 'ed', why: 'thin' },
    });
    expect(receipt).toMatchObject({ status: 'recorded', token: childToken('e2', '1/sub', INNER) });

    const events: RunEvent[] = [];
    const done = await dispatcher.resume('e2', { onEvent: (e) => events.push(e) });
    expect(done.items.map((i) => [i.terminal, i.data])).toEqual([
      ['bad', { title: 'T', checked: true, review: { by: 'ed', why: 'thin' } }],
    ]);
    expect(events.filter((e) => e.type === 'placement.start' && e.placement === 'check')).toEqual([]);
    expect(calls.get('check 1/sub')).toBe(1);
    expect((await store.getRun('e2'))?.status).toBe('failed');
    await store.close();
  });
});
