import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { libraryOf } from '../../src/document/load.ts';
import type { GatherRequirement, Reducer } from '../../src/document/model.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { type ChildResult, reduceChildren } from '../../src/runtime/kinds/gather.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { loadDag, recorder, virtualClock } from './helpers.ts';

const search = defineNode({
  id: 'urn:switchyard:node:search',
  outputs: ['found', 'failed'],
  run: async (item, ctx) => {
    const query = item.data.item as string;
    await ctx.now();
    if (query.startsWith('bad')) throw new Error(`cannot search ${query}`);
    if (query.startsWith('none')) return 'failed';
    item.data.result = query.startsWith('same') ? 'same' : `hits for ${query}`;
    return 'found';
  },
});
const rank = defineNode({ id: 'urn:switchyard:node:rank', outputs: ['ranked'], run: () => 'ranked' });

describe('scatter and gather', () => {
  it('runs dags/scatter-gather.jsonld: children 1.0, 1.1, … and collect in input order', async () => {
    const rec = recorder();
    const result = await createDispatcher({ nodes: [search, rank], clock: virtualClock() }).run(
      await loadDag('scatter-gather'),
      { queries: ['a', 'bad', 'b'] },
      { onEvent: rec.onEvent },
    );
    expect(result.items).toMatchObject([{ terminal: 'done', data: { hits: ['hits for a', 'hits for b'] } }]);
    expect(
      rec
        .of('placement.start')
        .filter((e) => e.placement === 'search')
        .map((e) => e.item),
    ).toEqual(['1', '1.0', '1.1', '1.2']);
    expect(rec.of('placement.end').find((e) => e.item === '1.1')).toMatchObject({
      output: 'error',
      error: { message: 'cannot search bad' },
    });
  });

  it('leaves on failed when no child completes under require any', async () => {
    const result = await createDispatcher({ nodes: [search, rank], clock: virtualClock() }).run(
      await loadDag('scatter-gather'),
      { queries: ['bad1', 'none'] },
    );
    expect(result.items).toMatchObject([{ terminal: 'nothing', data: { hits: [] } }]);
  });

  it('takes the error route when the items pointer is not an array', async () => {
    const result = await createDispatcher({ nodes: [search, rank], clock: virtualClock() }).run(
      await loadDag('scatter-gather'),
      { queries: 'x' },
    );
    expect(result.failures).toMatchObject([{ placement: 'search', error: { code: 'E_INPUT' } }]);
  });

  const cases: [Reducer, GatherRequirement, number | undefined, string[], unknown, 'completed' | 'failed'][] =
    [
      [
        'partition',
        'all',
        undefined,
        ['a', 'bad', 'none'],
        { completed: ['hits for a'], failed: [{ index: 1 }, { index: 2 }] },
        'failed',
      ],
      [
        'partition',
        'all',
        undefined,
        ['a', 'b'],
        { completed: ['hits for a', 'hits for b'], failed: [] },
        'completed',
      ],
      ['quorum', 'quorum', 2, ['same1', 'a', 'same2'], 'same', 'completed'],
      ['quorum', 'quorum', 3, ['same1', 'a', 'same2'], 'same', 'failed'],
      ['collect', 'quorum', undefined, ['same1', 'same2', 'bad'], ['same', 'same'], 'completed'],
      ['collect', 'all', undefined, [], [], 'completed'],
    ];
  for (const [reducer, require, quorum, queries, value, outcome] of cases) {
    it(`${reducer} / require ${require}${quorum ? ` ${quorum}` : ''} over ${JSON.stringify(queries)}`, async () => {
      const d = dag('urn:test:fan', { name: 'fan', version: '1' })
        .entry('fan')
        .scatter('fan', { items: '/queries', node: 'urn:switchyard:node:search' })
        .route('done', 'join')
        .gather('join', { into: '/out/value', reducer, require, ...(quorum === undefined ? {} : { quorum }) })
        .route('completed', 'ok')
        .route('failed', 'ko')
        .terminal('ok', 'completed')
        .terminal('ko', 'failed')
        .build();
      const result = await createDispatcher({ nodes: [search], clock: virtualClock() }).run(d, { queries });
      expect(result.items[0]?.terminal).toBe(outcome === 'completed' ? 'ok' : 'ko');
      expect(result.items[0]?.data.out).toMatchObject({ value: value as object });
    });
  }

  it('first takes the child that completed first in time, not in input order', async () => {
    const sleepy = defineNode({
      id: 'urn:test:sleepy',
      outputs: ['ok'],
      run: async (item, ctx) => {
        await clock.sleep(item.data.item as number, ctx.signal);
        item.data.result = item.data.item;
        return 'ok';
      },
    });
    const clock = virtualClock();
    const d = dag('urn:test:first', { name: 'first', version: '1' })
      .entry('fan')
      .scatter('fan', { items: '/delays', node: 'urn:test:sleepy' })
      .route('done', 'join')
      .gather('join', { into: '/winner', reducer: 'first', require: 'any' })
      .route('completed', 'ok')
      .route('failed', 'ok')
      .terminal('ok', 'completed')
      .build();
    const result = await createDispatcher({ nodes: [sleepy], clock }).run(d, { delays: [300, 100, 200] });
    expect(result.items[0]?.data.winner).toBe(100);
    // The winner decides the gather: the slower children are cancelled rather than waited for.
    expect(clock.now()).toBe(100);
  });

  it('limits children in flight to the scatter placement concurrency', async () => {
    let inFlight = 0;
    let peak = 0;
    const clock = virtualClock();
    const body = defineNode({
      id: 'urn:test:body',
      outputs: ['ok'],
      run: async (_item, ctx) => {
        peak = Math.max(peak, ++inFlight);
        await clock.sleep(10, ctx.signal);
        inFlight--;
        return 'ok';
      },
    });
    const d = dag('urn:test:limit', { name: 'limit', version: '1' })
      .entry('fan')
      .scatter('fan', { items: '/xs', node: 'urn:test:body' })
      .route('done', 'join')
      .gather('join', { into: '/n', reducer: 'collect' })
      .route('completed', 'ok')
      .route('failed', 'ok')
      .terminal('ok', 'completed')
      .build();
    const policy = { placements: { fan: { concurrency: 3 } } };
    await createDispatcher({ nodes: [body], clock, policy }).run(d, {
      xs: Array.from({ length: 10 }, (_, i) => i),
    });
    expect(peak).toBe(3);
    expect(clock.now()).toBe(40);
  });

  it('runs each child through a sub-DAG with its own budgets', async () => {
    const child = dag('urn:test:child', { name: 'child', version: '1' })
      .budget('again', 1)
      .entry('work')
      .task('work', 'urn:test:work')
      .route('ok', 'done')
      .retry('again', 'work', { budget: 'again', exhausted: 'gave_up' })
      .terminal('done', 'completed')
      .terminal('gave_up', 'failed')
      .build();
    const work = defineNode({
      id: 'urn:test:work',
      outputs: ['ok', 'again'],
      run: (item, ctx) => {
        if (item.data.item === 'stubborn' || ctx.visit < 2) return 'again';
        item.data.result = `${String(item.data.item)}!`;
        return 'ok';
      },
    });
    const parent = dag('urn:test:parent', { name: 'parent', version: '1' })
      .entry('fan')
      .scatter('fan', { items: '/xs', dag: 'urn:test:child' })
      .route('done', 'join')
      .gather('join', { into: '/out', reducer: 'partition', require: 'any' })
      .route('completed', 'ok')
      .route('failed', 'ok')
      .terminal('ok', 'completed')
      .build();
    const rec = recorder();
    const result = await createDispatcher({
      nodes: [work],
      clock: virtualClock(),
      library: libraryOf([child]),
      policy: { defaults: { backoff: { baseMs: 1 } } },
    }).run(parent, { xs: ['a', 'stubborn', 'b'] }, { onEvent: rec.onEvent });
    expect(result.items[0]?.data.out).toEqual({
      completed: ['a!', 'b!'],
      failed: [{ index: 1, terminal: 'gave_up' }],
    });
    expect(
      rec
        .of('item.end')
        .filter((e) => e.dag === 'urn:test:child')
        .map((e) => e.item)
        .sort(),
    ).toEqual(['1.0', '1.1', '1.2']);
    expect(
      rec
        .of('retry.scheduled')
        .map((e) => e.item)
        .sort(),
    ).toEqual(['1.0', '1.1', '1.2']);
  });
});

describe('reduceChildren', () => {
  const child = (
    index: number,
    status: 'completed' | 'failed',
    value: unknown,
    order: number,
  ): ChildResult => ({ index, status, value, order });
  it('quorum ties go to the value seen first; object keys do not matter for equality', () => {
    const children = [
      child(0, 'completed', { a: 1, b: 2 }, 3),
      child(1, 'completed', 'x', 0),
      child(2, 'completed', { b: 2, a: 1 }, 1),
      child(3, 'completed', 'x', 2),
    ];
    expect(reduceChildren({ reducer: 'quorum', require: 'quorum', quorum: 2 }, children)).toEqual({
      output: 'completed',
      value: { a: 1, b: 2 },
    });
    expect(reduceChildren({ reducer: 'first', require: 'all' }, children)).toEqual({
      output: 'completed',
      value: 'x',
    });
  });
  it('a quorum tie goes to the value whose first child comes first in input order, in any settling order', () => {
    // A, B, B, A: two each; A's first child is child 0. The settling order and the order the children are
    // handed over in change nothing.
    const values = ['A', 'B', 'B', 'A'];
    for (const orders of [
      [0, 1, 2, 3],
      [3, 2, 1, 0],
      [1, 2, 0, 3],
    ]) {
      const children = values.map((v, i) => child(i, 'completed', v, orders[i] as number));
      for (const given of [children, [...children].reverse()]) {
        expect(reduceChildren({ reducer: 'quorum', require: 'quorum', quorum: 2 }, given)).toEqual({
          output: 'completed',
          value: 'A',
        });
      }
    }
    const withFailures = [
      child(0, 'failed', 'B', 0),
      child(1, 'completed', 'B', 1),
      child(2, 'completed', 'A', 2),
      child(3, 'completed', 'A', 3),
      child(4, 'completed', 'B', 4),
    ];
    expect(reduceChildren({ reducer: 'quorum', require: 'any' }, withFailures).value).toBe('B');
  });
  it('default quorum is a majority of all children', () => {
    const children = [
      child(0, 'completed', 1, 0),
      child(1, 'completed', 1, 1),
      child(2, 'failed', null, 2),
      child(3, 'failed', null, 3),
    ];
    expect(reduceChildren({ reducer: 'quorum', require: 'quorum' }, children).output).toBe('failed');
    expect(reduceChildren({ reducer: 'quorum', require: 'quorum' }, children.slice(0, 3)).output).toBe(
      'completed',
    );
  });
});
