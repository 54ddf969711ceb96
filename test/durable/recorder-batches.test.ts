/**
 * How the recorder batches a durable run's writes: a run of quick nodes commits its record, then its
 * transitions together with its end; an ended item's checkpoint is the item as it stood when it ended, even
 * when its state changes before the batch commits; a turn's events go in pages of at most 512.
 */
import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { libraryOf } from '../../src/document/load.ts';
import { compile } from '../../src/graph/compile.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { addTrail, createChildState, createItemState } from '../../src/runtime/item-state.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { Recorder } from '../../src/runtime/recorder.ts';
import { freshCarry } from '../../src/runtime/step.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { RunStore, StoreWrite } from '../../src/store/types.ts';
import { makeRun } from '../store/fixtures.ts';

/** `store` with every batch it commits kept, as the kinds of its writes. */
function watched(store: RunStore): { readonly store: RunStore; readonly batches: StoreWrite[][] } {
  const batches: StoreWrite[][] = [];
  const wrapped = new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (key === 'commit') {
        return (batch: readonly StoreWrite[]) => {
          batches.push([...batch]);
          return target.commit(batch);
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store: wrapped, batches };
}

const quick = dag('urn:test:quick', { name: 'quick', version: '1' })
  .budget('again', 2)
  .entry('work')
  .task('work', 'urn:test:work')
  .route('ok', 'done')
  .retry('again', 'work', { budget: 'again', exhausted: 'done' })
  .terminal('done', 'completed')
  .build();

const work = defineNode({
  id: 'urn:test:work',
  outputs: ['ok', 'again'],
  run: (item, ctx) => {
    item.data.visits = ctx.visit;
    return ctx.attempts('again') < 2 ? 'again' : 'ok';
  },
});

const policy = {
  defaults: { backoff: { strategy: 'constant', baseMs: 0, capMs: 0 }, jitter: 'none' },
} as const;

describe('the recorder', () => {
  it('commits a run of quick nodes as its record, then its transitions with its end', async () => {
    const inner = await openSqliteStore(':memory:');
    const { store, batches } = watched(inner);
    const dispatcher = createDispatcher({ nodes: [work], policy, store });
    const result = await dispatcher.run(quick, {}, { items: [{}, {}], runId: 'quick' });
    expect(result.status).toBe('completed');
    expect(batches.map((batch) => batch.map((write) => write.kind))).toEqual([
      ['run', 'lease'],
      ['held', 'checkpoint', 'checkpoint', 'events', 'run-status', 'release'],
    ]);
    const [one, two] = await store.listCheckpoints('quick');
    expect([one?.itemId, two?.itemId]).toEqual(['1', '2']);
    expect(one?.state.data).toEqual({ visits: 3 });
    expect(one?.position).toMatchObject({ placement: 'done', visit: 1 });
    expect(one?.ending).toEqual({ kind: 'terminal', placement: 'done', outcome: 'completed' });
    expect((await store.getRun('quick'))?.status).toBe('completed');
    expect(await store.getLease('quick')).toBeUndefined();
    await store.close();
  });

  it("commits each transition before the wait it starts, and the run's end with the last transitions", async () => {
    const inner = createMemoryStore();
    const { store, batches } = watched(inner);
    const clock = createVirtualClock({ auto: true, wallStart: 1_000_000 });
    const waiting = {
      defaults: { backoff: { strategy: 'constant', baseMs: 500, capMs: 500 }, jitter: 'none' },
    } as const;
    const seen: RunEvent[] = [];
    const dispatcher = createDispatcher({ nodes: [work], policy: waiting, store, clock });
    const result = await dispatcher.run(quick, {}, { runId: 'waits', onEvent: (e) => seen.push(e) });
    expect(result.status).toBe('completed');
    const kinds = batches.map((batch) => batch.map((write) => write.kind).join(' '));
    // Each wait's checkpoint is durable before the wait; the item ends after the last wait, then the run.
    expect(kinds).toEqual([
      'run lease',
      'held checkpoint events',
      'held checkpoint events',
      'held checkpoint events run-status release',
    ]);
    const waits = batches.slice(1, 3).map((batch) => batch.find((write) => write.kind === 'checkpoint'));
    expect(waits.map((write) => (write?.kind === 'checkpoint' ? write.checkpoint.status : ''))).toEqual([
      'waiting',
      'waiting',
    ]);
    expect(seen.filter((e) => e.type === 'retry.scheduled')).toHaveLength(2);
  });

  it('records an ended item as it stood when it ended, whatever changes its state before the commit', async () => {
    const store = createMemoryStore();
    await store.commit([{ kind: 'run', run: makeRun('r1') }]);
    const clock = createVirtualClock({ wallStart: 1_000_000 });
    const recorder = new Recorder(store, 'r1', clock);
    const state = createItemState('1', { list: [1, 2], note: 'kept' });
    state.visits.done = 1;
    recorder.ended('urn:test:dag', state, 'done', {
      kind: 'terminal',
      placement: 'done',
      outcome: 'completed',
    });
    (state.data as { list: number[] }).list.push(3);
    (state.data as { note: string }).note = 'changed';
    state.visits.done = 2;
    await recorder.flush();
    const saved = await store.getCheckpoint('r1', '1');
    expect(saved?.state.data).toEqual({ list: [1, 2], note: 'kept' });
    expect(saved?.state.visits).toEqual({ done: 1 });
    expect(saved).toMatchObject({ runId: 'r1', itemId: '1', status: 'ended', updatedAt: 1_000_000 });
  });

  it('records a moving item as it stood at the transition, whatever changes it before the commit', async () => {
    const store = createMemoryStore();
    await store.commit([{ kind: 'run', run: makeRun('r1') }]);
    const recorder = new Recorder(store, 'r1', createVirtualClock({ wallStart: 1_000_000 }));
    const compiled = compile(quick);
    const at = compiled.byKey.get('work');
    if (at === undefined) throw new Error('no placement work');
    const state = createItemState('1', { list: [1, 2] });
    state.visits.work = 1;
    state.budgets.again = 1;
    const retry = { placement: 'work', output: 'again', to: 'work', kind: 'retry' } as const;
    // Three entries: a fourth is pushed onto the same array.
    for (let i = 0; i < 3; i++) addTrail(state, retry);
    recorder.moved('urn:test:quick', state, at, freshCarry());
    (state.data as { list: number[] }).list.push(3);
    state.visits.work = 2;
    state.budgets.again = 2;
    addTrail(state, { placement: 'work', output: 'again', to: 'work', kind: 'retry' });
    await recorder.flush();
    const saved = await store.getCheckpoint('r1', '1');
    expect(saved?.state).toEqual({
      data: { list: [1, 2] },
      budgets: { again: 1 },
      journal: {},
      trail: [retry, retry, retry],
      visits: { work: 1 },
    });
    expect(saved?.position).toEqual({ dag: 'urn:test:quick', placement: 'work', visit: 2, frames: [] });
    expect(saved).toMatchObject({ status: 'active', updatedAt: 1_000_000 });
  });

  it('keeps of an ended child what its parent and a resume read: data, budgets, position, ending', async () => {
    const store = createMemoryStore();
    await store.commit([{ kind: 'run', run: makeRun('r1') }]);
    const recorder = new Recorder(store, 'r1', createVirtualClock({ wallStart: 1_000_000 }));
    const parent = createItemState('1', { xs: [5] });
    const frame = { kind: 'scatter', dag: 'urn:test:parent', placement: 'fan', visit: 1, index: 0 } as const;
    const child = createChildState(parent, '1.0', 'fan[0]', { item: 5, result: 11 }, frame);
    child.visits.double = 1;
    child.budgets.again = 1;
    addTrail(child, { placement: 'double', output: 'ok', to: 'done', kind: 'next' });
    const ending = { kind: 'terminal', placement: 'done', outcome: 'completed' } as const;
    recorder.ended('urn:test:child', child, 'done', ending);
    recorder.ended('urn:test:parent', parent, 'ok', { ...ending, placement: 'ok' });
    await recorder.flush();
    const saved = await store.getCheckpoint('r1', '1.0');
    expect(saved?.state).toEqual({
      data: { item: 5, result: 11 },
      budgets: { again: 1 },
      journal: {},
      trail: [],
      visits: {},
    });
    expect(saved?.position).toEqual({ dag: 'urn:test:child', placement: 'done', visit: 0, frames: [frame] });
    expect(saved?.ending).toEqual(ending);
    // An input item keeps its whole state.
    const input = await store.getCheckpoint('r1', '1');
    expect(input?.state.trail).toEqual([]);
    expect(input?.state.data).toEqual({ xs: [5] });
  });

  it('ends an item whose node answered later with its move to a terminal, in one batch', async () => {
    const { store, batches } = watched(createMemoryStore());
    const slow = defineNode({
      id: 'urn:test:slow',
      outputs: ['ok'],
      run: async (item) => {
        await Promise.resolve();
        item.data.done = true;
        return 'ok';
      },
    });
    const child = dag('urn:test:slow-child', { name: 'slow child', version: '1' })
      .entry('work')
      .task('work', 'urn:test:slow')
      .route('ok', 'done')
      .terminal('done', 'completed')
      .build();
    const parent = dag('urn:test:slow-fan', { name: 'slow fan', version: '1' })
      .entry('fan')
      .scatter('fan', { items: '/xs', dag: 'urn:test:slow-child' })
      .route('done', 'join')
      .gather('join', { into: '/out' })
      .route('completed', 'ok')
      .route('failed', 'bad')
      .terminal('ok', 'completed')
      .terminal('bad', 'failed')
      .build();
    const dispatcher = createDispatcher({ nodes: [slow], library: libraryOf([child]), policy, store });
    const result = await dispatcher.run(parent, { xs: [1, 2, 3] }, { runId: 'slow' });
    expect(result.status).toBe('completed');
    const written = batches.flatMap((batch) =>
      batch.flatMap((write) =>
        write.kind === 'checkpoint' ? [`${write.checkpoint.itemId} ${write.checkpoint.status}`] : [],
      ),
    );
    // Each child's only checkpoint is its ending: the move to `done` and the ending are one write.
    expect(written.filter((line) => line.startsWith('1.')).sort()).toEqual([
      '1.0 ended',
      '1.1 ended',
      '1.2 ended',
    ]);
    const ended = await store.getCheckpoint('slow', '1.1');
    expect(ended?.state.data).toEqual({ item: 2, index: 1, done: true });
    expect(ended?.position).toMatchObject({ placement: 'done' });
  });

  it('stores the events of a run as its stream gave them, the same fields in the same order', async () => {
    const store = await openSqliteStore(':memory:');
    const dispatcher = createDispatcher({ nodes: [work], policy, store });
    const heard: RunEvent[] = [];
    const result = await dispatcher.run(
      quick,
      {},
      { items: [{}, {}], runId: 'heard', onEvent: (event) => void heard.push(event) },
    );
    expect(result.status).toBe('completed');
    const stored = await store.readEvents('heard');
    expect(stored.length).toBeGreaterThan(10);
    expect(stored.map((event) => JSON.stringify(event.body))).toEqual(
      heard.map((event) => JSON.stringify(event)),
    );
    expect(stored.map((event) => [event.seq, event.type])).toEqual(heard.map((e) => [e.seq, e.type]));
    await store.close();
  });

  it('writes the events of one turn in pages of at most 512', async () => {
    const inner = createMemoryStore();
    const { store, batches } = watched(inner);
    await store.commit([{ kind: 'run', run: makeRun('r1') }]);
    const recorder = new Recorder(store, 'r1', createVirtualClock());
    for (let seq = 0; seq < 1200; seq++) {
      recorder.event({
        type: 'warning',
        code: 'W',
        message: 'm',
        seq,
        time: seq,
        runId: 'r1',
      } as unknown as RunEvent);
    }
    await recorder.flush();
    const pages = (batches.at(-1) ?? []).flatMap((write) => (write.kind === 'events' ? [write.events] : []));
    expect(pages.map((page) => page.length)).toEqual([512, 512, 176]);
    expect((await store.readEvents('r1')).map((e) => e.seq)).toEqual([...Array(1200).keys()]);
  });
});
