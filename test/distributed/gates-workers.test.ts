/**
 * Gates shared by two workers (each its own Redis connections) carrying one run, on one virtual clock the
 * test moves by hand: a 429 with Retry-After an item gets on one worker pauses the items of both until the
 * reopening, with no budget spent by those that waited; the pace and the concurrency of a gate hold across
 * the workers, counted in the node. The dispatcher follows on the system clock. Real Redis; every key is
 * removed.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { readGateState } from '../../src/distributed/gate-scripts.ts';
import { gateKeys } from '../../src/distributed/keys.ts';
import { type DistributedWorker, startWorker } from '../../src/distributed/worker.ts';
import { dag } from '../../src/document/builder.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { createVirtualClock, type VirtualClock } from '../../src/policy/virtual-clock.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import { removeScratchKeys, scratchPrefix, TEST_REDIS } from '../store/redis-scratch.ts';
import { waitFor } from '../wait-for.ts';

const redis = new Redis(TEST_REDIS);
const redisOf = () => redis;

afterAll(async () => {
  await redis.quit();
  await removeScratchKeys();
});

/** The workers' wall time when the run starts. */
const WALL = 1_764_000_000_000;

const doc = dag('urn:test:gates-workers', { name: 'gates-workers', version: '1' })
  .budget('again', 3)
  .entry('prep')
  .task('prep', 'urn:gw:prep')
  .route('ok', 'call')
  .task('call', 'urn:gw:call')
  .route('ok', 'done')
  .retry('retry', 'call', { budget: 'again', exhausted: 'failed' })
  .route('error', 'failed')
  .terminal('done', 'completed')
  .terminal('failed', 'failed')
  .build();

interface Call {
  readonly item: string;
  readonly at: number;
  readonly worker: string;
}

/** What the nodes of a run do and saw: every call (item, wall time, worker), the most in `call` at once. */
interface Nodes {
  readonly nodes: NodeDefinition<string, never>[];
  readonly calls: Call[];
  /** Calls that returned. */
  finished: number;
  running: number;
  most: number;
}

/**
 * `prep` waits for `hold` (when given) before the item goes on; `call` records itself, works `workMs` on
 * the clock and throws what `fail` answers.
 */
function nodesOf(
  clock: VirtualClock,
  fail: (call: Call, n: number) => unknown,
  workMs: number,
  hold?: (item: string) => Promise<void>,
): Nodes {
  const seen: Nodes = { nodes: [], calls: [], finished: 0, running: 0, most: 0 };
  const prep = defineNode({
    id: 'urn:gw:prep',
    outputs: ['ok'],
    run: async (item) => {
      await hold?.(item.id);
      return 'ok';
    },
  });
  const call = defineNode({
    id: 'urn:gw:call',
    outputs: ['ok'],
    run: async (item, ctx) => {
      const at = clock.wallNow();
      const entry = { item: item.id, at, worker: (ctx.services as { name: string }).name };
      seen.calls.push(entry);
      seen.running++;
      seen.most = Math.max(seen.most, seen.running);
      try {
        if (workMs > 0) await clock.sleep(workMs);
        const error = fail(entry, seen.calls.length);
        if (error !== undefined) throw error;
        return 'ok';
      } finally {
        seen.running--;
        seen.finished++;
      }
    },
  });
  seen.nodes.push(prep as never, call as never);
  return seen;
}

/** Two workers of `slots` jobs each on one virtual clock, and a dispatcher, under a fresh prefix. */
async function cluster(
  clock: VirtualClock,
  nodes: NodeDefinition<string, never>[],
  slots: number,
  policy: PolicyInput,
) {
  const prefix = scratchPrefix();
  const workers: DistributedWorker[] = await Promise.all(
    ['A', 'B'].map((name) =>
      startWorker({ connection: TEST_REDIS, nodes, prefix, concurrency: slots, clock, services: { name } }),
    ),
  );
  const dispatcher = await createDistributedDispatcher({ connection: TEST_REDIS, nodes, policy, prefix });
  return {
    prefix,
    dispatcher,
    async close() {
      await dispatcher.close();
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}

const policyOf = (gate: Record<string, unknown>): PolicyInput =>
  ({
    defaults: { backoff: { strategy: 'constant', baseMs: 10 }, jitter: 'none' },
    gates: { api: { placements: ['call'], ...gate } },
  }) as PolicyInput;

const rateLimited = (retryAfterMs: number) =>
  Object.assign(new Error('429 Too Many Requests'), { status: 429, retryAfter: retryAfterMs });

/**
 * Moves the clock a millisecond at a time, each time once every item still in the run (`live`) sleeps on
 * it: at the gate, polling for a slot, or in the node. Time thus stands still while a worker talks to
 * Redis, and every wall time the node sees is the one its gate let it through at.
 */
function drive(clock: VirtualClock, live: () => number): { stop(): Promise<void> } {
  let stopped = false;
  const driving = (async () => {
    while (!stopped) {
      await waitFor(() => stopped || (live() > 0 && clock.pending() >= live()), {
        what: 'every item to sleep on the clock',
        everyMs: 2,
      });
      if (!stopped) await clock.advance(1);
      // A turn of the event loop for the workers' I/O between two steps.
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await driving;
    },
  };
}

describe('a gate shared by two workers', () => {
  it('pauses every item of both workers on a 429 one of them got, until the reopening, spending no budget', {
    timeout: 60_000,
  }, async () => {
    const clock = createVirtualClock({ wallStart: WALL });
    let prefix = '';
    // Items 2-6 reach the gate only once item 1's 429 closed it: each holds a job of its worker meanwhile,
    // so that both workers (4 jobs each) have items waiting.
    const closed = async () => {
      const keys = gateKeys(prefix, 'api');
      await waitFor(async () => (await readGateState(redisOf(), keys)).closedUntil > 0, {
        what: "item 1's 429 to close the gate",
        everyMs: 5,
      });
    };
    const seen = nodesOf(
      clock,
      (c, n) => (n === 1 && c.item === '1' ? rateLimited(300) : undefined),
      0,
      (item) => (item === '1' ? Promise.resolve() : closed()),
    );
    const c = await cluster(clock, seen.nodes, 4, policyOf({}));
    prefix = c.prefix;
    try {
      const events: RunEvent[] = [];
      const run = c.dispatcher.run(
        doc,
        {},
        {
          items: Array.from({ length: 6 }, () => ({})),
          onEvent: (e) => void events.push(e),
        },
      );
      // Items 2-6, and item 1's retry (a job due 300 ms later on the queue), sleep at the closed gate.
      await waitFor(() => clock.pending() === 6, {
        what: 'six items to wait at the closed gate',
        seen: () =>
          JSON.stringify({ pending: clock.pending(), calls: seen.calls, events: events.map((e) => e.type) }),
      });
      expect(seen.calls.map((x) => [x.item, x.at])).toEqual([['1', WALL]]);
      await clock.advance(300);
      const result = await run.result;
      expect(result.status).toBe('completed');
      const after = seen.calls.slice(1);
      expect(after.map((x) => x.item).sort()).toEqual(['1', '2', '3', '4', '5', '6']);
      // Nobody called before the reopening, and the items that waited went through on both workers.
      expect(after.every((x) => x.at === WALL + 300)).toBe(true);
      expect(new Set(after.filter((x) => x.item !== '1').map((x) => x.worker))).toEqual(new Set(['A', 'B']));
      expect(result.items.map((i) => [i.id, i.terminal, i.state.budgets.again ?? 0])).toEqual([
        ['1', 'done', 1],
        ['2', 'done', 0],
        ['3', 'done', 0],
        ['4', 'done', 0],
        ['5', 'done', 0],
        ['6', 'done', 0],
      ]);
      const gateEvents = events.filter((e) => e.type.startsWith('gate.'));
      expect(gateEvents.filter((e) => e.type === 'gate.closed')).toEqual([
        expect.objectContaining({
          gate: 'api',
          key: 'api',
          untilMs: WALL + 300,
          hintMs: 300,
          item: '1',
          reason: 'HTTP 429',
        }),
      ]);
      const waited = gateEvents.filter((e) => e.type === 'gate.wait');
      expect(waited.every((e) => e.why === 'closed' && e.untilMs === WALL + 300)).toBe(true);
      expect(new Set(waited.map((e) => e.item))).toEqual(new Set(['1', '2', '3', '4', '5', '6']));
      // Told once for the run, by whichever of its items went through first.
      expect(gateEvents.filter((e) => e.type === 'gate.opened')).toEqual([
        expect.objectContaining({ gate: 'api', key: 'api', closedMs: 300 }),
      ]);
    } finally {
      await c.close();
    }
  });

  it('paces starts across the workers exactly as one process does', { timeout: 60_000 }, async () => {
    const clock = createVirtualClock({ wallStart: WALL });
    const seen = nodesOf(clock, () => undefined, 0);
    const c = await cluster(clock, seen.nodes, 4, policyOf({ rate: { limit: 5, periodMs: 1000, burst: 2 } }));
    const driver = drive(clock, () => 8 - seen.finished);
    try {
      const run = c.dispatcher.run(doc, {}, { items: Array.from({ length: 8 }, () => ({})) });
      const result = await run.result;
      expect(result.status).toBe('completed');
      // 5 a second with a burst of 2: two at once, then one every 200 ms, whichever worker starts each.
      expect(seen.calls.map((x) => x.at - WALL).sort((a, b) => a - b)).toEqual([
        0, 0, 200, 400, 600, 800, 1000, 1200,
      ]);
      expect(new Set(seen.calls.map((x) => x.worker))).toEqual(new Set(['A', 'B']));
    } finally {
      await driver.stop();
      await c.close();
    }
  });

  it('never runs more under the gate at once than its concurrency, nor faster than its rate', {
    timeout: 60_000,
  }, async () => {
    const clock = createVirtualClock({ wallStart: WALL });
    const seen = nodesOf(clock, () => undefined, 250);
    const rate = { limit: 10, periodMs: 1000, burst: 2 };
    const c = await cluster(clock, seen.nodes, 4, policyOf({ concurrency: 2, rate }));
    const driver = drive(clock, () => 8 - seen.finished);
    try {
      const run = c.dispatcher.run(doc, {}, { items: Array.from({ length: 8 }, () => ({})) });
      const result = await run.result;
      expect(result.status).toBe('completed');
      expect(seen.most).toBe(2);
      const starts = seen.calls.map((x) => x.at).sort((a, b) => a - b);
      const interval = rate.periodMs / rate.limit;
      for (let i = 0; i < starts.length; i++) {
        for (let j = i; j < starts.length; j++) {
          const span = (starts[j] as number) - (starts[i] as number);
          expect(j - i + 1).toBeLessThanOrEqual(rate.burst + Math.floor(span / interval + 1e-9));
        }
      }
      expect(new Set(seen.calls.map((x) => x.worker))).toEqual(new Set(['A', 'B']));
    } finally {
      await driver.stop();
      await c.close();
    }
  });
});
