/**
 * Await placements in a durable run at their edges: a resume that stops waiting again with what is left
 * parked, an abort while parked, and an early answer that does not fit the placement its item parks at.
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
import { edgesPolicy, twoAwaits } from './edges-fixtures.ts';
import { draft, reviewDag, reviewPolicy, slowDraft } from './fixtures.ts';
import { BODY, body, type Calls, checkNode, fanned, nestedPolicy } from './nested-fixtures.ts';
import { parkedEvent, until } from './wait-for.ts';

const WALL = 1_000_000;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function sqlite(): Promise<RunStore> {
  const dir = mkdtempSync(join(tmpdir(), 'sy-await-edges-'));
  dirs.push(dir);
  return openSqliteStore(join(dir, 'runs.db'));
}

describe('await placements in a durable run, at their edges', () => {
  it('stops waiting again on a resume with the children still parked, each answered child gone on', async () => {
    const store = await sqlite();
    const calls: Calls = new Map();
    const clock = createVirtualClock({ start: 0, wallStart: WALL, auto: true });
    const dispatcher = createDispatcher({
      nodes: [checkNode(calls)],
      clock,
      library: libraryOf([body]),
      policy: nestedPolicy(BODY, 30_000),
      store,
    });
    const first = await dispatcher.run(
      fanned,
      { list: ['a', 'b', 'c'] },
      { runId: 'p1', whenParked: 'stop' },
    );
    const [a, b, c] = first.parked ?? [];
    await dispatcher.answer({ runId: 'p1', token: b?.token as string, output: 'approved', data: { v: 'B' } });

    const second = await dispatcher.resume('p1', { whenParked: 'stop' });
    expect(second.status).toBe('waiting');
    // The same tokens and deadlines: an item parks again where it was.
    expect(second.parked?.map((p) => [p.item, p.token, p.deadlineAt])).toEqual([
      ['1.0', a?.token, a?.deadlineAt],
      ['1.2', c?.token, c?.deadlineAt],
    ]);
    expect((await store.getRun('p1'))?.status).toBe('waiting');

    await dispatcher.answer({ runId: 'p1', token: a?.token as string, output: 'rejected' });
    await dispatcher.answer({ runId: 'p1', item: '1.2', placement: 'review', dag: BODY, output: 'approved' });
    const done = await dispatcher.resume('p1', { whenParked: 'stop' });
    expect(done.status).toBe('completed');
    // 1.2 was approved without data: its result is null.
    expect(done.items.map((i) => i.data.gathered)).toEqual([
      {
        completed: [{ v: 'B' }, null],
        failed: [{ index: 0, terminal: 'poor' }],
      },
    ]);
    expect([...calls.values()]).toEqual([1, 1, 1]);
    await store.close();
  });

  it("records an item aborted while parked as waiting for 'answer'", async () => {
    const store = await sqlite();
    const clock = createVirtualClock({ start: 0, wallStart: WALL });
    const dispatcher = createDispatcher({ nodes: [draft], clock, policy: reviewPolicy(), store });
    const stop = new AbortController();
    const events: RunEvent[] = [];
    const run = dispatcher.run(
      reviewDag(),
      {},
      { runId: 'p2', signal: stop.signal, onEvent: (e) => events.push(e) },
    );
    await until(events, parkedEvent);
    stop.abort();
    const result = await run;
    expect(result.status).toBe('aborted');
    expect(result.aborted.map((x) => [x.item, x.placement, x.waitingFor])).toEqual([
      ['1', 'review', 'answer'],
    ]);
    expect((await store.getRun('p2'))?.status).toBe('aborted');
    await store.close();
  });

  // An early answer is recorded in the store before its item parks, so it is checked first: for an input
  // item its token names its own placement, and an answer that placement does not expect is refused then,
  // with nothing written, and a fitting one taken later.
  it('refuses an early answer its own placement does not expect, writes nothing, and takes a fitting one', async () => {
    const store = await sqlite();
    const clock = createVirtualClock({ start: 0, wallStart: WALL });
    const dispatcher = createDispatcher({
      nodes: [slowDraft(clock, 5_000)],
      clock,
      policy: edgesPolicy(60_000),
      store,
    });
    const events: RunEvent[] = [];
    const token = answerToken({ runId: 'p3', item: '1', dag: twoAwaits.id, placement: 'first', visit: 1 });
    const run = dispatcher.run(twoAwaits, {}, { runId: 'p3', onEvent: (e) => events.push(e) });
    await until(events, (e): e is RunEvent => e.type === 'placement.start');
    await expect(dispatcher.answer({ runId: 'p3', token, output: 'yes' })).rejects.toMatchObject({
      code: 'E_ANSWER',
    });
    expect(await store.listAnswers('p3')).toEqual([]);
    expect((await dispatcher.answer({ runId: 'p3', token, output: 'go' })).status).toBe('kept');
    await clock.advance(5_000);
    const [, second] = await until(events, parkedEvent, 2);
    await dispatcher.answer({ runId: 'p3', token: second?.token as string, output: 'yes' });
    const result = await run;
    expect(result.items.map((i) => i.terminal)).toEqual(['yes']);
    expect(events.some((e) => e.type === 'warning')).toBe(false);
    await store.close();
  });
});
