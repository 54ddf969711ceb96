/**
 * Aborting a distributed run from another process's dispatcher, on a real Redis: items that wait out a
 * long Retry-After (delayed jobs) or that no worker took yet end aborted at once, items already ended
 * keep their endings, a scatter's waiting children are cancelled and their parent ends aborted; the run
 * ends `aborted` with every input item accounted for. Aborting an ended run or an unknown one is refused.
 * Every key is removed.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { DEFAULT_QUEUE, startWorker } from '../../src/distributed/worker.ts';
import { dag as build } from '../../src/document/builder.ts';
import { libraryOf } from '../../src/document/load.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import type { RunResult } from '../../src/runtime/run.ts';
import type { RunStore } from '../../src/store/types.ts';
import { removeScratchKeys, scratchPrefix, scratchRedisStore, TEST_REDIS } from '../store/redis-scratch.ts';

afterAll(removeScratchKeys);

/** Retry-After waits of ten minutes: only an abort ends these runs within the test's timeout. */
const policy: PolicyInput = { defaults: { jitter: 'none', retryAfter: { honour: true, capMs: 600_000 } } };

const work = defineNode({
  id: 'urn:test:ops:work',
  outputs: ['ok', 'later'],
  run: (item) => {
    const name = String(item.data.name ?? item.data.item);
    if (name.startsWith('slow')) return { output: 'later', retryAfter: 600_000 };
    return 'ok';
  },
});
const nodes = [work] as unknown as NodeDefinition<string, never>[];

const waiting = build('urn:test:ops:waiting', { name: 'waiting', version: '1' })
  .budget('again', 3)
  .entry('work')
  .task('work', 'urn:test:ops:work')
  .route('ok', 'done')
  .retry('later', 'work', { budget: 'again', exhausted: 'gave_up' })
  .terminal('done', 'completed')
  .terminal('gave_up', 'failed')
  .build();

const fanned = build('urn:test:ops:fanned', { name: 'fanned', version: '1' })
  .entry('fan')
  .scatter('fan', { items: '/xs', dag: 'urn:test:ops:waiting' })
  .route('done', 'join')
  .gather('join', { into: '/out', reducer: 'partition', require: 'any' })
  .route('completed', 'ok')
  .route('failed', 'ko')
  .terminal('ok', 'completed')
  .terminal('ko', 'failed')
  .build();

/** Every input item exactly once across the three lists of a result. */
function accounted(result: RunResult): string[] {
  return [
    ...result.items.map((i) => i.id),
    ...result.failures.map((f) => f.id),
    ...result.aborted.map((a) => a.item),
  ].sort();
}

/** Waits until `done` holds, looking again every 20 ms (the test's timeout bounds it). */
async function until(done: () => Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** How many input items of the run have ended, as its store says. */
async function ended(store: RunStore, runId: string): Promise<number> {
  return (await store.listCheckpoints(runId, 'ended')).length;
}

async function setup(withWorker: boolean) {
  const prefix = scratchPrefix();
  const store = await scratchRedisStore(`${prefix}store:`);
  const worker = withWorker
    ? await startWorker({ connection: TEST_REDIS, nodes, prefix, store, concurrency: 4 })
    : undefined;
  const options = { connection: TEST_REDIS, nodes, policy, prefix, store, library: libraryOf([waiting]) };
  const dispatcher = await createDistributedDispatcher(options);
  // Another process's dispatcher: the abort does not come from the one following the run.
  const other = await createDistributedDispatcher(options);
  const close = async () => {
    await dispatcher.close();
    await other.close();
    await worker?.close();
    await store.close();
  };
  return { store, dispatcher, other, close, prefix };
}

describe('aborting a distributed run', () => {
  it('ends items waiting out a long Retry-After at once, and the run as aborted', {
    timeout: 30_000,
  }, async () => {
    const { store, dispatcher, other, close } = await setup(true);
    try {
      const items = [{ name: 'a' }, { name: 'slow1' }, { name: 'b' }, { name: 'slow2' }];
      const scheduled = new Set<string>();
      const onEvent = (event: RunEvent) => {
        if (event.type === 'retry.scheduled') scheduled.add(event.item);
      };
      const run = dispatcher.run(waiting, {}, { items, onEvent });
      // The abort comes once both slow items wait and both fast ones ended at their terminal.
      await until(async () => scheduled.size === 2 && (await ended(store, run.id)) === 2);
      const outcome = await other.abort(run.id, { reason: 'test' });
      expect(outcome).toEqual({ status: 'aborted', removed: 2 });
      const result = await run;
      expect(result.status).toBe('aborted');
      expect(accounted(result)).toEqual(['1', '2', '3', '4']);
      expect(result.items.map((i) => [i.id, i.terminal])).toEqual([
        ['1', 'done'],
        ['3', 'done'],
      ]);
      expect(result.aborted.map((a) => [a.item, a.placement, a.waitingFor])).toEqual([
        ['2', 'work', 'backoff'],
        ['4', 'work', 'backoff'],
      ]);
      expect(result.aborted[0]?.state.budgets.again).toBe(1);
      const record = await store.getRun(run.id);
      expect(record?.status).toBe('aborted');
      expect(record?.finishedAt).toBeGreaterThan(0);
      const events = await store.readEvents(run.id);
      expect(events.at(-1)?.type).toBe('run.end');
      expect(events.at(-1)?.body).toMatchObject({ status: 'aborted' });
      // Aborting again, or a run the store does not hold, is refused with one line.
      await expect(other.abort(run.id)).rejects.toMatchObject({ code: 'E_RUN_FINISHED' });
      await expect(other.abort('no-such-run')).rejects.toMatchObject({ code: 'E_STORE_UNKNOWN_RUN' });
    } finally {
      await close();
    }
  });

  it('cancels a scatter’s waiting children and ends their parent aborted at the gather', {
    timeout: 30_000,
  }, async () => {
    const { store, dispatcher, other, close } = await setup(true);
    try {
      const items = [{ xs: ['a', 'slow', 'b'] }, { xs: ['c'] }];
      let scheduled = false;
      const onEvent = (event: RunEvent) => {
        if (event.type === 'retry.scheduled') scheduled = true;
      };
      const run = dispatcher.run(fanned, {}, { items, onEvent });
      await until(async () => scheduled && (await ended(store, run.id)) === 1);
      const outcome = await other.abort(run.id);
      expect(outcome.status).toBe('aborted');
      const result = await run;
      expect(result.status).toBe('aborted');
      expect(accounted(result)).toEqual(['1', '2']);
      expect(result.items.map((i) => [i.id, i.terminal])).toEqual([['2', 'ok']]);
      expect(result.aborted.map((a) => [a.item, a.placement, a.waitingFor])).toEqual([['1', 'fan', 'node']]);
    } finally {
      await close();
    }
  });

  it('ends every item of a run no worker took, and closes the run itself', {
    timeout: 30_000,
  }, async () => {
    const { store, other, close } = await setup(false);
    try {
      const runId = await other.submit(waiting, {}, { items: [{ name: 'a' }, { name: 'b' }] });
      expect((await store.getRun(runId))?.status).toBe('running');
      expect(await other.abort(runId, { waitMs: 0 })).toEqual({ status: 'aborted', removed: 2 });
      const ended = await store.listCheckpoints(runId, 'ended');
      expect(ended.map((c) => [c.itemId, c.ending])).toEqual([
        ['1', { kind: 'aborted', reason: 'queue' }],
        ['2', { kind: 'aborted', reason: 'queue' }],
      ]);
      expect((await store.getRun(runId))?.status).toBe('aborted');
    } finally {
      await close();
    }
  });

  it('closes a run whose submitter died right after recording it', { timeout: 30_000 }, async () => {
    const { store, other, close, prefix } = await setup(false);
    // A submitter whose process dies once the run is recorded: every later write of it fails.
    const dying = await scratchRedisStore(`${prefix}store:`);
    const commit = dying.commit.bind(dying);
    let commits = 0;
    dying.commit = (writes) => {
      commits++;
      if (commits > 1) return Promise.reject(new Error('the submitter died'));
      return commit(writes);
    };
    const submitter = await createDistributedDispatcher({
      connection: TEST_REDIS,
      nodes,
      policy,
      prefix,
      store: dying,
    });
    try {
      await expect(submitter.submit(waiting, {}, { items: [{ name: 'a' }] })).rejects.toThrow('died');
      const [run] = (await store.listRuns({})).runs;
      expect(run?.status).toBe('running');
      const runId = run?.id as string;
      const outcome = await other.abort(runId, { waitMs: 10_000 });
      expect(outcome).toEqual({ status: 'aborted', removed: 1 });
      const ended = await store.listCheckpoints(runId, 'ended');
      expect(ended.map((c) => [c.itemId, c.ending])).toEqual([['1', { kind: 'aborted', reason: 'queue' }]]);
    } finally {
      await submitter.close();
      await dying.close();
      await close();
    }
  });

  it('ends the items of a run whose jobs never reached the queue, once no job of it is left', {
    timeout: 30_000,
  }, async () => {
    const { store, other, close, prefix } = await setup(false);
    const connection = new Redis(TEST_REDIS);
    const queue = new Queue(DEFAULT_QUEUE, { connection, prefix });
    try {
      const runId = await other.submit(waiting, {}, { items: [{ name: 'a' }, { name: 'b' }] });
      // As if its submitter died after recording it and before queueing its jobs: the run is open, no job.
      for (const job of await queue.getJobs(['waiting'], 0, -1, true)) await job.remove();
      expect((await store.getRun(runId))?.status).toBe('running');
      expect(await other.abort(runId, { waitMs: 10_000 })).toEqual({ status: 'aborted', removed: 2 });
      const ended = await store.listCheckpoints(runId, 'ended');
      expect(ended.map((c) => [c.itemId, c.ending])).toEqual([
        ['1', { kind: 'aborted', reason: 'queue' }],
        ['2', { kind: 'aborted', reason: 'queue' }],
      ]);
      const end = (await store.readEvents(runId)).at(-1)?.body;
      expect(end).toMatchObject({ type: 'run.end', status: 'aborted' });
    } finally {
      await queue.close();
      connection.disconnect();
      await close();
    }
  });
});
