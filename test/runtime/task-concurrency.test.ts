/**
 * A placement's concurrency bounds the items executing it across the whole run, with or without a store,
 * whether the items are input items, an embed's children or a scatter's; a run that can never have more
 * items at a placement than its limit (its documents never fan out, and it has no more input items) runs
 * them all at once and keeps no limiter for it.
 */
import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { libraryOf } from '../../src/document/load.ts';
import { compile } from '../../src/graph/compile.ts';
import { resolvePolicy } from '../../src/policy/resolve.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { createRegistry, defineNode } from '../../src/runtime/node.ts';
import { prepare, reachOf } from '../../src/runtime/prepare.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { virtualClock } from './helpers.ts';

/** A node that answers after a few turns of the event loop, counting the calls in flight at once. */
function countingNode(id: string) {
  const seen = { now: 0, most: 0, calls: 0 };
  const node = defineNode({
    id,
    outputs: ['ok'],
    run: async () => {
      seen.calls++;
      seen.most = Math.max(seen.most, ++seen.now);
      for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
      seen.now--;
      return 'ok';
    },
  });
  return { node, seen };
}

/** A document of one task, `work`, running the counting node. */
const oneTask = (iri: string) =>
  dag(iri, { name: 'one task', version: '1' })
    .entry('work')
    .task('work', 'urn:test:limit:work')
    .route('ok', 'done')
    .terminal('done', 'completed')
    .build();

const flat = oneTask('urn:test:limit:flat');
const inner = oneTask('urn:test:limit:inner');

const embedding = dag('urn:test:limit:outer', { name: 'outer', version: '1' })
  .entry('inner')
  .embed('inner', 'urn:test:limit:inner')
  .route('completed', 'done')
  .route('failed', 'done')
  .terminal('done', 'completed')
  .build();

const scattering = dag('urn:test:limit:fan', { name: 'fan', version: '1' })
  .entry('fan')
  .scatter('fan', { items: '/xs', dag: 'urn:test:limit:inner' })
  .route('done', 'join')
  .gather('join', { into: '/out', reducer: 'collect' })
  .route('completed', 'done')
  .route('failed', 'done')
  .terminal('done', 'completed')
  .build();

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ i, xs: [1, 2, 3, 4] }));

const STORES = [
  ['without a store', () => undefined],
  ['with a store', () => createMemoryStore()],
] as const;

describe.each(STORES)('a task placement’s concurrency (%s)', (_name, store) => {
  const run = async (doc: typeof flat, concurrency: number | undefined, n: number) => {
    const { node, seen } = countingNode('urn:test:limit:work');
    const policy = concurrency === undefined ? {} : { placements: { work: { concurrency } } };
    const opened = store();
    const result = await createDispatcher({
      nodes: [node],
      clock: virtualClock(),
      library: libraryOf([inner]),
      policy,
      ...(opened === undefined ? {} : { store: opened }),
    }).run(doc, {}, { items: items(n) });
    expect(result.status).toBe('completed');
    return seen;
  };

  it('holds input items beyond the limit back, and lets as many as the limit run at once', async () => {
    expect(await run(flat, 2, 5)).toMatchObject({ most: 2, calls: 5 });
    expect(await run(flat, 5, 5)).toMatchObject({ most: 5, calls: 5 });
    expect(await run(flat, 8, 5)).toMatchObject({ most: 5, calls: 5 });
  });

  it('counts the embedded children of every input item together', async () => {
    expect(await run(embedding, 2, 5)).toMatchObject({ most: 2, calls: 5 });
    expect(await run(embedding, 5, 5)).toMatchObject({ most: 5, calls: 5 });
  });

  it('counts a scatter’s children, more than the run has input items', async () => {
    expect(await run(scattering, 3, 2)).toMatchObject({ most: 3, calls: 8 });
    expect(await run(scattering, 6, 2)).toMatchObject({ most: 6, calls: 8 });
    // The built-in default concurrency (16) holds back the children of 5 items of 4 each.
    expect(await run(scattering, undefined, 5)).toMatchObject({ most: 16, calls: 20 });
  });
});

describe('what a prepared document knows of its limits', () => {
  it('keeps the limit of each placement, none for a batch node (its maxBatch is its limit)', () => {
    const batch = defineNode({
      id: 'urn:test:limit:batch',
      outputs: ['ok'],
      batch: async (list) => list.map(() => 'ok'),
    });
    const work = defineNode({ id: 'urn:test:limit:work', outputs: ['ok'], run: () => 'ok' });
    const doc = dag('urn:test:limit:kinds', { name: 'kinds', version: '1' })
      .entry('work')
      .task('work', 'urn:test:limit:work')
      .route('ok', 'many')
      .task('many', 'urn:test:limit:batch')
      .route('ok', 'free')
      .task('free', 'urn:test:limit:work')
      .route('ok', 'done')
      .terminal('done', 'completed')
      .build();
    const policy = resolvePolicy({
      placements: { work: { concurrency: 3 }, many: { concurrency: 2 } },
    });
    const prep = prepare(compile(doc), policy, createRegistry([batch, work]));
    const limitOf = (key: string) => prep.limits[prep.compiled.byKey.get(key)?.index ?? -1];
    expect([limitOf('work'), limitOf('many'), limitOf('free'), limitOf('done')]).toEqual([
      3,
      undefined,
      16,
      16,
    ]);
  });

  it('knows whether a run of it may fan out or park, through the documents it reaches', () => {
    expect(reachOf([flat])).toEqual({ awaits: false, fans: false });
    expect(reachOf([embedding, inner])).toEqual({ awaits: false, fans: false });
    expect(reachOf([scattering, inner])).toEqual({ awaits: false, fans: true });
    expect(reachOf([embedding, scattering])).toEqual({ awaits: false, fans: true });
  });
});
