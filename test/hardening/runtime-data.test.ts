import { afterEach, describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { libraryOf } from '../../src/document/load.ts';
import type { Dag, Mapping, Placement } from '../../src/document/model.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { restoreItemState } from '../../src/runtime/item-state.ts';
import { defineNode, type NodeContext } from '../../src/runtime/node.ts';
import { getPointer, setPointer } from '../../src/runtime/pointer.ts';
import { recorder, virtualClock } from '../runtime/helpers.ts';

const PROTOTYPE_NAMES = ['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__proto__', 'prototype'];

/** Nothing any case did may reach Object.prototype. */
afterEach(() => {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
});

/** `work` answers `again` until told otherwise; `again` retries through `budget`, then `gaveUp`. */
function retryDag(budget: string, work = 'work', gaveUp = 'gave-up'): Dag {
  return dag(`urn:test:names:${encodeURIComponent(budget)}`, { name: 'names', version: '1' })
    .budget(budget, 2)
    .entry(work)
    .task(work, 'urn:test:again')
    .route('ok', 'done')
    .retry('again', work, { budget, exhausted: gaveUp })
    .terminal('done', 'completed')
    .terminal(gaveUp, 'failed')
    .build();
}

/** A node that always answers `again`, counting its calls. */
function againNode(calls: { n: number }) {
  return defineNode({
    id: 'urn:test:again',
    outputs: ['ok', 'again'],
    run: () => {
      calls.n++;
      return calls.n > 10 ? 'ok' : 'again';
    },
  });
}

describe('names from documents and nodes as keys', () => {
  for (const name of PROTOTYPE_NAMES) {
    it(`a budget named '${name}' with max 2 retries exactly twice, then takes its exhaustion route`, async () => {
      const seen: number[] = [];
      let calls = 0;
      const node = defineNode({
        id: 'urn:test:again',
        outputs: ['ok', 'again'],
        run: (_item, ctx) => {
          calls++;
          seen.push(ctx.attempts(name));
          // A broken bound would loop for ever: stop after a few so the test fails instead of hanging.
          return calls > 10 ? 'ok' : 'again';
        },
      });
      const rec = recorder();
      const result = await createDispatcher({ nodes: [node], clock: virtualClock() }).run(
        retryDag(name),
        {},
        { onEvent: rec.onEvent },
      );
      expect(calls).toBe(3);
      expect(seen).toEqual([0, 1, 2]);
      expect(rec.of('retry.scheduled').map((e) => e.attempt)).toEqual([1, 2]);
      expect(rec.of('budget.exhausted')).toMatchObject([{ budget: name, why: 'spent', to: 'gave-up' }]);
      expect(result.items).toMatchObject([{ terminal: 'gave-up', outcome: 'failed' }]);
      const state = result.items[0]?.state;
      expect(Object.getPrototypeOf(state?.budgets)).toBeNull();
      expect(Object.hasOwn(state?.budgets ?? {}, name)).toBe(true);
      expect(state?.budgets[name]).toBe(2);
      expect(result.stats).toMatchObject({ retries: 2, exhausted: 1, executions: 3 });
    });
  }

  it('placement keys and terminal keys named like prototype members are counted as such', async () => {
    for (const name of PROTOTYPE_NAMES) {
      const calls = { n: 0 };
      const d = retryDag('x', name, `${name}-end`);
      const terminal = dag(`urn:test:terminal:${encodeURIComponent(name)}`, { name: 't', version: '1' })
        .entry('work')
        .task('work', 'urn:test:ok')
        .route('ok', name)
        .terminal(name, 'completed')
        .build();
      const ok = defineNode({ id: 'urn:test:ok', outputs: ['ok'], run: () => 'ok' });
      const dispatcher = createDispatcher({ nodes: [againNode(calls), ok], clock: virtualClock() });
      const looped = await dispatcher.run(d, {});
      expect(calls.n).toBe(3);
      expect(looped.items[0]?.state.visits[name]).toBe(3);
      expect(looped.items[0]?.terminal).toBe(`${name}-end`);
      const ended = await dispatcher.run(terminal, {}, { items: [{}, {}, {}] });
      expect(ended.items.map((i) => i.terminal)).toEqual([name, name, name]);
      expect(Object.getPrototypeOf(ended.stats.byTerminal)).toBeNull();
      expect(Object.keys(ended.stats.byTerminal)).toEqual([name]);
      expect(ended.stats.byTerminal[name]).toBe(3);
    }
  });

  it('ctx.step keys named like prototype members are recorded and replayed', async () => {
    const ran: string[] = [];
    const node = defineNode({
      id: 'urn:test:again',
      outputs: ['ok', 'again'],
      run: async (item, ctx) => {
        for (const key of PROTOTYPE_NAMES) {
          item.data[`v-${key}`] = await ctx.step(key, () => {
            ran.push(key);
            return `${key}-${ctx.visit}`;
          });
        }
        return ctx.visit < 3 ? 'again' : 'ok';
      },
    });
    const result = await createDispatcher({ nodes: [node], clock: virtualClock() }).run(retryDag('x'), {});
    expect(ran).toEqual(PROTOTYPE_NAMES);
    expect(result.items[0]?.terminal).toBe('done');
    const journal = result.items[0]?.state.journal ?? {};
    expect(Object.getPrototypeOf(journal)).toBeNull();
    expect(Object.keys(journal).sort()).toEqual([...PROTOTYPE_NAMES].sort());
    for (const key of PROTOTYPE_NAMES) expect(result.items[0]?.data[`v-${key}`]).toBe(`${key}-1`);
  });

  it('a checkpoint with prototype-named keys survives a JSON round trip and resumes with its counts', async () => {
    const calls = { n: 0 };
    const dispatcher = createDispatcher({ nodes: [againNode(calls)], clock: virtualClock() });
    const d = retryDag('__proto__');
    const first = await dispatcher.run(d, {});
    const saved = JSON.parse(JSON.stringify(first.items[0]?.state));
    expect(Object.getPrototypeOf(saved.budgets)).toBe(Object.prototype);
    const restored = restoreItemState(saved);
    for (const record of [restored.budgets, restored.visits, restored.journal]) {
      expect(Object.getPrototypeOf(record)).toBeNull();
    }
    expect(Object.entries(restored.budgets)).toContainEqual(['__proto__', 2]);
    expect(restored.budgets.toString).toBeUndefined();
    calls.n = 0;
    // The budget is already spent: the first `again` of the resumed item takes the exhaustion route.
    const resumed = await dispatcher.run(d, {}, { resume: [saved] });
    expect(calls.n).toBe(1);
    expect(resumed.items[0]?.terminal).toBe('gave-up');
  });

  it('a checkpoint whose budgets object inherits a value never reads it', async () => {
    const calls = { n: 0 };
    const dispatcher = createDispatcher({ nodes: [againNode(calls)], clock: virtualClock() });
    const d = retryDag('toString');
    const first = await dispatcher.run(d, {});
    const saved = JSON.parse(JSON.stringify(first.items[0]?.state));
    saved.budgets = {};
    calls.n = 0;
    const resumed = await dispatcher.run(d, {}, { resume: [saved] });
    expect(calls.n).toBe(3);
    expect(resumed.items[0]?.terminal).toBe('gave-up');
  });
});

/** A parent embedding `urn:test:child` at `sub` with the given mappings; the child's node sets `/v`. */
function embedding(input: Mapping[], result: Mapping[]): { parent: Dag; child: Dag } {
  const child = dag('urn:test:child', { name: 'child', version: '1' })
    .entry('work')
    .task('work', 'urn:test:child-work')
    .route('ok', 'done')
    .terminal('done', 'completed')
    .build();
  const safe = dag('urn:test:parent', { name: 'parent', version: '1' })
    .entry('sub')
    .embed('sub', 'urn:test:child', {
      input: input.map((_, i) => ({ from: `/in${i}`, to: `/in${i}` })),
      result: result.map((_, i) => ({ from: `/out${i}`, to: `/out${i}` })),
    })
    .route('completed', 'done')
    .route('failed', 'done')
    .terminal('done', 'completed')
    .build();
  // The hostile pointers go into the model directly, as a document built in code would bypass the schema.
  const placements = safe.placements.map(
    (p): Placement => (p.kind === 'embed' ? { ...p, input, result } : p),
  );
  return { parent: { ...safe, placements }, child };
}

const childWork = defineNode({
  id: 'urn:test:child-work',
  outputs: ['ok'],
  run: (item) => {
    item.data.v = 'yes';
    return 'ok';
  },
});

/** Runs `parent`; returns the item's failure code, the run's refusal code, or 'completed'. */
async function outcomeOf(parent: Dag, child: Dag, input: Record<string, unknown> = {}): Promise<string> {
  const dispatcher = createDispatcher({
    nodes: [childWork],
    library: libraryOf([child]),
    clock: virtualClock(),
  });
  try {
    const result = await dispatcher.run(parent, input);
    return result.failures[0]?.error.code ?? 'completed';
  } catch (error) {
    return (error as { code?: string }).code ?? 'threw';
  }
}

describe('prototype pollution through mappings', () => {
  it("the issue's result mappings (/__proto__ → /p, /v → /p/polluted) set nothing on Object.prototype", async () => {
    const { parent, child } = embedding(
      [],
      [
        { from: '/__proto__', to: '/p' },
        { from: '/v', to: '/p/polluted' },
      ],
    );
    const code = await outcomeOf(parent, child);
    expect(code).toMatch(/^E_(INPUT|SCHEMA|POINTER)/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  const hostile: Array<[string, Mapping[], Mapping[]]> = [
    ['input from /__proto__', [{ from: '/__proto__', to: '/p' }], []],
    ['input from /constructor/prototype', [{ from: '/constructor/prototype', to: '/p' }], []],
    ['input to /__proto__/polluted', [{ from: '/v', to: '/__proto__/polluted' }], []],
    ['result from /constructor', [], [{ from: '/constructor', to: '/c' }]],
    [
      'result to /constructor/prototype/polluted',
      [],
      [{ from: '/v', to: '/constructor/prototype/polluted' }],
    ],
    ['result from /prototype', [], [{ from: '/prototype', to: '/q' }]],
  ];
  for (const [name, input, result] of hostile) {
    it(`${name} is refused with an E_INPUT-class error`, async () => {
      const { parent, child } = embedding(input, result);
      expect(await outcomeOf(parent, child, { v: 'yes' })).toMatch(/^E_(INPUT|SCHEMA|POINTER)/);
    });
  }

  it('a scatter over /__proto__ and a gather into /__proto__/polluted are refused', async () => {
    const body = defineNode({ id: 'urn:test:body', outputs: ['ok'], run: () => 'ok' });
    const build = (items: string, into: string) => {
      const safe = dag('urn:test:fan', { name: 'fan', version: '1' })
        .entry('fan')
        .scatter('fan', { items: '/xs', node: 'urn:test:body' })
        .route('done', 'join')
        .gather('join', { into: '/out', reducer: 'collect' })
        .route('completed', 'ok')
        .route('failed', 'ok')
        .terminal('ok', 'completed')
        .build();
      const placements = safe.placements.map((p): Placement => {
        if (p.kind === 'scatter') return { ...p, items };
        if (p.kind === 'gather') return { ...p, into };
        return p;
      });
      return { ...safe, placements };
    };
    const dispatcher = createDispatcher({ nodes: [body], clock: virtualClock() });
    for (const [items, into] of [
      ['/__proto__', '/out'],
      ['/xs', '/__proto__/polluted'],
      ['/xs', '/constructor/prototype/polluted'],
    ] as const) {
      let result: string | undefined;
      try {
        result = (await dispatcher.run(build(items, into), { xs: [1, 2] })).failures[0]?.error.code;
      } catch (error) {
        result = (error as { code?: string }).code;
      }
      expect(result).toMatch(/^E_(INPUT|SCHEMA|POINTER)/);
    }
  });

  it('input parsed from JSON with an own __proto__ key keeps it as data, never as a prototype', async () => {
    const { parent, child } = embedding([{ from: '', to: '/copy' }], [{ from: '/copy', to: '/back' }]);
    const input = JSON.parse('{"__proto__": {"polluted": "yes"}, "v": 1}') as Record<string, unknown>;
    const dispatcher = createDispatcher({
      nodes: [childWork],
      library: libraryOf([child]),
      clock: virtualClock(),
    });
    const result = await dispatcher.run(parent, input);
    const data = result.items[0]?.data as Record<string, unknown>;
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.hasOwn(data, '__proto__')).toBe(true);
    const back = data.back as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.hasOwn(back, '__proto__')).toBe(true);
    expect(back.polluted).toBeUndefined();
  });

  it('getPointer refuses prototype tokens and reads own properties only', () => {
    for (const token of ['__proto__', 'constructor', 'prototype']) {
      expect(() => getPointer({}, `/${token}`)).toThrow(expect.objectContaining({ code: 'E_INPUT' }));
      expect(() => getPointer({ a: {} }, `/a/${token}/x`)).toThrow(
        expect.objectContaining({ code: 'E_INPUT' }),
      );
    }
    expect(getPointer({}, '/toString')).toBeUndefined();
    expect(getPointer({}, '/hasOwnProperty')).toBeUndefined();
    expect(getPointer([1, 2], '/length')).toBeUndefined();
    expect(getPointer([1, 2], '/')).toBeUndefined();
    expect(getPointer([1, 2], '/01')).toBeUndefined();
    expect(getPointer([1, 2], '/1')).toBe(2);
    expect(getPointer({ toString: 'own' }, '/toString')).toBe('own');
  });

  it('setPointer never writes through an inherited value', () => {
    const root: Record<string, unknown> = {};
    setPointer(root, '/toString/x', 1);
    expect(Object.hasOwn(root, 'toString')).toBe(true);
    expect(root.toString).toEqual({ x: 1 });
    expect(Object.prototype.toString).toBeTypeOf('function');
    expect(() => setPointer({}, '/a/__proto__/polluted', 1)).toThrow(
      expect.objectContaining({ code: 'E_INPUT' }),
    );
  });
});

describe('item data is copied where it must not be shared', () => {
  const appendDag = dag('urn:test:append', { name: 'append', version: '1' })
    .entry('work')
    .task('work', 'urn:test:append')
    .route('ok', 'done')
    .terminal('done', 'completed')
    .build();
  const append = defineNode({
    id: 'urn:test:append',
    outputs: ['ok'],
    run: (item) => {
      (item.data.nested as { list: string[] }).list.push(item.id);
      item.data.touched = true;
      return 'ok';
    },
  });

  it('items holding one object several times each get their own copy', async () => {
    const shared = { nested: { list: [] as string[] } };
    const result = await createDispatcher({ nodes: [append], clock: virtualClock() }).run(
      appendDag,
      {},
      { items: [shared, shared, shared] },
    );
    expect(result.items.map((i) => (i.data.nested as { list: string[] }).list)).toEqual([
      ['1'],
      ['2'],
      ['3'],
    ]);
    expect(shared).toEqual({ nested: { list: [] } });
    const [a, b] = result.items;
    expect(a?.data).not.toBe(b?.data);
    expect(a?.data.nested).not.toBe(b?.data.nested);
  });

  it("the caller's input is never changed by the run", async () => {
    const input = { nested: { list: ['x'] }, when: '1970-01-01T00:00:00.000Z' };
    const result = await createDispatcher({ nodes: [append], clock: virtualClock() }).run(appendDag, input);
    expect(input).toEqual({ nested: { list: ['x'] }, when: '1970-01-01T00:00:00.000Z' });
    expect(input).not.toHaveProperty('touched');
    expect(result.items[0]?.data).toMatchObject({ nested: { list: ['x', '1'] }, touched: true });
    expect(result.items[0]?.data).not.toBe(input);
    expect(result.items[0]?.data.nested).not.toBe(input.nested);
  });

  it('input with a cycle or nested too deep is refused in one line, with a pointer to where', async () => {
    const dispatcher = createDispatcher({ nodes: [append], clock: virtualClock() });
    const cyclic: Record<string, unknown> = { nested: { list: [] } };
    cyclic.self = cyclic;
    await expect(dispatcher.run(appendDag, cyclic)).rejects.toMatchObject({
      code: 'E_ITEM_DATA',
      message: expect.stringMatching(/^the input holds a reference back .* at \/self,/u),
    });
    let deep: Record<string, unknown> = { nested: { list: [] } };
    for (let i = 0; i < 50_000; i++) deep = { nested: { list: [] }, inner: deep };
    await expect(dispatcher.run(appendDag, deep)).rejects.toMatchObject({
      code: 'E_ITEM_DATA',
      message: expect.not.stringContaining('\n'),
    });
  });

  it('saved states given as resume are checked as input items are', async () => {
    const dispatcher = createDispatcher({ nodes: [append], clock: virtualClock() });
    const first = await dispatcher.run(appendDag, { nested: { list: [] } });
    const saved = first.items[0]?.state;
    if (saved === undefined) throw new Error('no state');
    const run = dispatcher.run(appendDag, {}, { resume: [{ ...saved, data: { due: new Date(0) } }] });
    await expect(run).rejects.toMatchObject({
      code: 'E_ITEM_DATA',
      message: expect.stringMatching(/^resume\[0\]\.data holds a Date at \/due, .*toISOString/u),
    });
  });

  it('saved states whose data is no object are refused as an input item is, whatever the value', async () => {
    const dispatcher = createDispatcher({ nodes: [append], clock: virtualClock() });
    const first = await dispatcher.run(appendDag, { nested: { list: [] } });
    const saved = first.items[0]?.state;
    if (saved === undefined) throw new Error('no state');
    for (const data of [5, null, [1], 'text', undefined]) {
      const run = dispatcher.run(appendDag, {}, { resume: [{ ...saved, data } as unknown as typeof saved] });
      await expect(run).rejects.toMatchObject({
        code: 'E_ITEM_DATA',
        message: expect.stringMatching(
          /^resume\[0\]\.data is (a number|null|an array|a string|undefined), which item data cannot be \(it must be a plain object\); give the item a plain object of data$/u,
        ),
      });
    }
  });

  it("a resumed run never writes into the caller's checkpoint objects", async () => {
    const dispatcher = createDispatcher({ nodes: [append], clock: virtualClock() });
    const first = await dispatcher.run(appendDag, { nested: { list: [] } });
    const saved = first.items[0]?.state;
    if (saved === undefined) throw new Error('no state');
    const snapshot = structuredClone(saved);
    const second = await dispatcher.run(appendDag, {}, { resume: [saved] });
    expect(saved).toEqual(snapshot);
    const state = second.items[0]?.state;
    expect(state).not.toBe(saved);
    expect(state?.data).not.toBe(saved.data);
    expect(state?.budgets).not.toBe(saved.budgets);
    expect(state?.journal).not.toBe(saved.journal);
    expect(state?.visits).not.toBe(saved.visits);
    expect(state?.trail).not.toBe(saved.trail);
    expect(state?.data.nested).toEqual({ list: ['1', '1'] });
    expect(state?.visits.work).toBe(2);
    expect(saved.visits.work).toBe(1);
  });

  it('scatter children get their own copy of a list element, even one listed twice', async () => {
    const body = defineNode({
      id: 'urn:test:body',
      outputs: ['ok'],
      run: (item) => {
        const element = item.data.item as { seen: number[] };
        element.seen.push(item.data.index as number);
        item.data.result = element;
        return 'ok';
      },
    });
    const fan = dag('urn:test:fan', { name: 'fan', version: '1' })
      .entry('fan')
      .scatter('fan', { items: '/xs', node: 'urn:test:body' })
      .route('done', 'join')
      .gather('join', { into: '/out', reducer: 'collect' })
      .route('completed', 'ok')
      .route('failed', 'ok')
      .terminal('ok', 'completed')
      .build();
    const element = { seen: [] as number[] };
    const result = await createDispatcher({ nodes: [body], clock: virtualClock() }).run(fan, {
      xs: [element, element],
    });
    const data = result.items[0]?.data as { xs: Array<{ seen: number[] }>; out: Array<{ seen: number[] }> };
    expect(data.out).toEqual([{ seen: [0] }, { seen: [1] }]);
    expect(data.xs).toEqual([{ seen: [] }, { seen: [] }]);
    expect(data.out[0]).not.toBe(data.xs[0]);
    expect(element.seen).toEqual([]);
  });

  it('embed mappings copy values in and out: no object is shared between parent and child', async () => {
    let childData: Record<string, unknown> | undefined;
    const keep = defineNode({
      id: 'urn:test:child-work',
      outputs: ['ok'],
      run: (item) => {
        childData = item.data;
        (item.data.box as { n: number }).n++;
        item.data.made = { list: [1] };
        return 'ok';
      },
    });
    const { parent, child } = embedding(
      [{ from: '/box', to: '/box' }],
      [
        { from: '/made', to: '/a' },
        { from: '/made', to: '/b' },
      ],
    );
    const dispatcher = createDispatcher({
      nodes: [keep],
      library: libraryOf([child]),
      clock: virtualClock(),
    });
    const box = { n: 1 };
    const result = await dispatcher.run(parent, { box });
    const data = result.items[0]?.data as {
      box: { n: number };
      a: { list: number[] };
      b: { list: number[] };
    };
    expect(box.n).toBe(1);
    expect(data.box.n).toBe(1);
    expect(childData?.box).toEqual({ n: 2 });
    expect(data.a).toEqual({ list: [1] });
    expect(data.a).not.toBe(data.b);
    expect(data.a).not.toBe(childData?.made);
  });
});

/**
 * Runs `body` while counting the abort listeners added to each signal (removals subtract); returns the
 * most that any one signal had at a time. A structural check: no timing involved.
 */
async function mostAbortListeners(body: () => Promise<void>): Promise<number> {
  const proto = EventTarget.prototype;
  const add = proto.addEventListener;
  const remove = proto.removeEventListener;
  const counts = new WeakMap<object, number>();
  let most = 0;
  proto.addEventListener = function (
    this: EventTarget,
    ...args: Parameters<EventTarget['addEventListener']>
  ) {
    if (args[0] === 'abort' && this instanceof AbortSignal) {
      const n = (counts.get(this) ?? 0) + 1;
      counts.set(this, n);
      most = Math.max(most, n);
    }
    return add.apply(this, args);
  };
  proto.removeEventListener = function (
    this: EventTarget,
    ...args: Parameters<EventTarget['removeEventListener']>
  ) {
    if (args[0] === 'abort' && this instanceof AbortSignal)
      counts.set(this, Math.max(0, (counts.get(this) ?? 0) - 1));
    return remove.apply(this, args);
  };
  try {
    await body();
  } finally {
    proto.addEventListener = add;
    proto.removeEventListener = remove;
  }
  return most;
}

/** A promise and the function that settles it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe('abort listeners on the run signal', () => {
  const ITEMS = 300;
  const single = dag('urn:test:single', { name: 'single', version: '1' })
    .budget('again', 1)
    .entry('work')
    .task('work', 'urn:test:work')
    .route('ok', 'done')
    .retry('again', 'work', { budget: 'again', exhausted: 'done' })
    .terminal('done', 'completed')
    .build();
  const policy = {
    defaults: { concurrency: 1_000_000, backoff: { strategy: 'constant', baseMs: 1000 }, jitter: 'none' },
  } as const;
  const items = Array.from({ length: ITEMS }, () => ({}));

  it('many asynchronous executions in flight share one listener on the run signal', async () => {
    const release = gate();
    const allIn = gate();
    let started = 0;
    const work = defineNode({
      id: 'urn:test:work',
      outputs: ['ok', 'again'],
      run: async () => {
        if (++started === ITEMS) allIn.open();
        await release.promise;
        return 'ok';
      },
    });
    const most = await mostAbortListeners(async () => {
      const run = createDispatcher({ nodes: [work], policy, clock: virtualClock() }).run(
        single,
        {},
        { items },
      );
      await allIn.promise;
      release.open();
      expect((await run).items).toHaveLength(ITEMS);
    });
    expect(most).toBeLessThanOrEqual(2);
  });

  it('nodes that listen on ctx.signal each get a signal of their own, and an abort still reaches them all', async () => {
    let allIn = gate();
    const signals: AbortSignal[] = [];
    let heard = 0;
    const work = defineNode({
      id: 'urn:test:work',
      outputs: ['ok', 'again'],
      run: (_item, ctx: NodeContext) => {
        // As an HTTP client given ctx.signal would.
        ctx.signal.addEventListener('abort', () => heard++, { once: true });
        signals.push(ctx.signal);
        if (signals.length === ITEMS) allIn.open();
        return new Promise<never>(() => undefined);
      },
    });
    for (const deadlineMs of [undefined, 60_000]) {
      signals.length = 0;
      heard = 0;
      allIn = gate();
      const user = new AbortController();
      const withDeadline =
        deadlineMs === undefined ? policy : { defaults: { ...policy.defaults, deadlineMs } };
      const most = await mostAbortListeners(async () => {
        const run = createDispatcher({
          nodes: [work],
          policy: withDeadline,
          clock: createVirtualClock(),
        }).run(single, {}, { items, signal: user.signal });
        await allIn.promise;
        user.abort(new Error('stop'));
        const result = await run;
        expect(result.aborted).toHaveLength(ITEMS);
      });
      expect(most).toBeLessThanOrEqual(2);
      expect(new Set(signals).size).toBe(ITEMS);
      expect(signals.every((s) => s.aborted)).toBe(true);
      expect(heard).toBe(ITEMS);
    }
  });

  it('many items waiting out a back-off share one listener on the run signal', async () => {
    const clock = createVirtualClock();
    const work = defineNode({
      id: 'urn:test:work',
      outputs: ['ok', 'again'],
      run: (_item, ctx) => (ctx.visit === 1 ? 'again' : 'ok'),
    });
    const most = await mostAbortListeners(async () => {
      const run = createDispatcher({ nodes: [work], policy, clock }).run(single, {}, { items });
      for (let i = 0; i < 20 && clock.pending() < ITEMS; i++) await new Promise((r) => setImmediate(r));
      expect(clock.pending()).toBe(ITEMS);
      await clock.runUntilIdle();
      const result = await run;
      expect(result.items.map((i) => i.terminal)).toEqual(items.map(() => 'done'));
    });
    expect(most).toBeLessThanOrEqual(2);
  });
});
