/**
 * A worker times and draws through what it is given, as a local dispatcher does: the back-off jitter of its
 * items comes from its `random`, and the `ctx.step` values it commits carry the wall time of its `clock`.
 * Runs on a real Redis (127.0.0.1:6379, or SWITCHYARD_TEST_REDIS); every key is removed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { systemClock } from '../../src/policy/clock.ts';
import type { Clock } from '../../src/policy/types.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { removeScratchKeys } from '../store/redis-scratch.ts';
import { scratchCluster } from './fixtures/scratch-cluster.ts';

afterAll(removeScratchKeys);

/** A wall clock far from the system's, so that a value stamped by the system clock cannot pass for it. */
const WALL_START = Date.parse('2031-03-04T05:06:07Z');
const started = systemClock.now();
const shifted: Clock = {
  now: () => systemClock.now(),
  sleep: (ms, signal) => systemClock.sleep(ms, signal),
  wallNow: () => WALL_START + (systemClock.now() - started),
};

/** Fails its first visit of an item, after committing a step; routes `ok` on the second. */
const flaky = defineNode({
  id: 'urn:test:injected:flaky',
  outputs: ['ok', 'again'],
  run: async (item, ctx) => {
    await ctx.step('noted', () => item.id);
    return ctx.attempts('tries') === 0 ? 'again' : 'ok';
  },
});

const document = dag('urn:test:injected', { name: 'injected', version: '1' })
  .budget('tries', 2)
  .entry('flaky')
  .task('flaky', flaky.id)
  .route('ok', 'done')
  .retry('again', 'flaky', { budget: 'tries', exhausted: 'done' })
  .terminal('done', 'completed')
  .build();

describe('a worker uses the clock and random it is given', () => {
  it('jitters with its random and stamps journal values with its clock', { timeout: 30_000 }, async () => {
    const lab = await scratchCluster({
      nodes: [flaky],
      policy: { defaults: { backoff: { strategy: 'constant', baseMs: 40, capMs: 40 }, jitter: 'full' } },
    });
    try {
      await lab.start(undefined, { clock: shifted, random: () => 0.25 });
      const events: RunEvent[] = [];
      const run = lab.dispatcher.run(document, {}, { items: [{}, {}], onEvent: (e) => void events.push(e) });
      const result = await run;
      expect(result.status).toBe('completed');
      const delays = events.flatMap((e) => (e.type === 'retry.scheduled' ? [e.delayMs] : []));
      expect(delays).toEqual([10, 10]);
      const journal = await lab.store.listJournal(result.runId);
      expect(journal.length).toBeGreaterThan(0);
      for (const entry of journal) expect(entry.committedAt).toBeGreaterThanOrEqual(WALL_START);
    } finally {
      await lab.close();
    }
  });
});
