import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { libraryOf } from '../../src/document/load.ts';
import type { Dag } from '../../src/document/model.ts';
import { isSwitchyardError } from '../../src/errors.ts';
import { compile } from '../../src/graph/compile.ts';
import { defaultPolicy } from '../../src/policy/defaults.ts';
import { seededRandom } from '../../src/policy/random.ts';
import { resolvePolicy } from '../../src/policy/resolve.ts';
import { createVirtualClock, type VirtualClock } from '../../src/policy/virtual-clock.ts';
import { decide } from '../../src/runtime/decide.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { createItemState } from '../../src/runtime/item-state.ts';
import { defineNode } from '../../src/runtime/node.ts';

const auto = (): VirtualClock => createVirtualClock({ auto: true });

function recorder() {
  const events: RunEvent[] = [];
  return {
    events,
    onEvent: (e: RunEvent) => {
      events.push(e);
    },
    of: <T extends RunEvent['type']>(type: T) =>
      events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type),
  };
}

async function refusal(promise: PromiseLike<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isSwitchyardError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

/** fan (scatter over /xs through `body`) → join (gather) → ok. */
function fan(
  body: { node: string } | { dag: string },
  reducer: 'collect' | 'first',
  require: 'all' | 'any',
): Dag {
  return dag('urn:test:fan', { name: 'fan', version: '1' })
    .entry('fan')
    .scatter('fan', { items: '/xs', ...body })
    .route('done', 'join')
    .gather('join', { into: '/out', reducer, require })
    .route('completed', 'ok')
    .route('failed', 'ko')
    .terminal('ok', 'completed')
    .terminal('ko', 'failed')
    .build();
}

describe('scatter concurrency bounds the children in flight across the whole run', () => {
  it('three items scattering four children each never have more than the limit running at once', async () => {
    const clock = auto();
    let inFlight = 0;
    let peak = 0;
    const body = defineNode({
      id: 'urn:test:body',
      outputs: ['ok'],
      run: async (item, ctx) => {
        peak = Math.max(peak, ++inFlight);
        await clock.sleep(10, ctx.signal);
        inFlight--;
        item.data.result = item.data.item;
        return 'ok';
      },
    });
    const result = await createDispatcher({
      nodes: [body],
      clock,
      policy: { placements: { fan: { concurrency: 2 } } },
    }).run(
      fan({ node: body.id }, 'collect', 'all'),
      {},
      {
        items: [{ xs: [1, 2, 3, 4] }, { xs: [5, 6, 7, 8] }, { xs: [9, 10, 11, 12] }],
      },
    );
    expect(peak).toBe(2);
    // 12 children of 10 ms, two at a time.
    expect(clock.now()).toBe(60);
    expect(result.items.map((i) => i.data.out)).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [9, 10, 11, 12],
    ]);
  });

  it('holds for sub-DAG bodies too', async () => {
    const clock = auto();
    let inFlight = 0;
    let peak = 0;
    const work = defineNode({
      id: 'urn:test:work',
      outputs: ['ok'],
      run: async (_item, ctx) => {
        peak = Math.max(peak, ++inFlight);
        await clock.sleep(10, ctx.signal);
        inFlight--;
        return 'ok';
      },
    });
    const child = dag('urn:test:child', { name: 'child', version: '1' })
      .entry('work')
      .task('work', work.id)
      .route('ok', 'done')
      .terminal('done', 'completed')
      .build();
    await createDispatcher({
      nodes: [work],
      clock,
      library: libraryOf([child]),
      policy: { placements: { fan: { concurrency: 3 } } },
    }).run(
      fan({ dag: child.id }, 'collect', 'all'),
      {},
      {
        items: [{ xs: [1, 2] }, { xs: [3, 4] }, { xs: [5, 6] }, { xs: [7, 8] }],
      },
    );
    expect(peak).toBe(3);
  });
});

describe('a batch node is never called after the run was aborted', () => {
  it('items queued for a batch when the run aborts stop where they stood, and the batch never runs', async () => {
    let batches = 0;
    const batcher = defineNode({
      id: 'urn:test:batch',
      outputs: ['ok'],
      batch: async (items) => {
        batches++;
        return items.map(() => 'ok' as const);
      },
    });
    const d = dag('urn:test:batched', { name: 'batched', version: '1' })
      .entry('b')
      .task('b', batcher.id)
      .route('ok', 'done')
      .terminal('done', 'completed')
      .build();
    const controller = new AbortController();
    const result = await createDispatcher({ nodes: [batcher], clock: auto() }).run(
      d,
      {},
      {
        items: [{}, {}, {}],
        signal: controller.signal,
        // The third item reaching the batch placement aborts the run: the first two are already queued.
        onEvent: (e) => {
          if (e.type === 'placement.start' && e.item === '3') controller.abort(new Error('stop'));
        },
      },
    );
    expect(batches).toBe(0);
    expect(result.status).toBe('aborted');
    expect(result.items).toEqual([]);
    expect(result.aborted.map((a) => [a.item, a.placement])).toEqual([
      ['1', 'b'],
      ['2', 'b'],
      ['3', 'b'],
    ]);
  });
});

describe('a retry wait that ends exactly at the run deadline is not taken', () => {
  const d = dag('urn:test:deadline', { name: 'deadline', version: '1' })
    .budget('again', 3)
    .entry('work')
    .task('work', 'urn:test:slow')
    .route('ok', 'done')
    .retry('again', 'work', { budget: 'again', exhausted: 'gave_up' })
    .terminal('done', 'completed')
    .terminal('gave_up', 'failed')
    .build();

  async function runWithDelay(delayMs: number) {
    const clock = auto();
    const slow = defineNode({
      id: 'urn:test:slow',
      outputs: ['ok', 'again'],
      run: async (_item, ctx) => {
        await clock.sleep(900, ctx.signal);
        return 'again';
      },
    });
    const rec = recorder();
    const result = await createDispatcher({
      nodes: [slow],
      clock,
      policy: { defaults: { backoff: { strategy: 'constant', baseMs: delayMs }, jitter: 'none' } },
    }).run(d, {}, { deadlineMs: 1000, onEvent: rec.onEvent });
    return { result, rec };
  }

  it('a wait ending at the deadline takes the exhaustion route with why deadline', async () => {
    const { result, rec } = await runWithDelay(100);
    expect(rec.of('retry.scheduled')).toEqual([]);
    expect(rec.of('budget.exhausted')).toMatchObject([{ why: 'deadline', to: 'gave_up', time: 900 }]);
    expect(result.items).toMatchObject([{ terminal: 'gave_up' }]);
  });

  it('a wait ending a millisecond before it is taken', async () => {
    const { rec } = await runWithDelay(99);
    expect(rec.of('retry.scheduled')).toMatchObject([{ delayMs: 99, time: 900 }]);
  });

  it('decide draws the same line: now + delay >= deadline is exhausted', () => {
    const compiled = compile(d);
    const at = compiled.byKey.get('work');
    if (at === undefined) throw new Error('no work placement');
    const timing = resolvePolicy({
      defaults: { backoff: { strategy: 'constant', baseMs: 100 }, jitter: 'none' },
    }).defaults;
    const at900 = (deadline: number) =>
      decide(
        at,
        createItemState('1', {}),
        { output: 'again' },
        {
          timing,
          budgets: compiled.budgets,
          now: 900,
          runDeadlineAt: deadline,
          random: seededRandom(1),
        },
      );
    expect(at900(1000)).toMatchObject({ type: 'exhausted', why: 'deadline' });
    expect(at900(1001)).toMatchObject({ type: 'wait', delayMs: 100 });
  });
});

describe('a run deadline that is not a positive finite number is refused', () => {
  const d = dag('urn:test:one', { name: 'one', version: '1' })
    .entry('work')
    .task('work', 'urn:test:ok')
    .route('ok', 'done')
    .terminal('done', 'completed')
    .build();
  let calls = 0;
  const ok = defineNode({
    id: 'urn:test:ok',
    outputs: ['ok'],
    run: () => {
      calls++;
      return 'ok';
    },
  });

  for (const bad of [Number.NaN, 0, -1, Number.POSITIVE_INFINITY, 'Infinity', '100', {}, null]) {
    it(`RunOptions.deadlineMs ${typeof bad === 'string' ? JSON.stringify(bad) : String(bad)} → E_INPUT`, async () => {
      calls = 0;
      const run = createDispatcher({ nodes: [ok], clock: auto() }).run(d, {}, { deadlineMs: bad as number });
      const { code, message } = await refusal(run);
      expect(code).toBe('E_INPUT');
      expect(message).toContain('deadlineMs');
      expect(message).not.toContain('\n');
      expect(calls).toBe(0);
    });
  }

  for (const bad of [Number.NaN, 0, -1, Number.POSITIVE_INFINITY, 'Infinity']) {
    it(`policy run.deadlineMs ${String(bad)} → E_POLICY, also in an object made to look resolved`, () => {
      expect(() => createDispatcher({ nodes: [ok], policy: { run: { deadlineMs: bad as number } } })).toThrow(
        expect.objectContaining({ code: 'E_POLICY' }),
      );
      const lookalike = Object.freeze({
        ...defaultPolicy,
        run: Object.freeze({ deadlineMs: bad as number }),
      });
      expect(() => createDispatcher({ nodes: [ok], policy: lookalike })).toThrow(
        expect.objectContaining({ code: 'E_POLICY' }),
      );
    });
  }
});

describe('a retryAfter that is not a usable hint is ignored with a warning', () => {
  const d = dag('urn:test:hint', { name: 'hint', version: '1' })
    .budget('again', 1)
    .entry('work')
    .task('work', 'urn:test:hinter')
    .route('ok', 'done')
    .retry('again', 'work', { budget: 'again', exhausted: 'gave_up' })
    .terminal('done', 'completed')
    .terminal('gave_up', 'failed')
    .build();

  for (const hint of [{}, true, [1], Number.NaN, -5, 'soon', null]) {
    it(`retryAfter ${JSON.stringify(hint) ?? String(hint)}: back-off applies, a W_RETRY_AFTER_IGNORED warning`, async () => {
      const hinter = defineNode({
        id: 'urn:test:hinter',
        outputs: ['ok', 'again'],
        run: (_item, ctx) => (ctx.visit > 1 ? 'ok' : ({ output: 'again', retryAfter: hint } as never)),
      });
      const rec = recorder();
      const result = await createDispatcher({
        nodes: [hinter],
        clock: auto(),
        policy: { defaults: { backoff: { strategy: 'constant', baseMs: 7 }, jitter: 'none' } },
      }).run(d, {}, { onEvent: rec.onEvent });
      expect(result.failures).toEqual([]);
      expect(result.items).toMatchObject([{ terminal: 'done' }]);
      expect(rec.of('retry.scheduled')).toMatchObject([{ delayMs: 7, delaySource: 'backoff' }]);
      expect(rec.of('warning')).toMatchObject([
        { code: 'W_RETRY_AFTER_IGNORED', item: '1', placement: 'work', dag: d.id },
      ]);
    });
  }
});

describe('an async event listener that rejects does not crash the process', () => {
  it('each rejection is caught and reported in listenerErrors, and the run completes', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const ok = defineNode({ id: 'urn:test:ok', outputs: ['ok'], run: async () => 'ok' });
      const d = dag('urn:test:one', { name: 'one', version: '1' })
        .entry('work')
        .task('work', ok.id)
        .route('ok', 'done')
        .terminal('done', 'completed')
        .build();
      let calls = 0;
      const boom = new Error('listener failed');
      const result = await createDispatcher({ nodes: [ok], clock: auto() }).run(
        d,
        {},
        {
          onEvent: async () => {
            calls++;
            throw boom;
          },
        },
      );
      await new Promise((resolve) => setImmediate(resolve));
      expect(result.status).toBe('completed');
      expect(calls).toBeGreaterThan(0);
      expect(result.listenerErrors).toEqual({ count: calls, first: boom });
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('first gathers cancel the children still running once the result is decided', () => {
  it('node bodies: unstarted children never start, running ones are aborted and reported as cancelled', async () => {
    const clock = auto();
    const started: number[] = [];
    const reasons: unknown[] = [];
    const sleepy = defineNode({
      id: 'urn:test:sleepy',
      outputs: ['ok'],
      run: async (item, ctx) => {
        const ms = item.data.item as number;
        started.push(ms);
        let finished = false;
        ctx.signal.addEventListener('abort', () => {
          if (!finished) reasons.push(ctx.signal.reason);
        });
        await clock.sleep(ms, ctx.signal);
        finished = true;
        item.data.result = ms;
        return 'ok';
      },
    });
    const rec = recorder();
    const result = await createDispatcher({
      nodes: [sleepy],
      clock,
      policy: { placements: { fan: { concurrency: 2 } } },
    }).run(fan({ node: sleepy.id }, 'first', 'any'), { xs: [300, 100, 200, 400] }, { onEvent: rec.onEvent });
    expect(result.items).toMatchObject([{ terminal: 'ok', data: { out: 100 } }]);
    expect(result.failures).toEqual([]);
    expect(started).toEqual([300, 100]);
    expect(reasons).toHaveLength(1);
    expect(isSwitchyardError(reasons[0]) && reasons[0].code).toBe('E_CANCELLED');
    expect(clock.now()).toBe(100);
    expect(
      rec
        .of('item.cancelled')
        .map((e) => [e.item, e.placement, e.waitingFor])
        .sort(),
    ).toEqual([
      ['1.0', 'fan', 'node'],
      ['1.2', 'fan', 'queue'],
      ['1.3', 'fan', 'queue'],
    ]);
    expect(rec.of('item.failed')).toEqual([]);
  });

  it('sub-DAG bodies: the running children stop where they stand, in their own document', async () => {
    const clock = auto();
    let calls = 0;
    const work = defineNode({
      id: 'urn:test:work',
      outputs: ['ok'],
      run: async (item, ctx) => {
        calls++;
        await clock.sleep(item.data.item as number, ctx.signal);
        item.data.result = item.data.item;
        return 'ok';
      },
    });
    const child = dag('urn:test:child', { name: 'child', version: '1' })
      .entry('work')
      .task('work', work.id)
      .route('ok', 'done')
      .terminal('done', 'completed')
      .build();
    const rec = recorder();
    const result = await createDispatcher({ nodes: [work], clock, library: libraryOf([child]) }).run(
      fan({ dag: child.id }, 'first', 'any'),
      { xs: [50, 20, 70] },
      { onEvent: rec.onEvent },
    );
    expect(result.items).toMatchObject([{ terminal: 'ok', data: { out: 20 } }]);
    expect(calls).toBe(3);
    expect(clock.now()).toBe(20);
    expect(
      rec
        .of('item.cancelled')
        .map((e) => [e.item, e.dag, e.placement, e.waitingFor])
        .sort(),
    ).toEqual([
      ['1.0', child.id, 'work', 'node'],
      ['1.2', child.id, 'work', 'node'],
    ]);
  });

  it('under require all, a failed child and a completed one decide the gather: the rest are cancelled', async () => {
    const clock = auto();
    let calls = 0;
    const body = defineNode({
      id: 'urn:test:body',
      outputs: ['ok', 'failed'],
      run: async (item, ctx) => {
        calls++;
        const ms = item.data.item as number;
        await clock.sleep(ms, ctx.signal);
        item.data.result = ms;
        return ms === 20 ? 'failed' : 'ok';
      },
    });
    const result = await createDispatcher({ nodes: [body], clock }).run(
      fan({ node: body.id }, 'first', 'all'),
      {
        xs: [10, 20, 500, 600],
      },
    );
    expect(result.items).toMatchObject([{ terminal: 'ko', data: { out: 10 } }]);
    expect(calls).toBe(4);
    expect(clock.now()).toBe(20);
  });

  it('a collect gather reads every child, so none is cancelled', async () => {
    const clock = auto();
    const body = defineNode({
      id: 'urn:test:body',
      outputs: ['ok'],
      run: async (item, ctx) => {
        await clock.sleep(item.data.item as number, ctx.signal);
        item.data.result = item.data.item;
        return 'ok';
      },
    });
    const rec = recorder();
    const result = await createDispatcher({ nodes: [body], clock }).run(
      fan({ node: body.id }, 'collect', 'any'),
      { xs: [30, 10, 20] },
      { onEvent: rec.onEvent },
    );
    expect(result.items).toMatchObject([{ data: { out: [30, 10, 20] } }]);
    expect(rec.of('item.cancelled')).toEqual([]);
  });
});

describe('an unusable Retry-After on a thrown error is ignored with a warning too', () => {
  it('a retry-after header of "soon" gives the back-off and a W_RETRY_AFTER_IGNORED warning', async () => {
    const thrower = defineNode({
      id: 'urn:test:thrower',
      outputs: ['ok'],
      run: (_item, ctx) =>
        ctx.visit > 1
          ? 'ok'
          : Promise.reject(
              Object.assign(new Error('busy'), { status: 503, headers: { 'retry-after': 'soon' } }),
            ),
    });
    const d = dag('urn:test:thrown', { name: 'thrown', version: '1' })
      .budget('again', 1)
      .entry('work')
      .task('work', thrower.id)
      .route('ok', 'done')
      .retry('retry', 'work', { budget: 'again', exhausted: 'gave_up' })
      .terminal('done', 'completed')
      .terminal('gave_up', 'failed')
      .build();
    const rec = recorder();
    const result = await createDispatcher({
      nodes: [thrower],
      clock: auto(),
      policy: { defaults: { backoff: { strategy: 'constant', baseMs: 7 }, jitter: 'none' } },
    }).run(d, {}, { onEvent: rec.onEvent });
    expect(result.items).toMatchObject([{ terminal: 'done' }]);
    expect(rec.of('retry.scheduled')).toMatchObject([{ delayMs: 7, delaySource: 'backoff' }]);
    expect(rec.of('warning')).toMatchObject([{ code: 'W_RETRY_AFTER_IGNORED', placement: 'work' }]);
  });
});

describe('first gathers and the run-wide scatter limit together', () => {
  it('cancelled children give their slots back and queued ones leave the queue; every item gets its winner', async () => {
    const clock = auto();
    let inFlight = 0;
    let peak = 0;
    const sleepy = defineNode({
      id: 'urn:test:sleepy',
      outputs: ['ok'],
      run: async (item, ctx) => {
        peak = Math.max(peak, ++inFlight);
        try {
          await clock.sleep(item.data.item as number, ctx.signal);
        } finally {
          inFlight--;
        }
        item.data.result = item.data.item;
        return 'ok';
      },
    });
    const rec = recorder();
    const result = await createDispatcher({
      nodes: [sleepy],
      clock,
      policy: { placements: { fan: { concurrency: 2 } } },
    }).run(
      fan({ node: sleepy.id }, 'first', 'any'),
      {},
      {
        items: [{ xs: [100, 10, 200] }, { xs: [30, 300, 5] }, { xs: [7, 70, 700] }],
        onEvent: rec.onEvent,
      },
    );
    expect(peak).toBe(2);
    expect(result.items.map((i) => i.data.out)).toEqual([10, 30, 7]);
    expect(result.failures).toEqual([]);
    // Every child ended once: completed (the three winners), or cancelled.
    const cancelled = rec.of('item.cancelled').map((e) => e.item);
    expect(new Set(cancelled).size).toBe(cancelled.length);
    expect(cancelled).toHaveLength(6);
    expect(clock.now()).toBeLessThan(700);
  });
});
