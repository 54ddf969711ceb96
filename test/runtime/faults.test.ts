import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { isSwitchyardError } from '../../src/errors.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { POST_PHASE_DEADLINE_MS } from '../../src/runtime/phases.ts';
import { setPointer } from '../../src/runtime/pointer.ts';
import { never, phaseDag, recorder, virtualClock } from './helpers.ts';

const fanOut = (body: string) =>
  dag('urn:test:fan', { name: 'fan', version: '1' })
    .entry('fan')
    .scatter('fan', { items: '/xs', node: body })
    .route('done', 'join')
    .gather('join', { into: '/out', reducer: 'collect' })
    .route('completed', 'ok')
    .route('failed', 'ok')
    .terminal('ok', 'completed')
    .build();

const single = dag('urn:test:single', { name: 'single', version: '1' })
  .entry('work')
  .task('work', 'urn:test:work')
  .route('ok', 'done')
  .terminal('done', 'completed')
  .build();

describe('faults of listeners and of the engine', () => {
  it('a throwing onEvent listener loses no item: the run resolves and reports the listener errors', async () => {
    const work = defineNode({ id: 'urn:test:work', outputs: ['ok'], run: () => 'ok' });
    const rec = recorder();
    const boom = new Error('listener bug');
    const result = await createDispatcher({ nodes: [work], clock: virtualClock() }).run(
      single,
      {},
      {
        items: [{}, {}],
        onEvent: (e) => {
          rec.onEvent(e);
          if (e.type === 'placement.start') throw boom;
        },
      },
    );
    expect(result.status).toBe('completed');
    expect(result.items.map((i) => [i.id, i.terminal])).toEqual([
      ['1', 'done'],
      ['2', 'done'],
    ]);
    expect(result.listenerErrors).toEqual({ count: 2, first: boom });
    // The listener kept receiving events after it threw.
    expect(rec.events.at(-1)?.type).toBe('run.end');
  });

  it('a run whose listeners never throw has no listenerErrors', async () => {
    const work = defineNode({ id: 'urn:test:work', outputs: ['ok'], run: () => 'ok' });
    const result = await createDispatcher({ nodes: [work], clock: virtualClock() }).run(
      single,
      {},
      {
        onEvent: () => undefined,
      },
    );
    expect('listenerErrors' in result).toBe(false);
  });

  it('a node that leaves a function in item data puts that item in failures with E_ITEM_DATA', async () => {
    const body = defineNode({ id: 'urn:test:body', outputs: ['ok'], run: () => 'ok' });
    // A node leaves a function in the list: it is not item data, and the item fails where the node ran.
    const fill = defineNode({
      id: 'urn:test:fill',
      outputs: ['ok'],
      run: (item) => {
        item.data.xs = item.id === '1' ? [() => 1] : [1];
        return 'ok';
      },
    });
    const d = dag('urn:test:fill-fan', { name: 'fill-fan', version: '1' })
      .entry('fill')
      .task('fill', 'urn:test:fill')
      .route('ok', 'fan')
      .scatter('fan', { items: '/xs', node: 'urn:test:body' })
      .route('done', 'join')
      .gather('join', { into: '/out', reducer: 'collect' })
      .route('completed', 'ok')
      .route('failed', 'ok')
      .terminal('ok', 'completed')
      .build();
    const result = await createDispatcher({ nodes: [fill, body], clock: virtualClock() }).run(
      d,
      {},
      { items: [{}, {}] },
    );
    expect(result.status).toBe('failed');
    expect(result.failures.map((f) => [f.id, f.placement, f.error.code])).toEqual([
      ['1', 'fill', 'E_ITEM_DATA'],
    ]);
    expect(result.failures[0]?.error.message).toMatch(/a function at \/xs\/0/u);
    expect(result.items.map((i) => i.id)).toEqual(['2']);
  });

  it('an input item that is not item data refuses the run with E_ITEM_DATA', async () => {
    const body = defineNode({ id: 'urn:test:body', outputs: ['ok'], run: () => 'ok' });
    const run = createDispatcher({ nodes: [body], clock: virtualClock() }).run(
      fanOut('urn:test:body'),
      {},
      { items: [{ xs: [() => 1] }, { xs: [1] }] },
    );
    await expect(run).rejects.toMatchObject({
      code: 'E_ITEM_DATA',
      message: expect.stringMatching(/^items\[0\] holds a function at \/xs\/0,/u),
    });
  });

  it('a gather writing an array at the root pointer fails the item with E_INPUT', async () => {
    const body = defineNode({ id: 'urn:test:body', outputs: ['ok'], run: () => 'ok' });
    const d = dag('urn:test:root', { name: 'root', version: '1' })
      .entry('fan')
      .scatter('fan', { items: '/xs', node: 'urn:test:body' })
      .route('done', 'join')
      .gather('join', { into: '', reducer: 'collect' })
      .route('completed', 'ok')
      .terminal('ok', 'completed')
      .build();
    const result = await createDispatcher({ nodes: [body], clock: virtualClock() }).run(d, { xs: [1] });
    expect(result.failures.map((f) => [f.placement, f.error.code])).toEqual([['join', 'E_INPUT']]);
  });
});

describe('scatter', () => {
  it('calls no body node after the run is aborted', async () => {
    const controller = new AbortController();
    let calls = 0;
    const body = defineNode({
      id: 'urn:test:body',
      outputs: ['ok'],
      run: () => {
        calls++;
        controller.abort();
        return 'ok';
      },
    });
    const result = await createDispatcher({ nodes: [body], clock: virtualClock() }).run(
      fanOut('urn:test:body'),
      { xs: [1, 2, 3, 4] },
      { signal: controller.signal },
    );
    expect(calls).toBe(1);
    expect(result.status).toBe('aborted');
    expect(result.aborted.map((a) => [a.item, a.placement])).toEqual([['1', 'fan']]);
  });

  it('hands each child a copy of its list element, so in-place changes never reach the parent', async () => {
    const body = defineNode({
      id: 'urn:test:body',
      outputs: ['ok'],
      run: (item) => {
        const element = item.data.item as { n: number; touched?: boolean };
        element.touched = true;
        item.data.result = element;
        return 'ok';
      },
    });
    const result = await createDispatcher({ nodes: [body], clock: virtualClock() }).run(
      fanOut('urn:test:body'),
      {
        xs: [{ n: 1 }, { n: 2 }],
      },
    );
    const data = result.items[0]?.data;
    expect(data?.xs).toEqual([{ n: 1 }, { n: 2 }]);
    expect(data?.out).toEqual([
      { n: 1, touched: true },
      { n: 2, touched: true },
    ]);
  });
});

describe('post phases', () => {
  it('a post phase without a deadline cannot hang an aborted run: it is stopped at the default cap', async () => {
    const clock = virtualClock();
    const controller = new AbortController();
    let reason: unknown;
    const post = defineNode({
      id: 'urn:test:post',
      outputs: [],
      run: (_item, ctx) => {
        ctx.signal.addEventListener('abort', () => {
          reason = ctx.signal.reason;
        });
        return never<string>();
      },
    });
    const work = defineNode({ id: 'urn:test:work', outputs: ['ok'], run: () => never<string>() });
    const d = phaseDag('post', 'teardown');
    const rec = recorder();
    const result = await createDispatcher({ nodes: [post, work], clock }).run(
      d,
      {},
      {
        signal: controller.signal,
        onEvent: (e) => {
          rec.onEvent(e);
          if (e.type === 'placement.start' && e.placement === 'work') controller.abort();
        },
      },
    );
    expect(result.status).toBe('aborted');
    expect(result.aborted.map((a) => a.item)).toEqual(['1']);
    expect(result.phaseErrors).toMatchObject([{ placement: 'teardown', error: { code: 'E_DEADLINE' } }]);
    expect(clock.now()).toBe(POST_PHASE_DEADLINE_MS);
    expect(isSwitchyardError(reason) && reason.code).toBe('E_DEADLINE');
  });

  it('a post phase deadline from the policy applies instead of the cap', async () => {
    const clock = virtualClock();
    const post = defineNode({ id: 'urn:test:post', outputs: [], run: () => never<string>() });
    const work = defineNode({ id: 'urn:test:work', outputs: ['ok'], run: () => 'ok' });
    const d = phaseDag('post', 'teardown');
    const policy = { placements: { teardown: { deadlineMs: 500 } } };
    const result = await createDispatcher({ nodes: [post, work], clock, policy }).run(d, {});
    expect(result.status).toBe('failed');
    expect(result.items.map((i) => i.terminal)).toEqual(['done']);
    expect(result.phaseErrors).toMatchObject([{ placement: 'teardown', error: { code: 'E_DEADLINE' } }]);
    expect(clock.now()).toBe(500);
  });
});

describe('setPointer', () => {
  const codeOf = (fn: () => unknown): string | undefined => {
    try {
      fn();
    } catch (error) {
      return isSwitchyardError(error) ? error.code : 'not a SwitchyardError';
    }
    return undefined;
  };

  it('refuses tokens that reach a prototype', () => {
    const root: Record<string, unknown> = {};
    expect(codeOf(() => setPointer(root, '/__proto__/polluted', true))).toBe('E_INPUT');
    expect(codeOf(() => setPointer(root, '/a/constructor/prototype/polluted', true))).toBe('E_INPUT');
    expect(codeOf(() => setPointer(root, '/prototype', true))).toBe('E_INPUT');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(root).toEqual({});
  });

  it("replaces the root with an object at '' and refuses anything else there", () => {
    const value = { b: 1 };
    expect(setPointer({ a: 1 }, '', value)).toBe(value);
    expect(codeOf(() => setPointer({ a: 1 }, '', [1]))).toBe('E_INPUT');
    expect(codeOf(() => setPointer({ a: 1 }, '', 'text'))).toBe('E_INPUT');
    expect(codeOf(() => setPointer({ a: 1 }, '', null))).toBe('E_INPUT');
  });

  it('writes ordinary keys, creating objects on the way', () => {
    expect(setPointer({}, '/a/b~1c', 1)).toEqual({ a: { 'b/c': 1 } });
  });
});
