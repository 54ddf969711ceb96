/**
 * What a durable run records of values JSON cannot hold: item data with a BigInt, a Date or a function
 * fails its item (not the run) with E_ITEM_DATA, as a run without a store does, and its checkpoint keeps the
 * data as JSON holds it; a node's non-string reason is stored in the event stream the way `--events` writes it.
 */
import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { encodeStepValue } from '../../src/runtime/journal-value.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { NOT_PLAIN, plainCopy } from '../../src/runtime/plain-copy.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import type { RunStore } from '../../src/store/types.ts';

const document = dag('urn:test:state-values', { name: 'state values', version: '1' })
  .budget('again', 1)
  .entry('fill')
  .task('fill', 'urn:test:fill')
  .route('filled', 'check')
  .task('check', 'urn:test:check')
  .route('ok', 'done')
  .retry('wait', 'check', { budget: 'again', exhausted: 'done' })
  .terminal('done', 'completed')
  .build();

function nodes(kind: 'values' | 'function' | 'reason') {
  return [
    defineNode({
      id: 'urn:test:fill',
      outputs: ['filled'],
      run: (item) => {
        if (kind !== 'reason') {
          item.data.big = 12345678901234567890n;
          item.data.when = new Date(Date.UTC(2026, 11, 1));
        }
        if (kind === 'function') item.data.fn = () => 1;
        return { output: 'filled', reason: 7n as unknown as string };
      },
    }),
    defineNode({
      id: 'urn:test:check',
      outputs: ['ok', 'wait'],
      run: (_item, ctx) => (ctx.attempts('again') === 0 ? 'wait' : 'ok'),
    }),
  ];
}

const policy = {
  defaults: { backoff: { strategy: 'constant', baseMs: 1000, capMs: 1000 }, jitter: 'none' },
} as const;

describe('values JSON cannot hold in a durable run', () => {
  it('stores a BigInt reason as text, across a resume', async () => {
    const store = createMemoryStore();
    const clock = createVirtualClock({ auto: true, wallStart: 1_000_000 });
    const stop = new AbortController();
    const first = await createDispatcher({ nodes: nodes('reason'), store, clock, policy }).run(
      document,
      {},
      {
        runId: 'values',
        signal: stop.signal,
        onEvent: (event) => {
          if (event.type === 'retry.scheduled') stop.abort();
        },
      },
    );
    expect(first.status).toBe('aborted');
    const resumed = await createDispatcher({ nodes: nodes('reason'), store, clock, policy }).resume('values');
    expect(resumed.status).toBe('completed');
    const routes = (await store.readEvents('values')).filter(
      (e) => e.type === 'route' && (e.body as { from?: string }).from === 'fill',
    );
    expect(routes.map((e) => (e.body as { reason?: unknown }).reason)).toEqual(['7']);
  });

  for (const kind of ['values', 'function'] as const) {
    it(`fails the item whose data holds ${kind === 'values' ? 'a BigInt and a Date' : 'a function'} with E_ITEM_DATA, as without a store`, async () => {
      const store = createMemoryStore();
      const clock = createVirtualClock({ auto: true });
      const durable = await createDispatcher({ nodes: nodes(kind), store, clock, policy }).run(
        document,
        {},
        { runId: kind },
      );
      const inMemory = await createDispatcher({ nodes: nodes(kind), clock, policy }).run(document, {});
      for (const result of [durable, inMemory]) {
        expect(result.status).toBe('failed');
        expect(result.failures.map((f) => [f.placement, f.error.code])).toEqual([['fill', 'E_ITEM_DATA']]);
        expect(result.failures[0]?.error.message).toMatch(
          /^the node at placement 'fill' left item data that holds a BigInt at \/big,/u,
        );
        expect(result.failures[0]?.state.data).toEqual({
          big: '12345678901234567890',
          when: '2026-12-01T00:00:00.000Z',
        });
      }
      const [checkpoint] = await store.listCheckpoints(kind);
      expect(checkpoint?.status).toBe('ended');
      expect(checkpoint?.ending).toMatchObject({ kind: 'failure', code: 'E_ITEM_DATA' });
      expect(checkpoint?.state.data).toEqual({
        big: '12345678901234567890',
        when: '2026-12-01T00:00:00.000Z',
      });
      expect((await store.getRun(kind))?.status).toBe('failed');
    });
  }
});

describe('a checkpoint that keeps data in devalue form (written before the item-data contract)', () => {
  it('resumes its item with the data as JSON holds it, and warns naming the checkpoint', async () => {
    const store = createMemoryStore();
    const clock = createVirtualClock({ auto: true, wallStart: 1_000_000 });
    const stop = new AbortController();
    const first = await createDispatcher({ nodes: nodes('reason'), store, clock, policy }).run(
      document,
      {},
      {
        runId: 'old',
        signal: stop.signal,
        onEvent: (event) => {
          if (event.type === 'retry.scheduled') stop.abort();
        },
      },
    );
    expect(first.status).toBe('aborted');
    // The store as an engine without the contract left it: the item's data with a BigInt and a Date, kept
    // in devalue's text form.
    const old = encodeStepValue({ big: 12345678901234567890n, when: new Date(Date.UTC(2026, 11, 1)) });
    const oldStore: RunStore = Object.create(store);
    oldStore.listCheckpoints = async (runId) =>
      (await store.listCheckpoints(runId)).map((c) => {
        const { data: _data, ...state } = c.state;
        return { ...c, state: { ...state, data: null, dataEncoded: (old as { encoded: string }).encoded } };
      });
    const warnings: unknown[] = [];
    const resumed = await createDispatcher({ nodes: nodes('reason'), store: oldStore, clock, policy }).resume(
      'old',
      { onEvent: (event) => (event.type === 'warning' ? warnings.push(event) : undefined) },
    );
    expect(resumed.failures).toEqual([]);
    expect(resumed.status).toBe('completed');
    expect(resumed.items[0]?.data).toEqual({ big: '12345678901234567890', when: '2026-12-01T00:00:00.000Z' });
    expect(warnings).toEqual([
      expect.objectContaining({
        code: 'W_CHECKPOINT_DATA_CONVERTED',
        item: '1',
        placement: 'check',
        message: expect.stringMatching(
          /^the checkpoint of item 1 at placement 'check' holds a BigInt at \/big, .*goes on with its data as JSON holds it/u,
        ),
      }),
    ]);
  });
});

describe('plainCopy, the first try of a checkpoint', () => {
  it('copies plain JSON, keeping a __proto__ key as a key, and refuses what JSON would change', () => {
    const data = JSON.parse('{"a":[1,"x",null,{"b":true}],"__proto__":{"c":2}}') as Record<string, unknown>;
    const copy = plainCopy(data) as Record<string, unknown>;
    expect(copy).toEqual(data);
    expect(copy).not.toBe(data);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    for (const value of [-0, Number.NaN, 1n, undefined, new Date(0), new Array(3), { f: () => 1 }]) {
      expect(plainCopy({ value })).toBe(NOT_PLAIN);
    }
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(plainCopy(cycle)).toBe(NOT_PLAIN);
  });
});
