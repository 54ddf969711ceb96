/**
 * Following a distributed run nobody listens to reads its ledger, not its events: the run's result is the
 * same as a listened-to run's, and the store's events are read only for the run's start and end. A listener
 * that comes in the middle of a run hears the events from then on, in seq order, up to `run.end`. Real
 * Redis; every key is removed.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { nodes as composeNodes } from '../../examples/compose-validate/nodes.ts';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { runKeys } from '../../src/distributed/keys.ts';
import { startWorker } from '../../src/distributed/worker.ts';
import type { Dag } from '../../src/document/model.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import type { NodeDefinition } from '../../src/runtime/node.ts';
import type { EventQuery, RunStore } from '../../src/store/types.ts';
import { loadDag } from '../runtime/helpers.ts';
import { removeScratchKeys, scratchPrefix, scratchRedisStore, TEST_REDIS } from '../store/redis-scratch.ts';
import { waitFor } from '../wait-for.ts';

afterAll(removeScratchKeys);

const policy = {
  defaults: { backoff: { strategy: 'constant', baseMs: 10, capMs: 10 }, jitter: 'none' },
} as const;
const nodes = composeNodes as unknown as NodeDefinition<string, never>[];
const items = Array.from({ length: 12 }, (_x, i) =>
  i % 3 === 0 ? { topic: `t${i}`, rejections: 9 } : { topic: `t${i}` },
);

/** A real Redis run store whose event reads are counted. */
async function countingStore(prefix: string): Promise<{ store: RunStore; reads: () => number }> {
  const store = await scratchRedisStore(`${prefix}store:`);
  let reads = 0;
  const readEvents = store.readEvents.bind(store);
  store.readEvents = (runId: string, query?: EventQuery) => {
    reads++;
    return readEvents(runId, query);
  };
  return { store, reads: () => reads };
}

async function withWorkers<T>(prefix: string, body: () => Promise<T>): Promise<T> {
  const workers = await Promise.all(
    [1, 2].map(() => startWorker({ connection: TEST_REDIS, nodes, prefix, concurrency: 4 })),
  );
  try {
    return await body();
  } finally {
    await Promise.all(workers.map((w) => w.close()));
  }
}

/** Runs `items` on two workers and follows the run, with a listener or without; counts the store's event reads. */
async function followed(dag: Dag, listening: boolean) {
  const prefix = scratchPrefix();
  const { store, reads } = await countingStore(prefix);
  const dispatcher = await createDistributedDispatcher({
    connection: TEST_REDIS,
    nodes,
    policy,
    prefix,
    store,
  });
  const events: RunEvent[] = [];
  const onEvent = (event: RunEvent) => events.push(event);
  try {
    const result = await withWorkers(
      prefix,
      async () => await dispatcher.run(dag, {}, listening ? { items, onEvent } : { items }),
    );
    return { result, reads: reads(), events };
  } finally {
    await dispatcher.close();
    await store.close();
  }
}

describe('following a distributed run', () => {
  it('reads no events while nobody listens, and answers the same result', { timeout: 60_000 }, async () => {
    const dag = await loadDag('compose-validate');
    const quiet = await followed(dag, false);
    const heard = await followed(dag, true);
    // The start and the end of the run, nothing else.
    expect(quiet.reads).toBe(2);
    expect(heard.reads).toBeGreaterThan(2);
    expect(heard.events.at(-1)?.type).toBe('run.end');
    const shape = (r: typeof quiet.result) => ({
      status: r.status,
      dag: r.dag,
      hash: r.hash,
      items: r.items.map((i) => ({ terminal: i.terminal, budgets: i.state.budgets, data: i.data })),
      failures: r.failures.length,
      stats: { ...r.stats, durationMs: 0 },
    });
    expect(shape(quiet.result)).toEqual(shape(heard.result));
    expect(quiet.result.hash).toMatch(/^[0-9a-f]{64}$/u);
    expect(quiet.result.status).toBe('completed');
  });

  it('lets a listener that comes later hear the events from then on', { timeout: 60_000 }, async () => {
    const dag = await loadDag('compose-validate');
    const prefix = scratchPrefix();
    const dispatcher = await createDistributedDispatcher({ connection: TEST_REDIS, nodes, policy, prefix });
    try {
      // Submitted before any worker runs, so the follower starts quiet (its jobs on the queue, it polls the
      // ledger); the listener comes once Redis has seen the follower read the ledger, before any worker
      // wrote an event.
      const monitor = await new Redis(TEST_REDIS).monitor();
      let ledger: string | undefined;
      let ledgerRead = false;
      monitor.on('monitor', (_time: string, args: string[]) => {
        if (args[0]?.toLowerCase() === 'hmget' && args[1] === ledger && args[2] === 'closed')
          ledgerRead = true;
      });
      const run = dispatcher.run(dag, {}, { items });
      ledger = runKeys(prefix, run.id).ledger;
      try {
        await waitFor(() => ledgerRead, { what: "the follower's first read of the run's ledger" });
      } finally {
        monitor.disconnect();
      }
      const events: RunEvent[] = [];
      const heard = (async () => {
        for await (const event of run) events.push(event);
      })();
      const result = await withWorkers(prefix, async () => {
        await heard;
        return run.result;
      });
      expect(result.status).toBe('completed');
      expect(events.at(-1)?.type).toBe('run.end');
      const seqs = events.map((e) => e.seq);
      expect(seqs).toEqual(seqs.map((_s, i) => (seqs[0] ?? 0) + i));
      // The submitter's run.start (seq 0) came before the listener; every event the workers wrote after it
      // reaches it, with the seq the store holds.
      expect(seqs[0]).toBe(1);
      expect(events.some((e) => e.type === 'run.start')).toBe(false);
      const stored = await dispatcher.store.readEvents(run.id);
      expect(stored.slice(1).map((e) => [e.seq, e.type])).toEqual(events.map((e) => [e.seq, e.type]));
    } finally {
      await dispatcher.close();
    }
  });
});
