/**
 * A placement's concurrency limit written in the policy holds across workers: two workers with four slots
 * each never run more of one run's items in the limited placement at once than the policy allows, and every
 * item still ends. Without a written limit the built-in default (16, a bound for one process) does not cap
 * the run across workers: their own slots do. The node meets the others at a rendezvous: it waits until
 * `goal` items are in it at once, or `patience` passes, so that "more than N at once" is reached whenever
 * the limit allows it, however slow the machine. Real Redis; every key is removed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { startWorker } from '../../src/distributed/worker.ts';
import { dag } from '../../src/document/builder.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import { removeScratchKeys, scratchPrefix, TEST_REDIS } from '../store/redis-scratch.ts';

afterAll(removeScratchKeys);

/** Items in `work` right now, the most there were at once, and the rendezvous of this run. */
const inWork = { now: 0, most: 0, goal: 1, patience: 0 };

const work = defineNode({
  id: 'urn:test:work',
  outputs: ['ok'],
  run: async () => {
    inWork.now++;
    inWork.most = Math.max(inWork.most, inWork.now);
    const giveUp = Date.now() + inWork.patience;
    while (inWork.most < inWork.goal && Date.now() < giveUp) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    inWork.now--;
    return 'ok';
  },
});
const pass = defineNode({ id: 'urn:test:pass', outputs: ['ok'], run: () => 'ok' });

const doc = dag('urn:test:limited', { name: 'limited', version: '1' })
  .entry('prepare')
  .task('prepare', 'urn:test:pass')
  .route('ok', 'work')
  .task('work', 'urn:test:work')
  .route('ok', 'done')
  .terminal('done', 'completed')
  .build();

const nodes = [work, pass] as unknown as NodeDefinition<string, never>[];

/** How a run is shaped: slots per worker (two workers), items, and the node's rendezvous. */
interface Shape {
  readonly slots: number;
  readonly items: number;
  readonly goal: number;
  readonly patience: number;
}

const SMALL: Shape = { slots: 4, items: 16, goal: 3, patience: 300 };

/** Runs items on two workers; answers the terminals and the most in `work` at once. */
async function run(policy: PolicyInput, shape: Shape = SMALL) {
  const prefix = scratchPrefix();
  const workers = await Promise.all([
    startWorker({ connection: TEST_REDIS, nodes, prefix, concurrency: shape.slots }),
    startWorker({ connection: TEST_REDIS, nodes, prefix, concurrency: shape.slots }),
  ]);
  const dispatcher = await createDistributedDispatcher({ connection: TEST_REDIS, nodes, policy, prefix });
  Object.assign(inWork, { now: 0, most: 0, goal: shape.goal, patience: shape.patience });
  try {
    const items = Array.from({ length: shape.items }, (_x, i) => ({ n: i }));
    const result = await dispatcher.run(doc, {}, { items });
    return { terminals: result.items.map((i) => i.terminal), most: inWork.most, status: result.status };
  } finally {
    await dispatcher.close();
    await Promise.all(workers.map((w) => w.close()));
  }
}

describe('a placement concurrency limit across workers', () => {
  it('never runs more items of the run in the placement at once than the policy allows', {
    timeout: 60_000,
  }, async () => {
    const limited = await run({ placements: { work: { concurrency: 2 } } });
    expect(limited.status).toBe('completed');
    expect(limited.terminals).toEqual(Array.from({ length: 16 }, () => 'done'));
    expect(limited.most).toBeLessThanOrEqual(2);
    expect(limited.most).toBeGreaterThanOrEqual(1);
    // Without the limit, eight slots on two workers run more than two at once.
    const open = await run({});
    expect(open.status).toBe('completed');
    expect(open.most).toBeGreaterThan(2);
  });

  it('holds a limit written in the defaults, or for the node, as one written for the placement', {
    timeout: 60_000,
  }, async () => {
    const few: Shape = { ...SMALL, items: 8 };
    const byDefault = await run({ defaults: { concurrency: 2 } }, few);
    expect(byDefault.status).toBe('completed');
    expect(byDefault.most).toBeLessThanOrEqual(2);
    const byNode = await run({ nodes: { 'urn:test:work': { concurrency: 2 } } }, few);
    expect(byNode.status).toBe('completed');
    expect(byNode.most).toBeLessThanOrEqual(2);
  });

  it('leaves the built-in default of one process to the workers: their slots bound a run', {
    timeout: 60_000,
  }, async () => {
    // 2 × 12 slots, and the node waits (up to 20 s) until 17 items are in it at once: more than the default 16.
    const wide = await run({}, { slots: 12, items: 24, goal: 17, patience: 20_000 });
    expect(wide.status).toBe('completed');
    expect(wide.terminals).toEqual(Array.from({ length: 24 }, () => 'done'));
    expect(wide.most).toBeGreaterThan(16);
    expect(wide.most).toBeLessThanOrEqual(24);
  });
});
