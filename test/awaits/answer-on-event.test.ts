/**
 * An answer given as soon as `await.parked` is seen (a bot or a UI reacting to the event) finds its item
 * parked: it is taken, not kept as if it came before the item parked, in process and in a durable run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnswerReceipt } from '../../src/awaits/request.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { RunStore } from '../../src/store/types.ts';
import { draft, reviewDag, reviewPolicy } from './fixtures.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function answeredOnEvent(store?: RunStore) {
  const clock = createVirtualClock({ start: 0, wallStart: 1_000_000, auto: true });
  const dispatcher = createDispatcher({
    nodes: [draft],
    clock,
    policy: reviewPolicy(),
    ...(store === undefined ? {} : { store }),
  });
  const events: RunEvent[] = [];
  const receipts: Promise<AnswerReceipt>[] = [];
  const result = await dispatcher.run(
    reviewDag(),
    {},
    {
      runId: 'ev',
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'await.parked') {
          receipts.push(
            dispatcher.answer({ runId: 'ev', token: e.token, output: 'approved', data: { n: 1 } }),
          );
        }
      },
    },
  );
  return { result, events, receipts: await Promise.all(receipts) };
}

describe('an answer given on the await.parked event', () => {
  it('is taken by the parked item, in process', async () => {
    const { result, events, receipts } = await answeredOnEvent();
    expect(receipts).toMatchObject([{ status: 'taken', item: '1', placement: 'review' }]);
    expect(events.find((e) => e.type === 'await.answered')).not.toHaveProperty('early');
    expect(result.items[0]?.terminal).toBe('publish');
  });

  it('is taken by the parked item, in a durable run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sy-await-event-'));
    dirs.push(dir);
    const store = await openSqliteStore(join(dir, 'runs.db'));
    const { result, events, receipts } = await answeredOnEvent(store);
    expect(receipts).toMatchObject([{ status: 'taken', item: '1', placement: 'review' }]);
    expect(events.find((e) => e.type === 'await.answered')).not.toHaveProperty('early');
    expect(result.items[0]?.data.review).toEqual({ n: 1 });
    await store.close();
  });
});
