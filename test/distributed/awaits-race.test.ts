/**
 * An answer and a deadline that come together, over workers on a real Redis: a parked item's deadline job
 * is made to run at once, before its answer or while it is given, and exactly one of them wins: an answer
 * taken carries its item to the answered route, an answer refused leaves it to its deadline route, and no
 * item goes on twice. Every key is removed.
 */
import { Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { awaitedJobId } from '../../src/distributed/await-park.ts';
import { DEFAULT_QUEUE } from '../../src/distributed/worker.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { removeScratchKeys, TEST_REDIS } from '../store/redis-scratch.ts';
import { parkedOf, review, startRig, until } from './fixtures/awaits.ts';

afterAll(removeScratchKeys);

describe('an answer and a deadline at once', () => {
  it('lets exactly one of them carry each item on', { timeout: 60_000 }, async () => {
    const rig = await startRig(86_400_000, { workers: 2, concurrency: 4 });
    const connection = new Redis(TEST_REDIS, { maxRetriesPerRequest: null });
    const queue = new Queue(DEFAULT_QUEUE, { connection, prefix: rig.prefix });
    try {
      const events: RunEvent[] = [];
      const items = Array.from({ length: 8 }, (_, i) => ({ n: i }));
      const run = rig.dispatcher.run(review, {}, { items, onEvent: (e) => events.push(e) });
      await until(() => parkedOf(events).length === items.length);
      // Each deadline job exists once its park is registered, just after the parked event.
      const jobs = await Promise.all(
        parkedOf(events).map(async (parked) => {
          const id = awaitedJobId({ token: parked.token, via: 'deadline' });
          let job: Job | undefined;
          await until(async () => {
            job = await Job.fromId(queue, id);
            return job !== undefined;
          });
          return { parked, job: job as Job };
        }),
      );
      // Half of them: the deadline first, then the answer, refused since the item went its deadline route.
      const late = jobs.slice(0, items.length / 2);
      for (const { parked, job } of late) {
        await job.promote();
        await until(() => events.some((e) => e.type === 'await.expired' && e.item === parked.item));
        await expect(
          rig.other.answer({ runId: run.id, token: parked.token, output: 'approved' }),
        ).rejects.toMatchObject({ code: 'E_ANSWER' });
      }
      // The other half: both at once.
      const outcomes = await Promise.all(
        jobs.slice(items.length / 2).map(async ({ parked, job }) => {
          const [, answer] = await Promise.allSettled([
            job.promote(),
            rig.other.answer({ runId: run.id, token: parked.token, output: 'approved' }),
          ]);
          return [parked.item, answer.status === 'fulfilled' ? 'publish' : 'escalate'] as const;
        }),
      );
      const result = await run;
      const routes = new Map(result.items.map((i) => [i.id, i.terminal]));
      for (const [item, route] of outcomes) expect([item, routes.get(item)]).toEqual([item, route]);
      for (const { parked } of late) expect(routes.get(parked.item)).toBe('escalate');
      expect(result.items).toHaveLength(items.length);
      // One way on per item: one answered or expired event each.
      const ends = events.filter((e) => e.type === 'await.answered' || e.type === 'await.expired');
      expect(ends.map((e) => e.item).sort()).toEqual(result.items.map((i) => i.id).sort());
    } finally {
      await queue.close();
      connection.disconnect();
      await rig.close();
    }
  });
});
