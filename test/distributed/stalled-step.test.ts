/**
 * A worker that dies during a node, after the node's `ctx.step` committed its value: BullMQ's stalled-job
 * check hands the job to another worker, which runs the node again without running the recorded step
 * again (its value comes from the Redis store). Real Redis, real lock expiry with short BullMQ settings.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { startWorker } from '../../src/distributed/worker.ts';
import { dag } from '../../src/document/builder.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { removeScratchKeys, scratchPrefix, scratchRedisStore, TEST_REDIS } from '../store/redis-scratch.ts';

afterAll(removeScratchKeys);

describe('a job run again after its worker died', () => {
  it('does not repeat a recorded ctx.step', { timeout: 30_000 }, async () => {
    const sideEffects: string[] = [];
    const seen: unknown[] = [];
    let dies: (() => void) | undefined;
    const died = new Promise<void>((resolve) => {
      dies = resolve;
    });
    let first = true;
    const charge = defineNode({
      id: 'urn:test:charge',
      outputs: ['ok'],
      run: async (item, ctx) => {
        const receipt = await ctx.step('charge', ({ idempotencyKey }) => {
          sideEffects.push(idempotencyKey);
          return `receipt for ${String(item.data.amount)}`;
        });
        seen.push(receipt);
        if (first) {
          first = false;
          dies?.();
          // The worker dies here: this execution never ends.
          await new Promise(() => undefined);
        }
        item.data.receipt = receipt;
        return 'ok';
      },
    });
    const doc = dag('urn:test:pay', { name: 'pay', version: '1' })
      .entry('charge')
      .task('charge', 'urn:test:charge')
      .route('ok', 'done')
      .terminal('done', 'completed')
      .build();
    const prefix = scratchPrefix();
    const store = await scratchRedisStore(`${prefix}store:`);
    const settings = { lockDurationMs: 400, stalledIntervalMs: 200 };
    const nodes = [charge];
    const a = await startWorker({ connection: TEST_REDIS, nodes, prefix, store, ...settings });
    const dispatcher = await createDistributedDispatcher({ connection: TEST_REDIS, nodes, prefix, store });
    let b: Awaited<ReturnType<typeof startWorker>> | undefined;
    try {
      const run = dispatcher.run(doc, { amount: 12 });
      await died;
      await a.close(true);
      b = await startWorker({ connection: TEST_REDIS, nodes, prefix, store, ...settings });
      const result = await run;
      expect(result.items).toMatchObject([{ terminal: 'done', data: { receipt: 'receipt for 12' } }]);
      expect(sideEffects).toEqual([`${result.runId}/1/charge`]);
      expect(seen).toEqual(['receipt for 12', 'receipt for 12']);
    } finally {
      await dispatcher.close();
      await b?.close();
      await store.close();
    }
  });
});
