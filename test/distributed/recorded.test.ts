/**
 * A distributed run recorded in the Redis run store, as `switchyard runs` reads runs: its record and final
 * status, every event the submitter received in order, and each input item's ending; every key removed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { nodes as composeNodes } from '../../examples/compose-validate/nodes.ts';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { startWorker } from '../../src/distributed/worker.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import type { NodeDefinition } from '../../src/runtime/node.ts';
import { loadDag } from '../runtime/helpers.ts';
import { removeScratchKeys, scratchPrefix, scratchRedisStore, TEST_REDIS } from '../store/redis-scratch.ts';

afterAll(removeScratchKeys);

const policy = {
  defaults: { backoff: { strategy: 'constant', baseMs: 10, capMs: 10 }, jitter: 'none' },
} as const;

describe('a distributed run in the Redis run store', () => {
  it('records the run, its events and every item ending', { timeout: 30_000 }, async () => {
    const prefix = scratchPrefix();
    const store = await scratchRedisStore(`${prefix}store:`);
    const nodes = composeNodes as unknown as NodeDefinition<string, never>[];
    const worker = await startWorker({ connection: TEST_REDIS, nodes, prefix, concurrency: 4 });
    const dispatcher = await createDistributedDispatcher({
      connection: TEST_REDIS,
      nodes,
      policy,
      prefix,
      store,
    });
    try {
      const events: RunEvent[] = [];
      const items = [{ topic: 'a' }, { topic: 'b', rejections: 9 }, { topic: 'c', fail: '503' }];
      const result = await dispatcher.run(
        await loadDag('compose-validate'),
        {},
        {
          items,
          onEvent: (e) => void events.push(e),
        },
      );
      const run = await store.getRun(result.runId);
      expect(run?.status).toBe(result.status);
      expect(run?.dag.iri).toBe('urn:switchyard:dag:compose-validate');
      expect(run?.input).toEqual(items);
      const recorded = await store.readEvents(result.runId);
      expect(recorded.map((e) => e.seq)).toEqual(events.map((e) => e.seq));
      expect(recorded.map((e) => e.type)).toEqual(events.map((e) => e.type));
      const ended = await store.listCheckpoints(result.runId, 'ended');
      expect(ended.map((c) => [c.itemId, c.ending]).sort()).toEqual(
        result.items.map((i) => [i.id, { kind: 'terminal', placement: i.terminal, outcome: i.outcome }]),
      );
      expect(await store.getLease(result.runId)).toBeUndefined();
    } finally {
      await dispatcher.close();
      await worker.close();
      await store.close();
    }
  });
});
