import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import { draft, reviewDag, reviewPolicy } from './fixtures.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function sqlite() {
  const dir = mkdtempSync(join(tmpdir(), 'sy-await-'));
  dirs.push(dir);
  return openSqliteStore(join(dir, 'runs.db'));
}

describe('await placements in a durable run', () => {
  it('stops waiting, takes an answer given while no process runs, and ends on its route', async () => {
    const store = await sqlite();
    const clock = createVirtualClock({ start: 0, wallStart: 1_000_000, auto: true });
    const dag = reviewDag();
    const first = createDispatcher({ nodes: [draft], clock, policy: reviewPolicy(), store });
    const events: RunEvent[] = [];
    const waiting = await first.run(
      dag,
      { title: 'A' },
      { runId: 'd1', whenParked: 'stop', onEvent: (e) => events.push(e) },
    );
    expect(waiting.status).toBe('waiting');
    expect(waiting.waiting?.map((w) => w.item)).toEqual(['1']);
    const parked = waiting.parked?.[0];
    expect(parked).toMatchObject({ item: '1', placement: 'review', answers: ['approved', 'rejected'] });
    expect((await store.getRun('d1'))?.status).toBe('waiting');
    expect(await store.getLease('d1')).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: 'run.end', status: 'waiting' });

    // Another dispatcher, as another process would be: the answer goes to the store.
    const second = createDispatcher({ nodes: [draft], clock, policy: reviewPolicy(), store });
    const receipt = await second.answer({
      runId: 'd1',
      token: parked?.token as string,
      output: 'approved',
      data: { by: 'ed' },
    });
    expect(receipt).toMatchObject({ status: 'recorded', item: '1', placement: 'review' });
    await expect(
      second.answer({ runId: 'd1', token: parked?.token as string, output: 'rejected' }),
    ).rejects.toMatchObject({ code: 'E_ALREADY_ANSWERED' });

    const resumedEvents: RunEvent[] = [];
    const done = await second.resume('d1', { onEvent: (e) => resumedEvents.push(e) });
    expect(done.status).toBe('completed');
    expect(done.items[0]?.terminal).toBe('publish');
    expect(done.items[0]?.data).toEqual({ title: 'A', drafted: true, review: { by: 'ed' } });
    expect(resumedEvents.find((e) => e.type === 'await.parked')).toMatchObject({
      resumed: true,
      token: parked?.token,
    });
    expect((await store.getRun('d1'))?.status).toBe('completed');
    await store.close();
  });

  it('takes the deadline route on a resume after the deadline passed, at the deadline of the first parking', async () => {
    const store = await sqlite();
    const clock = createVirtualClock({ start: 0, wallStart: 1_000_000, auto: true });
    const dispatcher = createDispatcher({ nodes: [draft], clock, policy: reviewPolicy(30_000), store });
    const waiting = await dispatcher.run(reviewDag(), {}, { runId: 'd2', whenParked: 'stop' });
    expect(waiting.status).toBe('waiting');
    expect(waiting.parked?.[0]?.deadlineAt).toBe(1_000_000 + 30_000);
    // Resumed before the deadline, the item parks again with what is left of it.
    clock.advance(20_000);
    const events: RunEvent[] = [];
    const done = await dispatcher.resume('d2', { onEvent: (e) => events.push(e) });
    expect(done.items[0]?.terminal).toBe('escalate');
    expect(events.find((e) => e.type === 'await.expired')).toMatchObject({ waitedMs: 30_000 });
    expect(clock.wallNow()).toBe(1_000_000 + 30_000);
    await store.close();
  });

  it('refuses an answer once the deadline has passed while no process runs', async () => {
    const store = await sqlite();
    const clock = createVirtualClock({ start: 0, wallStart: 1_000_000, auto: true });
    const dispatcher = createDispatcher({ nodes: [draft], clock, policy: reviewPolicy(30_000), store });
    const waiting = await dispatcher.run(reviewDag(), {}, { runId: 'd3', whenParked: 'stop' });
    clock.advance(31_000);
    await expect(
      dispatcher.answer({ runId: 'd3', token: waiting.parked?.[0]?.token as string, output: 'approved' }),
    ).rejects.toMatchObject({ code: 'E_ANSWER', message: expect.stringContaining('deadline') });
    expect(await store.listAnswers('d3')).toEqual([]);
    const done = await dispatcher.resume('d3');
    expect(done.items[0]?.terminal).toBe('escalate');
    await store.close();
  });
});
