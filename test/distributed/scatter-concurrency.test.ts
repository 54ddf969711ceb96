/**
 * A scatter's concurrency written in the policy bounds its children in flight across workers, as it bounds
 * them in one process: two workers with four slots each never have more children of the scatter running
 * than the limit, for a node body (a child runs while its node does) and for a sub-DAG body (a child runs
 * from its first job until it ends, a Retry-After wait between included). Children meet at a rendezvous:
 * each waits until as many are in flight at once as the run allows, however slow the machine, then lingers
 * a moment for one more, which only a broken limit lets in. Real Redis; every key is removed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { libraryOf } from '../../src/document/load.ts';
import type { Dag, DagLibrary } from '../../src/document/model.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import { removeScratchKeys } from '../store/redis-scratch.ts';
import { type Meeting, Rendezvous } from './fixtures/rendezvous.ts';
import { scratchCluster } from './fixtures/scratch-cluster.ts';

afterAll(removeScratchKeys);

/** Children in flight: now, the most at once, and where they meet. */
const flight = new Rendezvous();
/** A scatter limited to two children in flight: two must meet, a third is lingered for. */
const LIMITED: Meeting = { reach: 2, goal: 3 };
/** A scatter without a written limit: the workers' eight slots let three meet. */
const FREE: Meeting = { reach: 3, goal: 3 };

/** A node body: the child is in flight while it runs. */
const body = defineNode({
  id: 'urn:test:sc:body',
  outputs: ['ok'],
  run: async (item) => {
    flight.enter();
    await flight.meet();
    flight.leave();
    item.data.result = Number(item.data.item) * 2;
    return 'ok';
  },
});

/** A sub-DAG body: the child is in flight from `start` (whose first visit waits out a Retry-After) to `finish`. */
const start = defineNode({
  id: 'urn:test:sc:start',
  outputs: ['ok', 'later'],
  run: (_item, ctx) => {
    if (ctx.visit > 1) return 'ok';
    flight.enter();
    return { output: 'later', retryAfter: 20 };
  },
});
const finish = defineNode({
  id: 'urn:test:sc:finish',
  outputs: ['ok'],
  run: async (item) => {
    await flight.meet();
    flight.leave();
    item.data.result = Number(item.data.item) * 2;
    return 'ok';
  },
});
const nodes = [body, start, finish] as unknown as NodeDefinition<string, never>[];

const child = dag('urn:test:sc:child', { name: 'child', version: '1' })
  .budget('later', 2)
  .entry('start')
  .task('start', 'urn:test:sc:start')
  .route('ok', 'finish')
  .retry('later', 'start', { budget: 'later', exhausted: 'gave_up' })
  .task('finish', 'urn:test:sc:finish')
  .route('ok', 'done')
  .terminal('done', 'completed')
  .terminal('gave_up', 'failed')
  .build();

function fanned(over: { node: string } | { dag: string }): Dag {
  return dag('urn:test:sc:parent', { name: 'parent', version: '1' })
    .entry('fan')
    .scatter('fan', { items: '/xs', ...over })
    .route('done', 'join')
    .gather('join', { into: '/out', reducer: 'collect' })
    .route('completed', 'ok')
    .terminal('ok', 'completed')
    .build();
}

async function run(doc: Dag, policy: PolicyInput, meeting: Meeting, library?: DagLibrary) {
  const lab = await scratchCluster({ nodes, policy, ...(library === undefined ? {} : { library }) });
  flight.reset(meeting);
  try {
    await lab.start();
    await lab.start();
    const items = [{ xs: [1, 2, 3, 4, 5] }, { xs: [6, 7, 8, 9] }];
    const result = await lab.dispatcher.run(doc, {}, { items });
    const out = result.items.map((i) => i.data.out);
    return { status: result.status, out, most: flight.most };
  } finally {
    await lab.close();
  }
}

const doubled = [
  [2, 4, 6, 8, 10],
  [12, 14, 16, 18],
];

describe('a scatter concurrency limit across workers', () => {
  it('bounds the children of a node body in flight', { timeout: 60_000 }, async () => {
    const limited = await run(
      fanned({ node: 'urn:test:sc:body' }),
      { placements: { fan: { concurrency: 2 } } },
      LIMITED,
    );
    expect(limited).toEqual({ status: 'completed', out: doubled, most: 2 });
    // Without a written limit the workers' eight slots are the bound.
    const free = await run(fanned({ node: 'urn:test:sc:body' }), {}, FREE);
    expect(free.most).toBeGreaterThan(2);
    expect(free.out).toEqual(doubled);
  });

  it('bounds the children of a sub-DAG body in flight, waits included', { timeout: 60_000 }, async () => {
    const library = libraryOf([child]);
    const doc = fanned({ dag: 'urn:test:sc:child' });
    const limit = { placements: { 'urn:test:sc:parent#fan': { concurrency: 2 } } };
    const limited = await run(doc, limit, LIMITED, library);
    expect(limited).toEqual({ status: 'completed', out: doubled, most: 2 });
    const free = await run(doc, {}, FREE, library);
    expect(free.most).toBeGreaterThan(2);
    expect(free.out).toEqual(doubled);
  });
});
