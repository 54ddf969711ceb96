import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { seededRandom } from '../../src/policy/random.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { NodeResult } from '../../src/runtime/node.ts';
import { recorder, scripted } from './helpers.ts';

/** try → (fail: retry try, budget `tries` of `max`, exhausted → gave_up) | ok → done. */
function loop(max: number) {
  return dag('urn:test:loop', { name: 'loop', version: '1' })
    .budget('tries', max)
    .entry('try')
    .task('try', 'urn:test:try')
    .route('ok', 'done')
    .retry('fail', 'try', { budget: 'tries', exhausted: 'gave_up' })
    .terminal('done', 'completed')
    .terminal('gave_up', 'failed')
    .build();
}

async function timeline(
  policy: PolicyInput,
  results: readonly NodeResult[],
  options: { seed?: number; start?: number; deadlineMs?: number } = {},
) {
  const clock = createVirtualClock({ auto: true, start: options.start ?? 0, wallStart: options.start ?? 0 });
  const node = scripted(
    'urn:test:try',
    ['ok', 'fail'],
    results.map((r) => () => r),
  );
  const dispatcher = createDispatcher({
    nodes: [node],
    policy,
    clock,
    random: seededRandom(options.seed ?? 7),
  });
  const rec = recorder();
  const result = await dispatcher.run(
    loop(5),
    {},
    { onEvent: rec.onEvent, ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }) },
  );
  return {
    result,
    rec,
    delays: rec.of('retry.scheduled').map((e) => e.delayMs),
    starts: rec.of('placement.start').map((e) => e.time - (options.start ?? 0)),
  };
}

const FAIL4 = ['fail', 'fail', 'fail', 'fail', 'ok'] as const;
const backoff = (strategy: 'exponential' | 'constant' | 'decorrelated') => ({
  strategy,
  baseMs: 100,
  factor: 2,
  capMs: 700,
});

/** Cumulative start times from the delays: the node runs at 0, then after each delay. */
function startsOf(delays: number[]): number[] {
  const out = [0];
  for (const d of delays) out.push((out[out.length - 1] as number) + d);
  return out;
}

describe('back-off timelines on the virtual clock', () => {
  it('exponential without jitter: 100, 200, 400, then the cap', async () => {
    const { delays, starts } = await timeline(
      { defaults: { backoff: backoff('exponential'), jitter: 'none' } },
      FAIL4,
    );
    expect(delays).toEqual([100, 200, 400, 700]);
    expect(starts).toEqual([0, 100, 300, 700, 1400]);
  });

  it('exponential with full and equal jitter follows the seeded random', async () => {
    const nominal = [100, 200, 400, 700];
    for (const jitter of ['full', 'equal'] as const) {
      const r = seededRandom(7);
      const expected = nominal.map((d) => Math.floor(jitter === 'full' ? r() * d : d / 2 + (r() * d) / 2));
      const { delays, starts } = await timeline(
        { defaults: { backoff: backoff('exponential'), jitter } },
        FAIL4,
      );
      expect(delays).toEqual(expected);
      expect(starts).toEqual(startsOf(expected));
    }
  });

  it('constant: the same delay every time (none), jittered under full', async () => {
    const none = await timeline({ defaults: { backoff: backoff('constant'), jitter: 'none' } }, FAIL4);
    expect(none.delays).toEqual([100, 100, 100, 100]);
    expect(none.starts).toEqual([0, 100, 200, 300, 400]);
    const r = seededRandom(3);
    const full = await timeline({ defaults: { backoff: backoff('constant'), jitter: 'full' } }, FAIL4, {
      seed: 3,
    });
    expect(full.delays).toEqual([1, 2, 3, 4].map(() => Math.floor(r() * 100)));
  });

  it('decorrelated: uniform between base and previous × factor, capped', async () => {
    const r = seededRandom(11);
    const expected: number[] = [];
    let previous = 100;
    for (let i = 0; i < 4; i++) {
      const upper = Math.max(100, previous * 2);
      previous = Math.min(700, Math.floor(100 + r() * (upper - 100)));
      expected.push(previous);
    }
    const { delays, starts } = await timeline(
      { defaults: { backoff: backoff('decorrelated'), jitter: 'none' } },
      FAIL4,
      { seed: 11 },
    );
    expect(delays).toEqual(expected);
    expect(starts).toEqual(startsOf(expected));
  });
});

describe('Retry-After hints', () => {
  const policy: PolicyInput = {
    defaults: { backoff: backoff('constant'), jitter: 'none', retryAfter: { capMs: 10_000 } },
  };

  it('takes milliseconds, seconds and HTTP-dates (relative to the virtual wall clock), capped by the policy', async () => {
    const start = Date.UTC(2025, 0, 1, 12, 0, 0);
    const { delays, rec } = await timeline(
      policy,
      [
        { output: 'fail', retryAfter: 1500 },
        { output: 'fail', retryAfter: '2' },
        { output: 'fail', retryAfter: new Date(start + 1500 + 2000 + 4500).toUTCString() },
        { output: 'fail', retryAfter: '120' },
        'ok',
      ],
      { start },
    );
    expect(delays).toEqual([1500, 2000, 4500, 10_000]);
    expect(rec.of('retry.scheduled').every((e) => e.delaySource === 'retry-after')).toBe(true);
  });

  it('falls back to the back-off when hints are not honoured', async () => {
    const { rec } = await timeline({ defaults: { ...policy.defaults, retryAfter: { honour: false } } }, [
      { output: 'fail', retryAfter: 5000 },
      'ok',
    ]);
    expect(rec.of('retry.scheduled')).toMatchObject([{ delayMs: 100, delaySource: 'backoff' }]);
  });
});

describe('deadline-aware exhaustion', () => {
  it('takes the exhaustion route when the wait would pass the run deadline, and says why', async () => {
    const { result, rec, starts } = await timeline(
      { defaults: { backoff: backoff('exponential'), jitter: 'none' } },
      FAIL4,
      { deadlineMs: 250 },
    );
    expect(starts).toEqual([0, 100]);
    expect(rec.of('budget.exhausted')).toMatchObject([
      { from: 'try', budget: 'tries', to: 'gave_up', why: 'deadline' },
    ]);
    expect(result.items).toMatchObject([{ terminal: 'gave_up', state: { budgets: { tries: 1 } } }]);
    expect(result.stats.durationMs).toBe(100);
  });
});
