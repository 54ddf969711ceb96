/**
 * Distributed runs against a real Redis (127.0.0.1:6379, or SWITCHYARD_TEST_REDIS): the compose/validate
 * and scatter/gather documents give the same terminals, data, budgets, retries, Retry-After waits and
 * counters over BullMQ with one and with two workers as in one process with createDispatcher. Real time
 * with a short policy without jitter, so that the waits are the same on both sides; every key is removed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { nodes as composeNodes } from '../../examples/compose-validate/nodes.ts';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { startWorker } from '../../src/distributed/worker.ts';
import { dag as build } from '../../src/document/builder.ts';
import { libraryOf } from '../../src/document/load.ts';
import type { Dag, DagLibrary } from '../../src/document/model.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import type { RunResult } from '../../src/runtime/run.ts';
import { loadDag } from '../runtime/helpers.ts';
import { removeScratchKeys, scratchPrefix, TEST_REDIS } from '../store/redis-scratch.ts';

afterAll(removeScratchKeys);

const policy: PolicyInput = {
  defaults: {
    // Far above any node here, which all answer at once: a loaded machine must not turn one into a timeout.
    deadlineMs: 60_000,
    backoff: { strategy: 'exponential', baseMs: 20, factor: 2, capMs: 60 },
    jitter: 'none',
    retryAfter: { honour: true, capMs: 90 },
  },
};

const search = defineNode({
  id: 'urn:switchyard:node:search',
  outputs: ['found', 'failed'],
  run: async (item) => {
    const query = item.data.item as string;
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (query.startsWith('bad')) throw new Error(`cannot search ${query}`);
    if (query.startsWith('none')) return 'failed';
    item.data.result = `hits for ${query}`;
    return 'found';
  },
});
const rank = defineNode({ id: 'urn:switchyard:node:rank', outputs: ['ranked'], run: () => 'ranked' });

/** What must be the same: everything but times, run ids and sequence numbers. */
function comparable(result: RunResult, events: RunEvent[]) {
  const waits = events
    .filter((e) => e.type === 'retry.scheduled')
    .map((e) => ({
      item: e.item,
      from: e.from,
      budget: e.budget,
      attempt: e.attempt,
      delayMs: e.delayMs,
      source: e.delaySource,
    }))
    .sort((a, b) => `${a.item}/${a.attempt}/${a.budget}`.localeCompare(`${b.item}/${b.attempt}/${b.budget}`));
  const { durationMs: _d, ...stats } = result.stats;
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
    })),
    failures: result.failures.map((f) => ({
      id: f.id,
      placement: f.placement,
      code: f.error.code,
      message: f.error.message,
    })),
    stats: { ...stats, byTerminal: { ...stats.byTerminal } },
    waits,
    kinds: events.map((e) => e.type).sort(),
  };
}

async function local(
  dag: Dag,
  nodes: readonly NodeDefinition<string, never>[],
  items: Record<string, unknown>[],
  library?: DagLibrary,
) {
  const events: RunEvent[] = [];
  const result = await createDispatcher({ nodes, policy, ...(library ? { library } : {}) }).run(
    dag,
    {},
    { items, onEvent: (e) => void events.push(e) },
  );
  return comparable(result, events);
}

async function distributed(
  dag: Dag,
  nodes: readonly NodeDefinition<string, never>[],
  items: Record<string, unknown>[],
  workers: number,
  library?: DagLibrary,
) {
  const prefix = scratchPrefix();
  const started = await Promise.all(
    Array.from({ length: workers }, () =>
      startWorker({ connection: TEST_REDIS, nodes, prefix, concurrency: 4 }),
    ),
  );
  const dispatcher = await createDistributedDispatcher({
    connection: TEST_REDIS,
    nodes,
    policy,
    prefix,
    ...(library ? { library } : {}),
  });
  try {
    const events: RunEvent[] = [];
    const run = dispatcher.run(dag, {}, { items, onEvent: (e) => void events.push(e) });
    const result = await run;
    expect(result.runId).toBe(run.id);
    expect(events.every((e) => e.runId === run.id)).toBe(true);
    expect(events.map((e) => e.seq)).toEqual(events.map((_e, i) => i));
    return comparable(result, events);
  } finally {
    await dispatcher.close();
    await Promise.all(started.map((w) => w.close()));
  }
}

const composeItems = [
  { topic: 'whales' },
  { topic: 'owls', rejections: 2 },
  { topic: 'bats', rejections: 9 },
  { topic: 'moths', fail: '429' },
  { topic: 'eels', fail: '503' },
  { topic: 'crabs', fail: 'reset' },
  { topic: 'newts', fail: '400' },
];

describe('distributed runs over BullMQ give what one process gives', () => {
  for (const workers of [1, 2]) {
    it(`compose/validate with ${workers} worker(s): terminals, budgets, retries and Retry-After waits`, {
      timeout: 30_000,
    }, async () => {
      const dag = await loadDag('compose-validate');
      const nodes = composeNodes as unknown as NodeDefinition<string, never>[];
      const expected = await local(dag, nodes, composeItems);
      // The document really retries, salvages, honours Retry-After and fails an item.
      expect(expected.waits.some((w) => w.source === 'retry-after')).toBe(true);
      expect(expected.stats.retries).toBeGreaterThan(3);
      expect(expected.stats.salvages).toBeGreaterThan(0);
      expect(expected.waits.some((w) => w.source === 'backoff')).toBe(true);
      expect(await distributed(dag, nodes, composeItems, workers)).toEqual(expected);
    });

    it(`scatter/gather with ${workers} worker(s): every child's result reaches the gather`, {
      timeout: 30_000,
    }, async () => {
      const dag = await loadDag('scatter-gather');
      const nodes = [search, rank] as unknown as NodeDefinition<string, never>[];
      const items = [
        { queries: ['a', 'bad', 'b'] },
        { queries: ['bad1', 'none'] },
        { queries: 'x' },
        { queries: ['c'] },
      ];
      const expected = await local(dag, nodes, items);
      expect(expected.items.map((i) => i.terminal)).toEqual(['done', 'nothing', 'done']);
      expect(await distributed(dag, nodes, items, workers)).toEqual(expected);
    });

    it(`a scatter over a sub-DAG with retries and Retry-After waits, ${workers} worker(s)`, {
      timeout: 30_000,
    }, async () => {
      const child = build('urn:test:child', { name: 'child', version: '1' })
        .budget('again', 2)
        .entry('work')
        .task('work', 'urn:test:work')
        .route('ok', 'done')
        .retry('again', 'work', { budget: 'again', exhausted: 'gave_up' })
        .terminal('done', 'completed')
        .terminal('gave_up', 'failed')
        .build();
      const parent = build('urn:test:parent', { name: 'parent', version: '1' })
        .entry('fan')
        .scatter('fan', { items: '/xs', dag: 'urn:test:child' })
        .route('done', 'join')
        .gather('join', { into: '/out', reducer: 'partition', require: 'any' })
        .route('completed', 'ok')
        .route('failed', 'ko')
        .terminal('ok', 'completed')
        .terminal('ko', 'failed')
        .build();
      const work = defineNode({
        id: 'urn:test:work',
        outputs: ['ok', 'again'],
        run: (item, ctx) => {
          const name = String(item.data.item);
          if (name === 'stubborn') return 'again';
          if (name === 'limited' && ctx.visit === 1) return { output: 'again', retryAfter: 40 };
          if (ctx.visit < 2) return 'again';
          item.data.result = `${name}!`;
          return 'ok';
        },
      });
      const nodes = [work] as unknown as NodeDefinition<string, never>[];
      const library = libraryOf([child]);
      const items = [{ xs: ['a', 'stubborn', 'limited'] }, { xs: ['stubborn'] }, { xs: [] }];
      const expected = await local(parent, nodes, items, library);
      expect(expected.waits.some((w) => w.source === 'retry-after')).toBe(true);
      expect(expected.items.map((i) => i.terminal)).toEqual(['ok', 'ko', 'ko']);
      expect(await distributed(parent, nodes, items, workers, library)).toEqual(expected);
    });

    it(`an embedded document with retry waits inside it, ${workers} worker(s)`, {
      timeout: 30_000,
    }, async () => {
      const library = libraryOf([inner]);
      const nodes = [prepare, greet] as unknown as NodeDefinition<string, never>[];
      const items = [{ name: 'ann' }, { name: 'limited' }, { name: 'stubborn' }, { name: 'explode' }, {}];
      const expected = await local(outer, nodes, items, library);
      expect(expected.waits.some((w) => w.source === 'retry-after' && w.item === '2/inner')).toBe(true);
      expect(expected.items.map((i) => i.terminal)).toEqual(['done', 'done', 'ko', 'broken', 'done']);
      expect(await distributed(outer, nodes, items, workers, library)).toEqual(expected);
    });
  }
});

/** The embedded document: a retry loop whose waits are delayed jobs of the embedded item. */
const inner = build('urn:test:inner', { name: 'inner', version: '1' })
  .budget('again', 2)
  .entry('greet')
  .task('greet', 'urn:test:greet')
  .route('ok', 'done')
  .retry('again', 'greet', { budget: 'again', exhausted: 'gave_up' })
  .terminal('done', 'completed')
  .terminal('gave_up', 'failed')
  .build();

/** Embeds `inner`, retried once when it fails; an embedded item that throws takes the `error` route. */
const outer = build('urn:test:outer', { name: 'outer', version: '1' })
  .budget('inner', 1)
  .entry('prepare')
  .task('prepare', 'urn:test:prepare')
  .route('ok', 'inner')
  .embed('inner', 'urn:test:inner', {
    input: [{ from: '/name', to: '/name' }],
    result: [{ from: '/greeting', to: '/greeting' }],
  })
  .route('completed', 'done')
  .retry('failed', 'inner', { budget: 'inner', exhausted: 'ko' })
  .route('error', 'broken')
  .terminal('done', 'completed')
  .terminal('ko', 'failed')
  .terminal('broken', 'failed')
  .build();

const prepare = defineNode({
  id: 'urn:test:prepare',
  outputs: ['ok'],
  run: (item) => {
    item.data.prepared = true;
    return 'ok';
  },
});

const greet = defineNode({
  id: 'urn:test:greet',
  outputs: ['ok', 'again'],
  run: async (item, ctx) => {
    const name = String(item.data.name ?? 'nobody');
    const told = await ctx.step('tell', () => `told ${name}`);
    if (name === 'explode') throw new Error(`cannot greet ${name}`);
    if (name === 'stubborn') return 'again';
    if (name === 'limited' && ctx.visit === 1) return { output: 'again', retryAfter: 40 };
    if (ctx.visit < 2) return 'again';
    item.data.greeting = `hello ${name}, ${told}`;
    return 'ok';
  },
});
