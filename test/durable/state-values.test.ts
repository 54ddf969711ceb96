/**
 * What a durable run records of values JSON cannot hold: item data with a BigInt or a Date comes back as
 * itself after a resume, data holding a function fails its item (not the run) with E_STATE_VALUE, and a
 * node's non-string reason is stored in the event stream the way `--events` writes it.
 */
import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { NOT_PLAIN, plainCopy } from '../../src/runtime/plain-copy.ts';
import { createMemoryStore } from '../../src/store/memory.ts';

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

function nodes(kind: 'values' | 'function') {
  return [
    defineNode({
      id: 'urn:test:fill',
      outputs: ['filled'],
      run: (item) => {
        item.data.big = 12345678901234567890n;
        item.data.when = new Date(Date.UTC(2026, 11, 1));
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
  it('keeps a BigInt and a Date in item data across a resume, and stores a BigInt reason as text', async () => {
    const store = createMemoryStore();
    const clock = createVirtualClock({ auto: true, wallStart: 1_000_000 });
    const stop = new AbortController();
    const first = await createDispatcher({ nodes: nodes('values'), store, clock, policy }).run(
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
    const resumed = await createDispatcher({ nodes: nodes('values'), store, clock, policy }).resume('values');
    expect(resumed.status).toBe('completed');
    const data = resumed.items[0]?.data ?? {};
    expect(data.big).toBe(12345678901234567890n);
    expect(data.when).toBeInstanceOf(Date);
    expect((data.when as Date).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    const routes = (await store.readEvents('values')).filter(
      (e) => e.type === 'route' && (e.body as { from?: string }).from === 'fill',
    );
    expect(routes.map((e) => (e.body as { reason?: unknown }).reason)).toEqual(['7']);
  });

  it('fails the item whose data holds a function with E_STATE_VALUE, and records its ending', async () => {
    const store = createMemoryStore();
    const clock = createVirtualClock({ auto: true });
    const result = await createDispatcher({ nodes: nodes('function'), store, clock, policy }).run(
      document,
      {},
      { runId: 'fn' },
    );
    expect(result.status).toBe('failed');
    expect(result.failures.map((f) => f.error.code)).toEqual(['E_STATE_VALUE']);
    expect(result.failures[0]?.error.message).toMatch(/function.*run without a store/u);
    const [checkpoint] = await store.listCheckpoints('fn');
    expect(checkpoint?.status).toBe('ended');
    expect(checkpoint?.ending).toMatchObject({ kind: 'failure', code: 'E_STATE_VALUE' });
    expect(checkpoint?.state.dataUnrecordable).toMatch(/function/u);
    expect((await store.getRun('fn'))?.status).toBe('failed');
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
