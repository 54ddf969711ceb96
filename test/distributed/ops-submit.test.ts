/**
 * A distributed run submitted without anyone following it, on a real Redis: the workers write its events
 * and endings to the run store and the last of them closes it, with the result a follower would have got;
 * its working keys are deleted then, its ledger kept to expire. A dispatcher given no store records runs
 * in one under its own prefix. Every key is removed.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { nodes as composeNodes } from '../../examples/compose-validate/nodes.ts';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { storedResult } from '../../src/distributed/follow.ts';
import { runKeys } from '../../src/distributed/keys.ts';
import { startWorker } from '../../src/distributed/worker.ts';
import { dag as build } from '../../src/document/builder.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import { loadDag } from '../runtime/helpers.ts';
import { removeScratchKeys, scratchPrefix, TEST_REDIS } from '../store/redis-scratch.ts';

afterAll(removeScratchKeys);

const policy = {
  defaults: { backoff: { strategy: 'constant', baseMs: 10, capMs: 10 }, jitter: 'none' },
} as const;

/** Waits until `done` holds, looking again every 20 ms (the test's timeout bounds it). */
async function until(done: () => Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('a distributed run nobody follows', () => {
  it('is carried to its end and closed by the workers', { timeout: 30_000 }, async () => {
    const prefix = scratchPrefix();
    const nodes = composeNodes as unknown as NodeDefinition<string, never>[];
    const dispatcher = await createDistributedDispatcher({ connection: TEST_REDIS, nodes, policy, prefix });
    const redis = new Redis(TEST_REDIS);
    const dag = await loadDag('compose-validate');
    const items = [{ topic: 'a' }, { topic: 'b', rejections: 9 }, { topic: 'c', fail: '503' }];
    try {
      // Submitted before any worker runs: the jobs wait on the queue.
      const runId = await dispatcher.submit(dag, {}, { items });
      const store = dispatcher.store;
      expect(store.location).toBe(TEST_REDIS.replace(/\/$/u, ''));
      expect((await store.getRun(runId))?.status).toBe('running');
      const workers = await Promise.all(
        [1, 2].map(() => startWorker({ connection: TEST_REDIS, nodes, prefix, concurrency: 2 })),
      );
      try {
        await until(async () => (await store.getRun(runId))?.status !== 'running');
      } finally {
        await Promise.all(workers.map((w) => w.close()));
      }
      const record = await store.getRun(runId);
      expect(record?.status).toBe('completed');
      expect(record?.finishedAt).toBeGreaterThanOrEqual(record?.createdAt ?? 0);
      const events = await store.readEvents(runId);
      expect(events.map((e) => e.seq)).toEqual(events.map((_e, i) => i));
      expect(events[0]?.type).toBe('run.start');
      expect(events.at(-1)?.body).toMatchObject({ type: 'run.end', status: 'completed', completed: 3 });
      const keys = runKeys(prefix, runId);
      const result = await storedResult({ redis, store, keys, runId }, dag.id, '', 0);
      expect(result.items.map((i) => [i.id, i.terminal])).toEqual([
        ['1', 'done'],
        ['2', 'salvaged'],
        ['3', 'done'],
      ]);
      expect(result.items[1]?.state.budgets.compose).toBe(3);
      expect(result.stats.retries).toBeGreaterThan(2);
      expect(result.stats.salvages).toBe(1);
      // The run's working keys are gone; its ledger expires.
      expect(await redis.exists(keys.spec, keys.gathers)).toBe(0);
      expect(await redis.pttl(keys.ledger)).toBeGreaterThan(0);
      expect(await redis.hget(keys.ledger, 'pending')).toBe('0');
    } finally {
      redis.disconnect();
      await dispatcher.close();
    }
  });

  it('keeps event text that holds the control characters a page is marked with', {
    timeout: 30_000,
  }, async () => {
    const prefix = scratchPrefix();
    const odd = 'a \u0001 0 \u0001 b \u0002 c \u0003 % "q" \\ é';
    const say = defineNode({
      id: 'urn:test:ops:say',
      outputs: ['ok'],
      run: () => ({ output: 'ok', reason: odd }),
    });
    const dag = build('urn:test:ops:say', { name: 'say', version: '1' })
      .entry('say')
      .task('say', 'urn:test:ops:say')
      .route('ok', 'done')
      .terminal('done', 'completed')
      .build();
    const nodes = [say] as unknown as NodeDefinition<string, never>[];
    const worker = await startWorker({ connection: TEST_REDIS, nodes, prefix });
    const dispatcher = await createDistributedDispatcher({ connection: TEST_REDIS, nodes, prefix });
    try {
      const events: RunEvent[] = [];
      const result = await dispatcher.run(dag, {}, { onEvent: (e) => void events.push(e) });
      expect(result.status).toBe('completed');
      const route = events.find((e) => e.type === 'route');
      expect(route).toMatchObject({ reason: odd, runId: result.runId });
      const stored = (await dispatcher.store.readEvents(result.runId)).find((e) => e.type === 'route');
      expect(stored?.body).toMatchObject({ reason: odd, runId: result.runId, seq: stored?.seq });
    } finally {
      await dispatcher.close();
      await worker.close();
    }
  });

  it('lets a submission under way finish when the dispatcher closes, and refuses one asked for after', {
    timeout: 30_000,
  }, async () => {
    const prefix = scratchPrefix();
    const nodes = composeNodes as unknown as NodeDefinition<string, never>[];
    const dispatcher = await createDistributedDispatcher({ connection: TEST_REDIS, nodes, policy, prefix });
    const dag = await loadDag('compose-validate');
    // Closed in the same tick as the run is asked for, as Ctrl-C does to `run --redis --wait`.
    const run = dispatcher.run(dag, {}, { items: [{ topic: 'a' }, { topic: 'b', fail: '503' }] });
    const followed = run.then(
      () => 'ended',
      (error: unknown) => (error as { code?: string }).code,
    );
    await dispatcher.close();
    expect(await followed).toBe('E_ABORTED');
    await expect(dispatcher.submit(dag, { topic: 'late' })).rejects.toMatchObject({ code: 'E_ABORTED' });
    const reader = await createDistributedDispatcher({ connection: TEST_REDIS, nodes, policy, prefix });
    const worker = await startWorker({ connection: TEST_REDIS, nodes, prefix });
    try {
      const runs = (await reader.store.listRuns({})).runs;
      expect(runs.map((r) => r.id)).toEqual([run.id]);
      // Its jobs reached the queue: the worker carries the run to its end.
      await until(async () => (await reader.store.getRun(run.id))?.status !== 'running');
      expect((await reader.store.getRun(run.id))?.status).toBe('completed');
    } finally {
      await worker.close();
      await reader.close();
    }
  });
});
