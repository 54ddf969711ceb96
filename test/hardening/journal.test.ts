import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { libraryOf } from '../../src/document/load.ts';
import type { Dag } from '../../src/document/model.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { createItemState, restoreItemState } from '../../src/runtime/item-state.ts';
import { journalStep, readFormatOneKeys } from '../../src/runtime/journal.ts';
import { elementTag } from '../../src/runtime/journal-key.ts';
import { defineNode, type NodeContext } from '../../src/runtime/node.ts';
import { virtualClock } from '../runtime/helpers.ts';

/** The child document: one task whose node charges once through `ctx.step('charge')`. */
const child = dag('urn:test:charge-child', { name: 'charge child', version: '1' })
  .entry('charge')
  .task('charge', 'urn:test:charge')
  .route('ok', 'done')
  .terminal('done', 'completed')
  .build();

/**
 * A parent running `inner` (an embed of the child, or a scatter over `/xs` through the child), then `check`,
 * whose `again` output retries back to `inner` (budget `outer`, max 2) and re-enters it.
 */
function parentDag(kind: 'embed' | 'scatter'): Dag {
  const d = dag(`urn:test:journal-${kind}`, { name: kind, version: '1' }).budget('outer', 2).entry('inner');
  if (kind === 'embed') {
    d.embed('inner', 'urn:test:charge-child', { result: [{ from: '/receipt', to: '/receipt' }] }).route(
      'completed',
      'check',
    );
    d.route('failed', 'lost');
  } else {
    d.scatter('inner', { items: '/xs', dag: 'urn:test:charge-child' })
      .route('done', 'join')
      .gather('join', { into: '/receipts', reducer: 'collect' })
      .route('completed', 'check')
      .route('failed', 'lost');
  }
  return d
    .task('check', 'urn:test:check')
    .route('ok', 'done')
    .retry('again', 'inner', { budget: 'outer', exhausted: 'lost' })
    .terminal('done', 'completed')
    .terminal('lost', 'failed')
    .build();
}

/** Nodes: `charge` counts its side effects; `check` asks for `again` until the outer budget is spent. */
function nodes() {
  const charged: string[] = [];
  return {
    charged,
    list: [
      defineNode({
        id: 'urn:test:charge',
        outputs: ['ok'],
        run: async (item, ctx) => {
          const receipt = await ctx.step('charge', () => {
            charged.push(item.id);
            return `r-${charged.length}`;
          });
          item.data.receipt = receipt;
          item.data.result = receipt;
          return 'ok';
        },
      }),
      defineNode({
        id: 'urn:test:check',
        outputs: ['ok', 'again'],
        run: (_item, ctx) => (ctx.attempts('outer') < 2 ? 'again' : 'ok'),
      }),
    ],
  };
}

describe('the journal reaches into embeds and scatter children', () => {
  it('a step inside an embedded document is not run again when the parent retries into the embed', async () => {
    const n = nodes();
    const result = await createDispatcher({
      nodes: n.list,
      library: libraryOf([child]),
      clock: virtualClock(),
    }).run(parentDag('embed'), {});
    expect(result.items).toMatchObject([{ terminal: 'done', data: { receipt: 'r-1' } }]);
    expect(result.items[0]?.state.visits.inner).toBe(3);
    expect(n.charged).toEqual(['1/inner']);
    expect(Object.keys(result.items[0]?.state.journal ?? {})).toEqual(['inner/charge']);
  });

  it('a step inside a scatter child is not run again when the parent re-enters the scatter over the same list', async () => {
    const n = nodes();
    const result = await createDispatcher({
      nodes: n.list,
      library: libraryOf([child]),
      clock: virtualClock(),
    }).run(parentDag('scatter'), { xs: ['a', 'b', 'c'] });
    expect(result.items[0]?.terminal).toBe('done');
    expect(result.items[0]?.state.visits.inner).toBe(3);
    expect([...n.charged].sort()).toEqual(['1.0', '1.1', '1.2']);
    expect(result.items[0]?.data.receipts).toEqual(['r-1', 'r-2', 'r-3']);
    expect(Object.keys(result.items[0]?.state.journal ?? {}).sort()).toEqual([
      `inner[0:${elementTag('a')}]/charge`,
      `inner[1:${elementTag('b')}]/charge`,
      `inner[2:${elementTag('c')}]/charge`,
    ]);
  });

  it('a parent that re-enters a scatter over another list runs each child for its own element', async () => {
    // Visit 1 over [a, b, c], visit 2 over [a, x], visit 3 over [y, x]: a child replays only the steps of
    // the same element at the same position (a at 0 on visit 2, x at 1 on visit 3).
    const n = nodes();
    const lists = [
      ['a', 'x'],
      ['y', 'x'],
    ];
    const check = defineNode({
      id: 'urn:test:check',
      outputs: ['ok', 'again'],
      run: (item, ctx) => {
        const next = lists[ctx.attempts('outer')];
        if (next === undefined) return 'ok';
        item.data.xs = next;
        return 'again';
      },
    });
    const list = [n.list[0] as (typeof n.list)[number], check];
    const result = await createDispatcher({
      nodes: list,
      library: libraryOf([child]),
      clock: virtualClock(),
    }).run(parentDag('scatter'), { xs: ['a', 'b', 'c'] });
    expect(result.items[0]?.terminal).toBe('done');
    expect(result.items[0]?.state.visits.inner).toBe(3);
    // 1.0 charged for a, then y; 1.1 for b, then x (replayed on visit 3); 1.2 for c.
    expect(n.charged).toEqual(['1.0', '1.1', '1.2', '1.1', '1.0']);
    expect(result.items[0]?.data.receipts).toEqual(['r-5', 'r-4']);
  });

  it('a reordered list runs the moved children again: a child is its position and its element', async () => {
    const n = nodes();
    const check = defineNode({
      id: 'urn:test:check',
      outputs: ['ok', 'again'],
      run: (item, ctx) => {
        if (ctx.attempts('outer') > 0) return 'ok';
        item.data.xs = ['b', 'a'];
        return 'again';
      },
    });
    const list = [n.list[0] as (typeof n.list)[number], check];
    const result = await createDispatcher({
      nodes: list,
      library: libraryOf([child]),
      clock: virtualClock(),
    }).run(parentDag('scatter'), { xs: ['a', 'b'] });
    expect(n.charged).toEqual(['1.0', '1.1', '1.0', '1.1']);
    expect(result.items[0]?.data.receipts).toEqual(['r-3', 'r-4']);
  });

  it('a step recorded under a position-only key (an earlier version) is replayed', async () => {
    const n = nodes();
    const dispatcher = createDispatcher({
      nodes: n.list,
      library: libraryOf([child]),
      clock: virtualClock(),
    });
    const saved = createItemState('1', { xs: ['a', 'b'] });
    saved.journal['inner[0]/charge'] = { value: 'r-old' };
    const result = await dispatcher.run(parentDag('scatter'), {}, { resume: [saved] });
    expect(n.charged).toEqual(['1.1']);
    expect(result.items[0]?.data.receipts).toEqual(['r-old', 'r-1']);
  });

  it('only a journal read from format 1 looks a missed step up under its position-only key', async () => {
    // A journal this version writes holds no position-only key: a miss there is a miss, found with one lookup.
    const fresh = { ...createItemState('1.0', {}), scope: 'fan[0:abc123abc123]/' };
    fresh.journal['fan[0]/k'] = { value: 'old' };
    expect(await journalStep(fresh, 'k', () => 'new')).toBe('new');
    const recorded = { ...createItemState('1.0', {}), scope: 'fan[0:abc123abc123]/' };
    recorded.journal['fan[0]/k'] = { value: 'old' };
    readFormatOneKeys(recorded.journal);
    expect(await journalStep(recorded, 'k', () => 'new')).toBe('old');
    // Saved states holding such a key are read as format 1.
    const saved = restoreItemState({
      ...createItemState('1.0', {}),
      journal: { 'fan[0]/k': { value: 'old' } },
    });
    expect(await journalStep({ ...saved, scope: 'fan[0:abc123abc123]/' }, 'k', () => 'new')).toBe('old');
  });

  it('a run resumed from saved states does not run the steps of embeds and scatter children again', async () => {
    for (const kind of ['embed', 'scatter'] as const) {
      const n = nodes();
      const dispatcher = createDispatcher({
        nodes: n.list,
        library: libraryOf([child]),
        clock: virtualClock(),
      });
      const d = parentDag(kind);
      const first = await dispatcher.run(d, {}, { items: [{ xs: [1, 2] }, { xs: [3] }] });
      const charges = n.charged.length;
      expect(charges).toBe(kind === 'embed' ? 2 : 3);
      const saved = JSON.parse(JSON.stringify(first.items.map((i) => i.state)));
      const second = await dispatcher.run(d, {}, { resume: saved });
      expect(second.items.map((i) => i.terminal)).toEqual(['done', 'done']);
      expect(n.charged.length).toBe(charges);
    }
  });

  it('frames nest: a step in an embed inside a scatter child is keyed by the whole path and replayed', async () => {
    const n = nodes();
    const body = dag('urn:test:body-embeds', { name: 'body', version: '1' })
      .entry('emb')
      .embed('emb', 'urn:test:charge-child', { result: [{ from: '/receipt', to: '/result' }] })
      .route('completed', 'done')
      .route('failed', 'done')
      .terminal('done', 'completed')
      .build();
    const parent = dag('urn:test:nested', { name: 'nested', version: '1' })
      .budget('outer', 2)
      .entry('inner')
      .scatter('inner', { items: '/xs', dag: 'urn:test:body-embeds' })
      .route('done', 'join')
      .gather('join', { into: '/receipts', reducer: 'collect' })
      .route('completed', 'check')
      .route('failed', 'lost')
      .task('check', 'urn:test:check')
      .route('ok', 'done')
      .retry('again', 'inner', { budget: 'outer', exhausted: 'lost' })
      .terminal('done', 'completed')
      .terminal('lost', 'failed')
      .build();
    const result = await createDispatcher({
      nodes: n.list,
      library: libraryOf([child, body]),
      clock: virtualClock(),
    }).run(parent, { xs: ['a', 'b'] });
    expect(result.items[0]?.terminal).toBe('done');
    expect([...n.charged].sort()).toEqual(['1.0/emb', '1.1/emb']);
    expect(Object.keys(result.items[0]?.state.journal ?? {}).sort()).toEqual([
      `inner[0:${elementTag('a')}]/emb/charge`,
      `inner[1:${elementTag('b')}]/emb/charge`,
    ]);
  });

  it('step keys that look like paths never collide with the steps of an embed', async () => {
    const state = createItemState('1', {});
    let runs = 0;
    const fn = () => ++runs;
    await journalStep(state, 'inner/charge', fn);
    await journalStep({ ...state, scope: 'inner/' }, 'charge', fn);
    await journalStep({ ...state, scope: 'inner[0]/' }, 'charge', fn);
    await journalStep(state, 'inner[0]/charge', fn);
    expect(runs).toBe(4);
    expect(Object.keys(state.journal)).toHaveLength(4);
  });
});

describe('concurrent steps with one key', () => {
  it('the second call waits for the first and returns its value: fn runs once', async () => {
    let runs = 0;
    const releases: Array<(value: { n: number }) => void> = [];
    const node = defineNode({
      id: 'urn:test:twice',
      outputs: ['ok'],
      run: async (item, ctx) => {
        const fn = () => {
          runs++;
          return new Promise<{ n: number }>((resolve) => {
            releases.push(resolve);
          });
        };
        const both = Promise.all([ctx.step('charge', fn), ctx.step('charge', fn)]);
        for (const release of releases) release({ n: 7 });
        const [a, b] = await both;
        item.data.same = a === b;
        item.data.values = [a, b];
        return 'ok';
      },
    });
    const single = dag('urn:test:twice', { name: 'twice', version: '1' })
      .entry('work')
      .task('work', 'urn:test:twice')
      .route('ok', 'done')
      .terminal('done', 'completed')
      .build();
    const result = await createDispatcher({ nodes: [node], clock: virtualClock() }).run(single, {});
    expect(runs).toBe(1);
    expect(result.items[0]?.data.values).toEqual([{ n: 7 }, { n: 7 }]);
    expect(result.items[0]?.data.same).toBe(false);
  });

  it('a call waiting on a step that throws gets the same error, and nothing is recorded', async () => {
    const state = createItemState('1', {});
    let runs = 0;
    const boom = new Error('boom');
    const fn = async () => {
      runs++;
      await null;
      throw boom;
    };
    const results = await Promise.allSettled([journalStep(state, 'k', fn), journalStep(state, 'k', fn)]);
    expect(results).toEqual([
      { status: 'rejected', reason: boom },
      { status: 'rejected', reason: boom },
    ]);
    expect(runs).toBe(1);
    expect(Object.keys(state.journal)).toEqual([]);
    await expect(journalStep(state, 'k', () => 'later')).resolves.toBe('later');
  });
});

/** Runs one task whose node records `make()` under `value`, then routes `again` once (budget 1). */
async function replayed<T>(
  make: () => T,
): Promise<{ runs: number; first: unknown; replay: unknown; journal: unknown }> {
  let runs = 0;
  const seen: unknown[] = [];
  const node = defineNode({
    id: 'urn:test:value',
    outputs: ['ok', 'again'],
    run: async (_item, ctx: NodeContext) => {
      seen.push(
        await ctx.step('value', () => {
          runs++;
          return make();
        }),
      );
      return ctx.visit === 1 ? 'again' : 'ok';
    },
  });
  const d = dag('urn:test:value', { name: 'value', version: '1' })
    .budget('once', 1)
    .entry('work')
    .task('work', 'urn:test:value')
    .route('ok', 'done')
    .retry('again', 'work', { budget: 'once', exhausted: 'done' })
    .terminal('done', 'completed')
    .build();
  const dispatcher = createDispatcher({ nodes: [node], clock: virtualClock() });
  const result = await dispatcher.run(d, {});
  // And once more from a JSON checkpoint.
  const saved = JSON.parse(JSON.stringify(result.items[0]?.state));
  await dispatcher.run(d, {}, { resume: [saved] });
  return { runs, first: seen[0], replay: seen.at(-1), journal: saved.journal };
}

describe('values that JSON cannot hold', () => {
  it('a BigInt is recorded and replayed as a BigInt', async () => {
    const { runs, first, replay } = await replayed(() => 12345678901234567890n);
    expect(runs).toBe(1);
    expect(first).toBe(12345678901234567890n);
    expect(replay).toBe(12345678901234567890n);
  });

  it('a Date round-trips as a Date, and the first call gets the same as a replay', async () => {
    const { runs, first, replay } = await replayed(() => ({
      at: new Date(86_400_000),
      tags: new Set(['a']),
    }));
    expect(runs).toBe(1);
    for (const value of [first, replay]) {
      const { at, tags } = value as { at: unknown; tags: unknown };
      expect(at).toBeInstanceOf(Date);
      expect((at as Date).getTime()).toBe(86_400_000);
      expect(tags).toEqual(new Set(['a']));
    }
  });

  it('undefined, NaN and a Map come back as themselves', async () => {
    const { runs, replay } = await replayed(() => [undefined, Number.NaN, new Map([[1, 'one']])]);
    expect(runs).toBe(1);
    expect(replay).toEqual([undefined, Number.NaN, new Map([[1, 'one']])]);
  });

  it('plain JSON is recorded as it is', async () => {
    const { journal } = await replayed(() => ({ receipt: 'r-1', n: [1, 2] }));
    expect(journal).toEqual({ value: { value: { receipt: 'r-1', n: [1, 2] } } });
  });

  it('a function value fails the item with E_STEP_VALUE, and a retry never runs the step again', async () => {
    let runs = 0;
    let caught: unknown;
    const node = defineNode({
      id: 'urn:test:fn',
      outputs: ['ok'],
      run: async (_item, ctx) => {
        try {
          await ctx.step('charge', () => {
            runs++;
            return () => 'a function';
          });
        } catch (error) {
          // Even a node that swallows the error does not make the item go on.
          caught = error;
        }
        return 'ok';
      },
    });
    const d = dag('urn:test:fn', { name: 'fn', version: '1' })
      .budget('tries', 3)
      .entry('work')
      .task('work', 'urn:test:fn')
      .route('ok', 'done')
      .retry('retry', 'work', { budget: 'tries', exhausted: 'gave-up' })
      .route('error', 'broken')
      .terminal('done', 'completed')
      .terminal('gave-up', 'failed')
      .terminal('broken', 'failed')
      .build();
    const dispatcher = createDispatcher({ nodes: [node], clock: virtualClock() });
    const result = await dispatcher.run(d, {});
    expect(runs).toBe(1);
    expect(caught).toMatchObject({ code: 'E_STEP_VALUE' });
    expect(result.items).toMatchObject([{ terminal: 'broken' }]);
    const state = result.items[0]?.state;
    expect(state?.journal.charge).toMatchObject({ unrecordable: expect.stringContaining('function') });
    // Resumed, the step is replayed as the same failure: the side effect is never repeated.
    const again = await dispatcher.run(d, {}, { resume: [JSON.parse(JSON.stringify(state))] });
    expect(runs).toBe(1);
    expect(again.items).toMatchObject([{ terminal: 'broken' }]);
  });

  it('a symbol value is unrecordable too, and replaying it rejects without running fn', async () => {
    const state = createItemState('1', {});
    let runs = 0;
    const fn = () => {
      runs++;
      return Symbol('s');
    };
    await expect(journalStep(state, 's', fn)).rejects.toMatchObject({
      code: 'E_STEP_VALUE',
      retryable: false,
    });
    const restored = restoreItemState(JSON.parse(JSON.stringify(state)));
    await expect(journalStep(restored, 's', fn)).rejects.toMatchObject({ code: 'E_STEP_VALUE' });
    expect(runs).toBe(1);
  });

  it('the value handed back is a copy: changing it does not change the journal', async () => {
    const state = createItemState('1', {});
    const first = await journalStep(state, 'k', () => ({ list: [1] }));
    first.list.push(2);
    const again = await journalStep(state, 'k', () => ({ list: [9] }));
    expect(again).toEqual({ list: [1] });
  });
});
