/**
 * An embedded document runs as a child job of its parent item: a retry wait inside it is a delayed job
 * that holds no worker, and embeds nested in embeds and in scattered documents give what one process
 * gives, journals and replayed steps included. Real Redis; every key is removed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { startWorker } from '../../src/distributed/worker.ts';
import { dag } from '../../src/document/builder.ts';
import { libraryOf } from '../../src/document/load.ts';
import type { Dag, DagLibrary } from '../../src/document/model.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import type { RunResult } from '../../src/runtime/run.ts';
import { removeScratchKeys, scratchPrefix, TEST_REDIS } from '../store/redis-scratch.ts';

afterAll(removeScratchKeys);

const policy: PolicyInput = {
  defaults: { backoff: { strategy: 'constant', baseMs: 10, capMs: 10 }, jitter: 'none' },
};

/** Side effects of the `tell` step, by idempotency key, across the local and the distributed runs. */
const told: string[] = [];

const greet = defineNode({
  id: 'urn:test:greet',
  outputs: ['ok', 'again'],
  run: async (item, ctx) => {
    const name = String(item.data.name ?? 'nobody');
    const said = await ctx.step('tell', ({ idempotencyKey }) => {
      told.push(idempotencyKey.slice(idempotencyKey.indexOf('/')));
      return `told ${name}`;
    });
    if (name === 'slow' && ctx.visit === 1) return { output: 'again', retryAfter: 300 };
    if (name === 'stubborn') return 'again';
    item.data.greeting = `hello ${name}, ${said}`;
    return 'ok';
  },
});

const inner = dag('urn:test:inner', { name: 'inner', version: '1' })
  .budget('again', 1)
  .entry('greet')
  .task('greet', 'urn:test:greet')
  .route('ok', 'done')
  .retry('again', 'greet', { budget: 'again', exhausted: 'gave_up' })
  .terminal('done', 'completed')
  .terminal('gave_up', 'failed')
  .build();

/** Embeds `inner`, and enters it again once when it fails. */
const middle = dag('urn:test:middle', { name: 'middle', version: '1' })
  .budget('twice', 1)
  .entry('inner')
  .embed('inner', 'urn:test:inner', {
    input: [{ from: '/item', to: '/name' }],
    result: [{ from: '/greeting', to: '/result' }],
  })
  .route('completed', 'done')
  .retry('failed', 'inner', { budget: 'twice', exhausted: 'gave_up' })
  .terminal('done', 'completed')
  .terminal('gave_up', 'failed')
  .build();

/** Embeds `middle` (which embeds `inner`) for `/name`, then scatters `middle` over `/names`. */
const outer = dag('urn:test:outer', { name: 'outer', version: '1' })
  .entry('one')
  .embed('one', 'urn:test:middle', {
    input: [{ from: '/name', to: '/item' }],
    result: [{ from: '/result', to: '/one' }],
  })
  .route('completed', 'fan')
  .route('failed', 'fan')
  .scatter('fan', { items: '/names', dag: 'urn:test:middle' })
  .route('done', 'join')
  .gather('join', { into: '/many', reducer: 'partition', require: 'any' })
  .route('completed', 'done')
  .route('failed', 'none')
  .terminal('done', 'completed')
  .terminal('none', 'failed')
  .build();

const library = libraryOf([inner, middle]);
const nodes = [greet] as unknown as NodeDefinition<string, never>[];

/** Everything but times and run ids. */
function comparable(result: RunResult) {
  const { durationMs: _d, ...stats } = result.stats;
  return {
    status: result.status,
    items: result.items.map((i) => ({
      id: i.id,
      terminal: i.terminal,
      data: i.data,
      budgets: { ...i.state.budgets },
      visits: { ...i.state.visits },
      trail: i.state.trail,
      journal: { ...i.state.journal },
    })),
    failures: result.failures,
    stats: { ...stats, byTerminal: { ...stats.byTerminal } },
  };
}

async function distributed(doc: Dag, items: Record<string, unknown>[], lib: DagLibrary, concurrency: number) {
  const prefix = scratchPrefix();
  const worker = await startWorker({ connection: TEST_REDIS, nodes, prefix, concurrency });
  const dispatcher = await createDistributedDispatcher({
    connection: TEST_REDIS,
    nodes,
    policy,
    prefix,
    library: lib,
  });
  const ends: string[] = [];
  try {
    const result = await dispatcher.run(
      doc,
      {},
      {
        items,
        onEvent: (event) => {
          if (event.type === 'item.end' && /^\d+$/.test(event.item)) ends.push(event.item);
        },
      },
    );
    return { result, ends };
  } finally {
    await dispatcher.close();
    await worker.close();
  }
}

describe('an embedded document as child jobs', () => {
  it('waits as a delayed job: a worker with one slot carries another item meanwhile', {
    timeout: 30_000,
  }, async () => {
    const doc = dag('urn:test:single', { name: 'single', version: '1' })
      .entry('inner')
      .embed('inner', 'urn:test:inner', { input: [{ from: '/name', to: '/name' }] })
      .route('completed', 'done')
      .route('failed', 'done')
      .terminal('done', 'completed')
      .build();
    const { result, ends } = await distributed(doc, [{ name: 'slow' }, { name: 'quick' }], library, 1);
    expect(result.items.map((i) => i.terminal)).toEqual(['done', 'done']);
    // Item 1 waits 300 ms inside the embedded document; item 2 ends meanwhile on the only slot.
    expect(ends).toEqual(['2', '1']);
  });

  it('nested in embeds and scattered documents gives what one process gives, journals included', {
    timeout: 30_000,
  }, async () => {
    const items = [
      { name: 'ann', names: ['bob', 'stubborn'] },
      { name: 'stubborn', names: [] },
      { name: 'slow', names: ['slow', 'cy'] },
    ];
    told.length = 0;
    const expected = comparable(await createDispatcher({ nodes, policy, library }).run(outer, {}, { items }));
    const steps = [...told].sort();
    told.length = 0;
    const { result } = await distributed(outer, items, library, 4);
    expect(comparable(result)).toEqual(expected);
    // Each recorded step ran once per embed execution, and was replayed when `middle` entered `inner` again.
    expect([...told].sort()).toEqual(steps);
    expect(expected.items[1]?.journal).toHaveProperty(['one/inner/tell']);
  });
});
