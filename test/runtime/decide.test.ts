import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { type CompiledPlacement, compile } from '../../src/graph/compile.ts';
import { defaultTiming } from '../../src/policy/defaults.ts';
import type { TimingPolicy } from '../../src/policy/types.ts';
import { decide } from '../../src/runtime/decide.ts';
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

describe('decide', () => {
  it('goes along next and salvage routes', () => {
    const state = createItemState('1', {});
    expect(decide(a, compiled.budgets, state, { output: 'ok' }, timing, 0, Infinity, never)).toMatchObject({
      type: 'go',
      target: { key: 'done' },
    });
    expect(decide(a, compiled.budgets, state, { output: 'error' }, timing, 0, Infinity, never)).toMatchObject(
      { type: 'go', target: { key: 'rescue' }, route: { kind: 'salvage' } },
    );
  });

  it('waits with the back-off of the attempt after spending, without touching the state', () => {
    const state = createItemState('1', {});
    state.budgets.tries = 1;
    const d = decide(
      a,
      compiled.budgets,
      state,
      { output: 'retry', reason: 'flaky' },
      timing,
      50,
      Infinity,
      never,
    );
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
    expect(decide(a, compiled.budgets, state, { output: 'retry' }, timing, 950, 1000, never)).toMatchObject({
      type: 'exhausted',
      why: 'deadline',
      target: { key: 'rescue' },
    });
    expect(decide(a, compiled.budgets, state, { output: 'retry' }, timing, 899, 1000, never)).toMatchObject({
      type: 'wait',
      delayMs: 100,
    });
    state.budgets.tries = 2;
    expect(decide(a, compiled.budgets, state, { output: 'retry' }, timing, 0, Infinity, never)).toMatchObject(
      { type: 'exhausted', why: 'spent' },
    );
  });

  it('prefers a Retry-After hint, capped by the policy', () => {
    const state = createItemState('1', {});
    expect(
      decide(a, compiled.budgets, state, { output: 'retry' }, timing, 0, Infinity, never, '90'),
    ).toMatchObject({ delayMs: 60_000, delaySource: 'retry-after' });
  });

  it('routes thrown errors: retryable → retry route, else error route, else fail', () => {
    const state = createItemState('1', {});
    const retryable = { error: engineError('E_NODE_ERROR', 'busy', 'http', true) };
    const fatal = { error: engineError('E_NODE_ERROR', 'bad', 'http', false) };
    expect(decide(a, compiled.budgets, state, retryable, timing, 0, Infinity, never)).toMatchObject({
      type: 'wait',
      output: 'retry',
      reason: 'busy',
    });
    expect(decide(a, compiled.budgets, state, fatal, timing, 0, Infinity, never)).toMatchObject({
      type: 'go',
      output: 'error',
    });
    expect(decide(b, compiled.budgets, state, retryable, timing, 0, Infinity, never)).toMatchObject({
      type: 'fail',
      error: { message: 'busy' },
    });
  });

  it('fails an output without a route with E_UNROUTED_OUTPUT', () => {
    const d = decide(
      a,
      compiled.budgets,
      createItemState('1', {}),
      { output: 'odd' },
      timing,
      0,
      Infinity,
      never,
    );
    expect(d).toMatchObject({ type: 'fail', output: 'odd', error: { engineCode: 'E_UNROUTED_OUTPUT' } });
  });
});
