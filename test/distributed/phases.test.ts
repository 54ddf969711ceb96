/**
 * Phases of distributed runs, on a real Redis: pre phases run once in a worker before any item starts,
 * post phases once after every item ended, with the run item's data carried from one to the other; a
 * failing pre phase fails every item, a failing phase is in `phaseErrors` and fails the run, exactly as in
 * one process. A worker that lacks a phase's node leaves the job for one that has it; an abort before the
 * pre phases ran ends every item and still runs the post phases. Every key is removed.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultHandBack, OnceLog } from '../../src/distributed/hand-back.ts';
import { ItemProcessor } from '../../src/distributed/item-processor.ts';
import { DEFAULT_QUEUE } from '../../src/distributed/worker.ts';
import { dag as build } from '../../src/document/builder.ts';
import type { Dag } from '../../src/document/model.ts';
import { systemClock } from '../../src/policy/clock.ts';
import { seededRandom } from '../../src/policy/random.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { defineNode, type NodeDefinition, registryOf } from '../../src/runtime/node.ts';
import type { RunResult } from '../../src/runtime/run.ts';
import { removeScratchKeys, TEST_REDIS } from '../store/redis-scratch.ts';
import { waitFor } from '../wait-for.ts';
import { scratchCluster } from './fixtures/scratch-cluster.ts';

afterAll(removeScratchKeys);

/** What the phases saw, per side of the comparison: filled by the nodes below. */
let seen: string[] = [];

const setUp = defineNode({
  id: 'urn:test:phase:setup',
  outputs: [],
  run: async (item, ctx) => {
    const token = await ctx.step('token', () => `token-for-${String(item.data.items)}`);
    item.data.token = token;
    seen.push(`setup ${String(item.data.items)}`);
    return 'done';
  },
});
const brokenSetUp = defineNode({
  id: 'urn:test:phase:broken-setup',
  outputs: [],
  run: () => {
    const error = new Error('the catalogue is locked') as Error & { status: number };
    error.status = 423;
    throw error;
  },
});
const tearDown = defineNode({
  id: 'urn:test:phase:teardown',
  outputs: [],
  run: (item) => {
    const { status, completed, failed, token } = item.data;
    seen.push(`teardown ${String(status)} ${String(completed)}/${String(failed)} ${String(token)}`);
    return 'done';
  },
});
const brokenTearDown = defineNode({
  id: 'urn:test:phase:broken-teardown',
  outputs: [],
  run: () => {
    throw new Error('could not flush the report');
  },
});
const work = defineNode({
  id: 'urn:test:phase:work',
  outputs: ['ok', 'no'],
  run: (item) => {
    seen.push(`work ${String(item.data.name)}`);
    return item.data.name === 'bad' ? 'no' : 'ok';
  },
});
const nodes = [setUp, brokenSetUp, tearDown, brokenTearDown, work] as unknown as NodeDefinition<
  string,
  never
>[];

/** A task between phases: `pre` and `post` name each phase's node (or none). */
function phased(pre: string | undefined, post: string | undefined): Dag {
  let doc = build('urn:test:phase:doc', { name: 'phased', version: '1' })
    .entry('work')
    .task('work', 'urn:test:phase:work')
    .route('ok', 'done')
    .route('no', 'refused')
    .terminal('done', 'completed')
    .terminal('refused', 'failed');
  if (pre !== undefined) doc = doc.phase('before', 'pre', `urn:test:phase:${pre}`);
  if (post !== undefined) doc = doc.phase('after', 'post', `urn:test:phase:${post}`);
  return doc.build();
}

/** What must be the same on both sides: everything but times, run ids and sequence numbers. */
function comparable(result: RunResult, events: RunEvent[]) {
  const { durationMs: _d, ...stats } = result.stats;
  return {
    status: result.status,
    items: result.items.map((i) => [i.id, i.terminal, i.outcome]),
    failures: result.failures.map((f) => [f.id, f.placement, f.error.code, f.error.message]),
    aborted: result.aborted.map((a) => [a.item, a.placement, a.waitingFor]),
    phaseErrors: result.phaseErrors.map((p) => [p.placement, p.error.code, p.error.message]),
    stats: { ...stats, byTerminal: { ...stats.byTerminal } },
    phaseEvents: events
      .filter((e) => 'item' in e && e.item === 'run')
      .map((e) => `${e.type} ${'placement' in e ? e.placement : ''}`),
    kinds: events.map((e) => e.type).sort(),
    seen: [...seen].sort(),
  };
}

async function local(doc: Dag, items: Record<string, unknown>[]) {
  seen = [];
  const events: RunEvent[] = [];
  const result = await createDispatcher({ nodes }).run(
    doc,
    {},
    { items, onEvent: (e) => void events.push(e) },
  );
  return comparable(result, events);
}

async function distributed(doc: Dag, items: Record<string, unknown>[], workers = 2) {
  const lab = await scratch();
  try {
    for (let w = 0; w < workers; w++) await lab.start();
    const events: RunEvent[] = [];
    const result = await lab.dispatcher.run(doc, {}, { items, onEvent: (e) => void events.push(e) });
    expect(events.map((e) => e.seq)).toEqual(events.map((_e, i) => i));
    expect((await lab.store.getRun(result.runId))?.status).toBe(result.status);
    return comparable(result, events);
  } finally {
    await lab.close();
  }
}

const items = [{ name: 'a' }, { name: 'bad' }, { name: 'c' }];

describe('phases of a distributed run', () => {
  it('run once each, pre before any item and post after all, with the run item carried between them', {
    timeout: 30_000,
  }, async () => {
    const doc = phased('setup', 'teardown');
    const expected = await local(doc, items);
    expect(expected.seen).toContain('teardown failed 2/1 token-for-3');
    expect(expected.phaseEvents).toEqual([
      'placement.start before',
      'placement.end before',
      'placement.start after',
      'placement.end after',
    ]);
    expect(await distributed(doc, items)).toEqual(expected);
  });

  it('a failing pre phase fails every item, and the post phases still run', { timeout: 30_000 }, async () => {
    const doc = phased('broken-setup', 'teardown');
    const expected = await local(doc, items);
    expect(expected.seen).toEqual(['teardown failed 0/3 undefined']);
    expect(expected.failures).toHaveLength(3);
    expect(expected.phaseErrors).toEqual([['before', 'E_NODE_ERROR', 'the catalogue is locked']]);
    expect(await distributed(doc, items)).toEqual(expected);
  });

  it('a failing post phase fails a run whose items all completed', { timeout: 30_000 }, async () => {
    const doc = phased(undefined, 'broken-teardown');
    const good = [{ name: 'a' }, { name: 'b' }];
    const expected = await local(doc, good);
    expect(expected.status).toBe('failed');
    expect(expected.items).toHaveLength(2);
    expect(await distributed(doc, good, 1)).toEqual(expected);
  });

  it('run for a run of no items', { timeout: 30_000 }, async () => {
    const doc = phased('setup', 'teardown');
    const expected = await local(doc, []);
    expect(expected.seen).toEqual(['setup 0', 'teardown completed 0/0 token-for-0']);
    expect(await distributed(doc, [], 1)).toEqual(expected);
  });

  it('are left by a worker that lacks their node for one that has it, said once', {
    timeout: 30_000,
  }, async () => {
    const lab = await scratch();
    const redis = new Redis(TEST_REDIS);
    const queue = new Queue(DEFAULT_QUEUE, { connection: redis, prefix: lab.prefix });
    try {
      const lines: string[] = [];
      await lab.start([work, tearDown], {
        log: (line) => void lines.push(line),
        handBack: { delayMs: 20, capMs: 40 },
      });
      const run = lab.dispatcher.run(phased('setup', 'teardown'), {}, { items: [{ name: 'a' }] });
      // The worker that lacks the node hands the job back three times before one that has it starts.
      await waitFor(
        async () =>
          (await queue.getJobs(['delayed', 'wait', 'active'])).some((job) => job.data.handedBack?.times >= 3),
        { what: 'the pre-phase job to be handed back three times', seen: () => lines.join('\n') },
      );
      expect(seen).toEqual([]);
      await lab.start();
      const result = await run;
      expect(result.status).toBe('completed');
      expect(seen).toEqual(['setup 1', 'work a', 'teardown completed 1/0 token-for-1']);
      expect(lines).toEqual([
        expect.stringContaining(
          "does not register node 'urn:test:phase:setup' (phase 'before' of DAG 'urn:test:phase:doc')",
        ),
      ]);
    } finally {
      await queue.close();
      await redis.quit();
      await lab.close();
    }
  });

  it('an abort before the pre phases ran ends every item and still runs the post phases', {
    timeout: 30_000,
  }, async () => {
    const lab = await scratch();
    try {
      // No worker yet: the pre-phase job waits on the queue, and the abort takes it off.
      const run = lab.dispatcher.run(phased('setup', 'teardown'), {}, { items });
      while ((await lab.store.getRun(run.id)) === undefined) await pause(10);
      const outcome = await lab.dispatcher.abort(run.id, { reason: 'test', waitMs: 300 });
      // The post phases' job waits for a worker: the run is still open.
      expect(outcome).toEqual({ status: 'running', removed: 3 });
      await lab.start();
      const result = await run;
      expect(result.status).toBe('aborted');
      expect(result.aborted.map((a) => [a.item, a.placement, a.waitingFor])).toEqual([
        ['1', 'work', 'queue'],
        ['2', 'work', 'queue'],
        ['3', 'work', 'queue'],
      ]);
      expect(seen).toEqual(['teardown aborted 0/3 undefined']);
    } finally {
      await lab.close();
    }
  });

  it('a pre-phase job run again (its worker died) runs no phase again, and each item runs once', {
    timeout: 30_000,
  }, async () => {
    const lab = await scratch();
    const redis = new Redis(TEST_REDIS);
    const queue = new Queue(DEFAULT_QUEUE, { connection: redis, prefix: lab.prefix });
    try {
      const runId = await lab.dispatcher.submit(phased('setup', 'teardown'), {}, { items });
      const [job] = await queue.getJobs(['waiting'], 0, -1, true);
      expect(job?.data).toMatchObject({ kind: 'phase', stage: 'pre' });
      const faults = { log: new OnceLog(() => undefined), handBack: defaultHandBack };
      const registry = registryOf(nodes);
      const processor = new ItemProcessor({
        registry,
        redis,
        queue,
        prefix: lab.prefix,
        services: undefined,
        store: lab.store,
        faults,
        clock: systemClock,
        random: seededRandom(1),
      });
      // The same job carried twice, as BullMQ runs a stalled job again on another worker.
      await processor.process(job?.data, `${job?.id}:1`);
      await processor.process(job?.data, `${job?.id}:2`);
      expect(seen).toEqual(['setup 3']);
      const inputs = async () =>
        (await queue.getJobs(['waiting'], 0, -1, true))
          .filter((j) => j.data.kind === 'item')
          .map((j) => j.data.state.id)
          .sort();
      expect(await inputs()).toEqual(['1', '2', '3']);
      // Once more, as if the first worker died after adding the chunk and before counting it: the chunk is
      // added again, and each item still runs once.
      await redis.hset(`${lab.prefix}:run:{${runId}}:ledger`, 'added', 0);
      await processor.process(job?.data, `${job?.id}:3`);
      expect(await inputs()).toEqual(['1', '1', '2', '2', '3', '3']);
      await job?.remove();
      await lab.start();
      while ((await lab.store.getRun(runId))?.status === 'running') await pause(20);
      expect((await lab.store.getRun(runId))?.status).toBe('failed');
      expect(seen.sort()).toEqual([
        'setup 3',
        'teardown failed 2/1 token-for-3',
        'work a',
        'work bad',
        'work c',
      ]);
      const events = await lab.store.readEvents(runId);
      expect(events.filter((e) => e.type === 'placement.start').length).toBe(5);
    } finally {
      await queue.close();
      await redis.quit();
      await lab.close();
    }
  });
});

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A scratch set-up with this file's nodes; `seen` starts empty. */
function scratch() {
  seen = [];
  return scratchCluster({ nodes });
}
