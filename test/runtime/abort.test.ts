import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { loadDag, never, phaseDag, recorder, scripted, virtualClock } from './helpers.ts';

const IRI = 'urn:switchyard:node:';

describe('aborts and deadlines', () => {
  it('an abort during a 60-second back-off ends the run at once and says where the item waited', async () => {
    const compose = scripted(`${IRI}compose`, ['drafted'], [() => 'drafted']);
    const validate = scripted(`${IRI}validate`, ['valid', 'invalid'], [() => 'invalid']);
    const salvage = scripted(`${IRI}salvage`, ['salvaged'], [() => 'salvaged']);
    const clock = virtualClock();
    const policy = {
      defaults: {
        backoff: { strategy: 'constant' as const, baseMs: 60_000, capMs: 60_000 },
        jitter: 'none' as const,
      },
    };
    const dispatcher = createDispatcher({ nodes: [compose, validate, salvage], policy, clock });
    const controller = new AbortController();
    const rec = recorder();
    const result = await dispatcher.run(
      await loadDag('compose-validate'),
      {},
      {
        signal: controller.signal,
        onEvent: (e) => {
          rec.onEvent(e);
          if (e.type === 'retry.scheduled') controller.abort();
        },
      },
    );
    expect(result.status).toBe('aborted');
    expect(result.aborted).toMatchObject([{ item: '1', placement: 'compose', waitingFor: 'backoff' }]);
    expect(result.items).toEqual([]);
    expect(result.failures).toEqual([]);
    expect(clock.now()).toBe(0);
    expect(rec.of('retry.scheduled')).toMatchObject([{ delayMs: 60_000 }]);
    expect(rec.of('run.end')).toMatchObject([{ status: 'aborted', time: 0 }]);
  });

  it('a node that never resolves is cut by its deadline, retried, then salvaged', async () => {
    const compose = scripted(`${IRI}compose`, ['drafted'], [() => never()]);
    const validate = scripted(`${IRI}validate`, ['valid', 'invalid'], [() => 'valid']);
    const salvage = scripted(`${IRI}salvage`, ['salvaged'], [() => 'salvaged']);
    const policy = {
      defaults: {
        backoff: { strategy: 'constant' as const, baseMs: 10, capMs: 10 },
        jitter: 'none' as const,
      },
      placements: { compose: { deadlineMs: 1_000 } },
    };
    const signals: AbortSignal[] = [];
    const watching = {
      ...compose,
      run: (item: never, ctx: { signal: AbortSignal }) => {
        signals.push(ctx.signal);
        return compose.run?.(item, ctx as never);
      },
    };
    const dispatcher = createDispatcher({
      nodes: [watching as never, validate, salvage],
      policy,
      clock: virtualClock(),
    });
    const rec = recorder();
    const result = await dispatcher.run(await loadDag('compose-validate'), {}, { onEvent: rec.onEvent });
    expect(result.items).toMatchObject([{ terminal: 'salvaged', state: { budgets: { transient: 2 } } }]);
    expect(rec.of('placement.start').map((e) => [e.placement, e.time])).toEqual([
      ['compose', 0],
      ['compose', 1010],
      ['compose', 2020],
      ['salvage', 3020],
    ]);
    expect(rec.of('budget.exhausted')).toMatchObject([{ why: 'spent', to: 'salvage' }]);
    expect(signals.every((s) => s.aborted)).toBe(true);
  });

  it('the run deadline fails the remaining items with E_RUN_DEADLINE, each listed', async () => {
    const slow = defineNode({
      id: 'urn:test:slow',
      outputs: ['ok'],
      run: (_item, ctx) => ctx.step('x', () => never<string>()).then(() => 'ok'),
    });
    const fast = defineNode({ id: 'urn:test:fast', outputs: ['ok'], run: () => 'ok' });
    const d = dag('urn:test:deadline', { name: 'd', version: '1' })
      .entry('pick')
      .task('pick', 'urn:test:fast')
      .route('ok', 'slow')
      .task('slow', 'urn:test:slow')
      .route('ok', 'done')
      .terminal('done', 'completed')
      .build();
    const clock = virtualClock();
    const result = await createDispatcher({ nodes: [slow, fast], clock }).run(
      d,
      {},
      { items: [{}, {}, {}], deadlineMs: 5_000 },
    );
    expect(result.status).toBe('failed');
    expect(result.failures.map((f) => [f.id, f.placement, f.error.code])).toEqual([
      ['1', 'slow', 'E_RUN_DEADLINE'],
      ['2', 'slow', 'E_RUN_DEADLINE'],
      ['3', 'slow', 'E_RUN_DEADLINE'],
    ]);
    expect(clock.now()).toBe(5_000);
  });

  it('post phases run after an abort, with the run status; pre phases run before items', async () => {
    const seen: string[] = [];
    const pre = defineNode({
      id: 'urn:test:pre',
      outputs: [],
      run: (item) => {
        seen.push(`pre:${item.data.items}`);
        return 'done';
      },
    });
    const post = defineNode({
      id: 'urn:test:post',
      outputs: [],
      run: async (item, ctx) => {
        expect(ctx.signal.aborted).toBe(false);
        seen.push(`post:${item.data.status}`);
        return 'done';
      },
    });
    const work = defineNode({
      id: 'urn:test:work',
      outputs: ['ok'],
      run: () => {
        seen.push('work');
        return never<string>();
      },
    });
    const d = dag('urn:test:phases', { name: 'p', version: '1' })
      .entry('work')
      .phase('setup', 'pre', 'urn:test:pre')
      .phase('teardown', 'post', 'urn:test:post')
      .task('work', 'urn:test:work')
      .route('ok', 'done')
      .terminal('done', 'completed')
      .build();
    const controller = new AbortController();
    const run = createDispatcher({ nodes: [pre, post, work], clock: virtualClock() }).run(
      d,
      {},
      { signal: controller.signal, items: [{}, {}] },
    );
    const events: string[] = [];
    for await (const e of run) {
      events.push(e.type);
      if (e.type === 'placement.start' && e.placement === 'work' && e.item === '2') controller.abort();
    }
    const result = await run;
    expect(seen).toEqual(['pre:2', 'work', 'work', 'post:aborted']);
    expect(result.aborted.map((a) => [a.item, a.placement, a.waitingFor])).toEqual([
      ['1', 'work', 'node'],
      ['2', 'work', 'node'],
    ]);
    expect(events[0]).toBe('run.start');
    expect(events.at(-1)).toBe('run.end');
  });

  it('a throwing pre phase fails the run with every item in the failure list', async () => {
    const pre = defineNode({
      id: 'urn:test:pre',
      outputs: [],
      run: () => {
        throw new Error('no database');
      },
    });
    const work = defineNode({ id: 'urn:test:work', outputs: ['ok'], run: () => 'ok' });
    const d = phaseDag('pre', 'setup');
    const result = await createDispatcher({ nodes: [pre, work], clock: virtualClock() }).run(
      d,
      {},
      { items: [{ a: 1 }, { a: 2 }] },
    );
    expect(result.status).toBe('failed');
    expect(result.failures.map((f) => [f.id, f.placement, f.state.data])).toEqual([
      ['1', 'setup', { a: 1 }],
      ['2', 'setup', { a: 2 }],
    ]);
    expect(result.phaseErrors).toMatchObject([{ placement: 'setup', error: { message: 'no database' } }]);
  });

  it('items waiting for a concurrency slot are reported as waiting in the queue', async () => {
    const work = defineNode({ id: 'urn:test:work', outputs: ['ok'], run: () => never<string>() });
    const d = dag('urn:test:queue', { name: 'q', version: '1' })
      .entry('work')
      .task('work', 'urn:test:work')
      .route('ok', 'done')
      .terminal('done', 'completed')
      .build();
    const controller = new AbortController();
    const clock = virtualClock();
    const dispatcher = createDispatcher({
      nodes: [work],
      clock,
      policy: { placements: { work: { concurrency: 1 } } },
    });
    const running = dispatcher.run(d, {}, { items: [{}, {}, {}], signal: controller.signal });
    await clock.sleep(10);
    controller.abort();
    const result = await running;
    expect(result.aborted.map((a) => [a.item, a.waitingFor])).toEqual([
      ['1', 'node'],
      ['2', 'queue'],
      ['3', 'queue'],
    ]);
  });

  it('an abort during a pre phase lists every item as aborted, not failed', async () => {
    const controller = new AbortController();
    const pre = defineNode({
      id: 'urn:test:pre',
      outputs: [],
      run: () => {
        controller.abort();
        return never<string>();
      },
    });
    const work = defineNode({ id: 'urn:test:work', outputs: ['ok'], run: () => 'ok' });
    const d = phaseDag('pre', 'setup');
    const result = await createDispatcher({ nodes: [pre, work], clock: virtualClock() }).run(
      d,
      {},
      { items: [{}, {}], signal: controller.signal },
    );
    expect(result.status).toBe('aborted');
    expect(result.aborted.map((a) => [a.item, a.placement, a.waitingFor])).toEqual([
      ['1', 'work', 'queue'],
      ['2', 'work', 'queue'],
    ]);
    expect(result.phaseErrors).toEqual([]);
  });
});
