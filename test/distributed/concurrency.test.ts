/**
 * A placement's concurrency limit from the policy holds across workers: two workers with four slots each
 * never run more of one run's items in the limited placement at once than the policy allows, and every item
 * still ends. Without the limit the same run goes wider, so the check can fail. Real Redis; every key is
 * removed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { startWorker } from '../../src/distributed/worker.ts';
import { dag } from '../../src/document/builder.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import { removeScratchKeys, scratchPrefix, TEST_REDIS } from '../store/redis-scratch.ts';

afterAll(removeScratchKeys);

/** Items in `work` right now, and the most there were at once. */
const inWork = { now: 0, most: 0 };

const work = defineNode({
  id: 'urn:test:work',
  outputs: ['ok'],
  run: async () => {
    inWork.now++;
    inWork.most = Math.max(inWork.most, inWork.now);
    await new Promise((resolve) => setTimeout(resolve, 20));
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

/** Runs 16 items on two workers of four slots each; answers the terminals and the most in `work` at once. */
async function run(policy: PolicyInput) {
  const prefix = scratchPrefix();
  const workers = await Promise.all([
    startWorker({ connection: TEST_REDIS, nodes, prefix, concurrency: 4 }),
    startWorker({ connection: TEST_REDIS, nodes, prefix, concurrency: 4 }),
  ]);
  const dispatcher = await createDistributedDispatcher({ connection: TEST_REDIS, nodes, policy, prefix });
  inWork.most = 0;
  try {
    const items = Array.from({ length: 16 }, (_x, i) => ({ n: i }));
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
});
