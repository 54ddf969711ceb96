/**
 * A placement's concurrency limit written in the policy holds across workers: two workers with four slots
 * each never run more of one run's items in the limited placement at once than the policy allows, and every
 * item still ends. Without a written limit the built-in default (16, a bound for one process) does not cap
 * the run across workers: their own slots do. The node meets the others at a rendezvous: it waits until as
 * many items as the run allows are in it at once, however slow the machine, then lingers a moment for one
 * more, which only a broken limit lets in. Real Redis; every key is removed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { startWorker } from '../../src/distributed/worker.ts';
import { dag } from '../../src/document/builder.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import { removeScratchKeys, scratchPrefix, TEST_REDIS } from '../store/redis-scratch.ts';
import { type Meeting, Rendezvous } from './fixtures/rendezvous.ts';

afterAll(removeScratchKeys);

/** The items in `work`: now, the most at once, and where they meet. */
const inWork = new Rendezvous();

const work = defineNode({
  id: 'urn:test:work',
  outputs: ['ok'],
  run: async () => {
    inWork.enter();
    await inWork.meet();
    inWork.leave();
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

/** How a run is shaped: slots per worker (two workers), items, and where the node's executions meet. */
interface Shape extends Meeting {
  readonly slots: number;
  readonly items: number;
}

/** A run limited to two at once: two must meet, a third is lingered for. */
const LIMITED: Shape = { slots: 4, items: 16, reach: 2, goal: 3 };
/** A run without a written limit: the workers' eight slots let three meet. */
const OPEN: Shape = { slots: 4, items: 16, reach: 3, goal: 3 };

/** Runs items on two workers; answers the terminals and the most in `work` at once. */
async function run(policy: PolicyInput, shape: Shape) {
  const prefix = scratchPrefix();
  const workers = await Promise.all([
    startWorker({ connection: TEST_REDIS, nodes, prefix, concurrency: shape.slots }),
    startWorker({ connection: TEST_REDIS, nodes, prefix, concurrency: shape.slots }),
  ]);
  const dispatcher = await createDistributedDispatcher({ connection: TEST_REDIS, nodes, policy, prefix });
  inWork.reset(shape);
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
    const limited = await run({ placements: { work: { concurrency: 2 } } }, LIMITED);
    expect(limited.status).toBe('completed');
    expect(limited.terminals).toEqual(Array.from({ length: 16 }, () => 'done'));
    expect(limited.most).toBe(2);
    // Without the limit, eight slots on two workers run more than two at once.
    const open = await run({}, OPEN);
    expect(open.status).toBe('completed');
    expect(open.most).toBeGreaterThan(2);
  });

  it('holds a limit written in the defaults, or for the node, as one written for the placement', {
    timeout: 60_000,
  }, async () => {
    const few: Shape = { ...LIMITED, items: 8 };
    const byDefault = await run({ defaults: { concurrency: 2 } }, few);
    expect(byDefault.status).toBe('completed');
    expect(byDefault.most).toBe(2);
    const byNode = await run({ nodes: { 'urn:test:work': { concurrency: 2 } } }, few);
    expect(byNode.status).toBe('completed');
    expect(byNode.most).toBe(2);
  });

  it('leaves the built-in default of one process to the workers: their slots bound a run', {
    timeout: 60_000,
  }, async () => {
    // 2 × 12 slots, and the node waits until 17 items are in it at once: more than the default 16.
    const wide = await run({}, { slots: 12, items: 24, reach: 17, goal: 17 });
    expect(wide.status).toBe('completed');
    expect(wide.terminals).toEqual(Array.from({ length: 24 }, () => 'done'));
    expect(wide.most).toBeGreaterThan(16);
    expect(wide.most).toBeLessThanOrEqual(24);
  });
});
