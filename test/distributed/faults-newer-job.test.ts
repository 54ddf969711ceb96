/**
 * Jobs written by a newer Switchyard: a worker leaves them on the queue as they are (delayed, for an
 * upgraded worker), says so once, and neither fails nor rewrites them; a job that is not a Switchyard job
 * at all fails with a reason that says so. Real Redis; every key is removed.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { JOB_FORMAT, readJob } from '../../src/distributed/job-data.ts';
import { startWorker } from '../../src/distributed/worker.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { removeScratchKeys, scratchPrefix, TEST_REDIS } from '../store/redis-scratch.ts';

afterAll(removeScratchKeys);

const nothing = defineNode({ id: 'urn:test:nothing', outputs: ['ok'], run: () => 'ok' });

describe('a job of a newer format', () => {
  it('is refused by readJob with a message that says to upgrade', () => {
    expect(() => readJob({ v: JOB_FORMAT + 1, kind: 'item', runId: 'r1' })).toThrow(
      `a job of run 'r1' was written in job format ${JOB_FORMAT + 1}, newer than this worker's ${JOB_FORMAT}; upgrade the worker`,
    );
  });

  it('stays on the queue unchanged for an upgraded worker, and the worker says so once', {
    timeout: 30_000,
  }, async () => {
    const prefix = scratchPrefix();
    const connection = new Redis(TEST_REDIS, { maxRetriesPerRequest: null });
    const queue = new Queue('newer', { connection, prefix });
    const lines: string[] = [];
    const worker = await startWorker({
      connection: TEST_REDIS,
      nodes: [nothing],
      prefix,
      queue: 'newer',
      handBack: { capMs: 60_000 },
      log: (line) => void lines.push(line),
    });
    try {
      const future = { v: JOB_FORMAT + 1, kind: 'item', runId: 'r1', at: 'x', shape: { of: 'tomorrow' } };
      const added = await Promise.all([1, 2, 3].map((n) => queue.add('item', { ...future, n })));
      const foreign = await queue.add('other', { hello: 'world' });
      // Every job was taken once: three moved back to the delayed set, the foreign one failed.
      for (;;) {
        const counts = await queue.getJobCounts('delayed', 'failed', 'wait', 'active');
        if (counts.delayed === 3 && counts.failed === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(lines).toEqual([
        `switchyard worker: jobs on queue 'newer' are in job format ${JOB_FORMAT + 1}, written by a newer Switchyard than this worker (format ${JOB_FORMAT}); it leaves them for upgraded workers. Upgrade this worker`,
      ]);
      for (const [i, job] of added.entries()) {
        const kept = await queue.getJob(job.id as string);
        expect(await kept?.getState()).toBe('delayed');
        expect(kept?.data).toEqual({ ...future, n: i + 1 });
        expect(kept?.failedReason ?? '').toBe('');
      }
      const refused = await queue.getJob(foreign.id as string);
      expect(refused?.failedReason).toBe(
        'a job on the queue is not a Switchyard job; give Switchyard a queue of its own (--queue)',
      );
    } finally {
      await worker.close();
      await queue.close();
      await connection.quit();
    }
  });
});
