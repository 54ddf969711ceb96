import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { type CompiledPlacement, compile } from '../../src/graph/compile.ts';
import { defaultTiming } from '../../src/policy/defaults.ts';
import type { TimingPolicy } from '../../src/policy/types.ts';
import { type DecideContext, decide } from '../../src/runtime/decide.ts';
import { engineError } from '../../src/runtime/error-summary.ts';
import { createItemState } from '../../src/runtime/item-state.ts';

const compiled = compile(
  dag('urn:test:decide', { name: 'd', version: '1' })
    .budget('tries', 2)
    .budget('outer', 1)
    .entry('a')
    .task('a', 'urn:test:a')
    .route('ok', 'done')
    .retry('retry', 'a', { budget: 'tries', exhausted: 'rescue' })
    .retry('again', 'a', { budget: 'outer', exhausted: 'done', resets: ['tries'] })
    .salvage('error', 'rescue')
    .task('b', 'urn:test:b')
    .route('ok', 'done')
    .task('rescue', 'urn:test:rescue')
    .route('ok', 'done')
    .terminal('done', 'completed')
    .build(),
);
const a = placement('a');
const b = placement('b');
function placement(key: string): CompiledPlacement {
  const found = compiled.byKey.get(key);
  if (!found) throw new Error(`no placement ${key}`);
  return found;
}
const timing: TimingPolicy = {
  ...defaultTiming,
  jitter: 'none',
  backoff: { strategy: 'exponential', baseMs: 100, factor: 2, capMs: 1000 },
};
/** Jitter is `none`, so the random value must not matter. */
const never = () => 0.5;
/** The context of a decision at `now` in a run without a deadline, unless `over` says otherwise. */
function ctx(over: Partial<DecideContext> = {}): DecideContext {
  return { timing, budgets: compiled.budgets, now: 0, runDeadlineAt: Infinity, random: never, ...over };
}

describe('decide', () => {
  it('goes along next and salvage routes', () => {
    const state = createItemState('1', {});
    expect(decide(a, state, { output: 'ok' }, ctx())).toMatchObject({
      type: 'go',
      target: { key: 'done' },
    });
    expect(decide(a, state, { output: 'error' }, ctx())).toMatchObject({
      type: 'go',
      target: { key: 'rescue' },
      route: { kind: 'salvage' },
    });
  });

  it('waits with the back-off of the attempt after spending, without touching the state', () => {
    const state = createItemState('1', {});
    state.budgets.tries = 1;
    const d = decide(a, state, { output: 'retry', reason: 'flaky' }, ctx({ now: 50 }));
    expect(d).toMatchObject({
      type: 'wait',
      budget: 'tries',
      attempt: 2,
      delayMs: 200,
      delaySource: 'backoff',
      reason: 'flaky',
    });
    expect(state.budgets).toEqual({ tries: 1 });
  });

  it('is exhausted when spent, or when the wait would pass the run deadline', () => {
    const state = createItemState('1', {});
    expect(decide(a, state, { output: 'retry' }, ctx({ now: 950, runDeadlineAt: 1000 }))).toMatchObject({
      type: 'exhausted',
      why: 'deadline',
      target: { key: 'rescue' },
    });
    expect(decide(a, state, { output: 'retry' }, ctx({ now: 899, runDeadlineAt: 1000 }))).toMatchObject({
      type: 'wait',
      delayMs: 100,
    });
    state.budgets.tries = 2;
    expect(decide(a, state, { output: 'retry' }, ctx())).toMatchObject({ type: 'exhausted', why: 'spent' });
  });

  it('prefers a Retry-After hint, capped by the policy', () => {
    const state = createItemState('1', {});
    expect(decide(a, state, { output: 'retry' }, ctx({ retryAfter: '90' }))).toMatchObject({
      delayMs: 60_000,
      delaySource: 'retry-after',
    });
  });

  it("reads an HTTP-date Retry-After against the wall clock, and a thrown error's own hint", () => {
    const state = createItemState('1', {});
    const wallNow = Date.parse('2026-01-01T00:00:00Z');
    const date = new Date(wallNow + 5000).toUTCString();
    expect(decide(a, state, { output: 'retry' }, ctx({ now: 7, wallNow, retryAfter: date }))).toMatchObject({
      delayMs: 5000,
      delaySource: 'retry-after',
    });
    const busy = { error: { ...engineError('E_NODE_ERROR', 'busy', 'http', true), retryAfter: 250 } };
    expect(decide(a, state, busy, ctx())).toMatchObject({ delayMs: 250, delaySource: 'retry-after' });
    expect(decide(a, state, busy, ctx({ retryAfter: 40 }))).toMatchObject({ delayMs: 40 });
  });

  it('grows a decorrelated back-off from the last delay of the same budget', () => {
    const state = createItemState('1', {});
    const decorrelated: TimingPolicy = {
      ...timing,
      backoff: { strategy: 'decorrelated', baseMs: 100, factor: 3, capMs: 10_000 },
    };
    const top = () => 0.999_999;
    const first = decide(a, state, { output: 'retry' }, ctx({ timing: decorrelated, random: top }));
    expect(first).toMatchObject({ type: 'wait', delayMs: 299 });
    const delays = new Map([
      ['tries', 1000],
      ['outer', 5],
    ]);
    const grown = decide(a, state, { output: 'retry' }, ctx({ timing: decorrelated, random: top, delays }));
    expect(grown).toMatchObject({ type: 'wait', delayMs: 2999 });
  });

  it('routes thrown errors: retryable → retry route, else error route, else fail', () => {
    const state = createItemState('1', {});
    const retryable = { error: engineError('E_NODE_ERROR', 'busy', 'http', true) };
    const fatal = { error: engineError('E_NODE_ERROR', 'bad', 'http', false) };
    expect(decide(a, state, retryable, ctx())).toMatchObject({
      type: 'wait',
      output: 'retry',
      reason: 'busy',
    });
    expect(decide(a, state, fatal, ctx())).toMatchObject({
      type: 'go',
      output: 'error',
    });
    expect(decide(b, state, retryable, ctx())).toMatchObject({
      type: 'fail',
      error: { message: 'busy' },
    });
  });

  it('fails an output without a route with E_UNROUTED_OUTPUT', () => {
    const d = decide(a, createItemState('1', {}), { output: 'odd' }, ctx());
    expect(d).toMatchObject({ type: 'fail', output: 'odd', error: { engineCode: 'E_UNROUTED_OUTPUT' } });
  });
});
