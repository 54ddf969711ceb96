/**
 * Every entry of an embed or a scatter, at any depth and visit, is its own: the documents of
 * `fixtures/re-entry.ts` (retry loops that enter scatters and embeds again, at several depths) end the same
 * in process, durably (SQLite, and through a crash at each commit then a resume) and on a worker over a
 * real Redis (127.0.0.1:6379, or SWITCHYARD_TEST_REDIS), and each item ends as its case says. A
 * distributed run that never ends fails its test after a bound instead of hanging it. Every key is removed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { startWorker } from '../../src/distributed/worker.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import type { RunResult } from '../../src/runtime/run.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { freezingStore, removeTempStores, tempSqliteStore } from '../durable/helpers.ts';
import { runThroughCrashes } from '../durable/helpers-attempts.ts';
import { virtualClock } from '../runtime/helpers.ts';
import { removeScratchKeys, scratchPrefix, TEST_REDIS } from '../store/redis-scratch.ts';
import {
  RE_ENTRY_LIBRARY as library,
  RE_ENTRY_NODES as nodes,
  RE_ENTRY_CASES,
  type ReEntryCase,
} from './fixtures/re-entry.ts';

afterAll(async () => {
  await removeScratchKeys();
  removeTempStores();
});

/** Short constant waits without jitter: the same on every side. */
const policy: PolicyInput = {
  defaults: { backoff: { strategy: 'constant', baseMs: 5, capMs: 5 }, jitter: 'none' },
};

/** How long a distributed run may take before it counts as hung (each one ends in well under a second). */
const HANG_BOUND_MS = 20_000;

/** What each item ended with: everything but times and run ids. */
function ended(result: RunResult) {
  return {
    status: result.status,
    items: result.items.map((i) => ({
      id: i.id,
      terminal: i.terminal,
      outcome: i.outcome,
      data: i.data,
      budgets: { ...i.state.budgets },
      visits: { ...i.state.visits },
      trail: i.state.trail,
      journal: { ...i.state.journal },
    })),
    failures: result.failures.map((f) => ({ id: f.id, placement: f.placement, code: f.error.code })),
  };
}

/** What a whole run did: its items, its counters and the kinds of its events. */
function comparable(result: RunResult, events: readonly RunEvent[]) {
  const { durationMs: _d, ...stats } = result.stats;
  return {
    ...ended(result),
    stats: { ...stats, byTerminal: { ...stats.byTerminal } },
    kinds: events.map((e) => e.type).sort(),
  };
}

async function inMemory(c: ReEntryCase) {
  const events: RunEvent[] = [];
  const dispatcher = createDispatcher({ nodes, policy, library, clock: virtualClock() });
  const result = await dispatcher.run(c.dag, {}, { items: c.items, onEvent: (e) => void events.push(e) });
  return comparable(result, events);
}

async function durable(c: ReEntryCase) {
  const store = await tempSqliteStore();
  try {
    const events: RunEvent[] = [];
    const dispatcher = createDispatcher({ nodes, policy, library, store, clock: virtualClock() });
    const result = await dispatcher.run(c.dag, {}, { items: c.items, onEvent: (e) => void events.push(e) });
    expect((await store.getRun(result.runId))?.status).toBe(result.status);
    return comparable(result, events);
  } finally {
    await store.close();
  }
}

async function distributed(c: ReEntryCase) {
  const prefix = scratchPrefix();
  const worker = await startWorker({ connection: TEST_REDIS, nodes, prefix, concurrency: 4 });
  const dispatcher = await createDistributedDispatcher({
    connection: TEST_REDIS,
    nodes,
    policy,
    prefix,
    library,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const events: RunEvent[] = [];
    const run = dispatcher.run(c.dag, {}, { items: c.items, onEvent: (e) => void events.push(e) });
    const hung = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`run ${run.id} did not end within ${HANG_BOUND_MS} ms: it hangs`)),
        HANG_BOUND_MS,
      );
    });
    const result = await Promise.race([run, hung]);
    return comparable(result, events);
  } finally {
    clearTimeout(timer);
    await dispatcher.close();
    await worker.close();
  }
}

describe('every entry of an embed or a scatter is its own, in every executor', () => {
  for (const c of RE_ENTRY_CASES) {
    it(`${c.name}: in process, durably and on a worker over Redis`, { timeout: 60_000 }, async () => {
      const expected = await inMemory(c);
      expect(expected.items.map((i) => ({ terminal: i.terminal, data: i.data }))).toEqual(c.expected);
      expect(await durable(c)).toEqual(expected);
      expect(await distributed(c)).toEqual(expected);
    });

    it(`${c.name}: a durable run that dies after any commit and is resumed ends the same`, {
      timeout: 60_000,
    }, async () => {
      const dispatcherFor = (
        process: { clock: ReturnType<typeof virtualClock> },
        store: Parameters<typeof createDispatcher>[0]['store'],
      ) => createDispatcher({ nodes, policy, library, clock: process.clock, ...(store ? { store } : {}) });
      const first = (runId: string) => ({ dag: c.dag, items: c.items, runId });
      const counted = freezingStore(createMemoryStore(), Number.POSITIVE_INFINITY);
      const base = await runThroughCrashes(counted.store, first('base'), [], dispatcherFor);
      let resumed = 0;
      for (let n = 1; n <= counted.commits; n++) {
        const run = await runThroughCrashes(
          createMemoryStore(),
          first(`c${n}`),
          [{ kind: 'freeze', commits: n }],
          dispatcherFor,
        );
        expect(ended(run.result), `dies after commit ${n}`).toEqual(ended(base.result));
        if (run.processes > 1) resumed++;
      }
      expect(resumed).toBeGreaterThan(0);
    });
  }
});
