import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { systemClock } from '../../src/policy/clock.ts';
import { parseRetryAfter } from '../../src/policy/retry-after.ts';
import type { Clock } from '../../src/policy/types.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { defineNode, type NodeResult } from '../../src/runtime/node.ts';

// A whole second, so that an HTTP-date (second precision) names it exactly.
const WALL = Date.UTC(2026, 11, 1, 6, 0, 0);
const CAP_MS = 5000;

const once = dag('urn:test:retry-after', { name: 'retry-after', version: '1' })
  .budget('again', 1)
  .entry('work')
  .task('work', 'urn:test:hinted')
  .route('ok', 'done')
  .retry('again', 'work', { budget: 'again', exhausted: 'gave_up' })
  .terminal('done', 'completed')
  .terminal('gave_up', 'failed')
  .build();

/** Runs `once` with a node whose first visit answers `first()` (after `workMs` on the clock), then `ok`. */
async function retryDelay(
  clock: Clock,
  first: () => NodeResult | Promise<NodeResult>,
  workMs = 0,
): Promise<{ delayMs: number; delaySource: string }> {
  const node = defineNode({
    id: 'urn:test:hinted',
    outputs: ['ok', 'again'],
    run: async (_item, ctx) => {
      if (ctx.visit > 1) return 'ok';
      if (workMs > 0) await clock.sleep(workMs, ctx.signal);
      return first();
    },
  });
  const events: RunEvent[] = [];
  const result = await createDispatcher({
    nodes: [node],
    clock,
    policy: { defaults: { retryAfter: { capMs: CAP_MS }, backoff: { baseMs: 7, strategy: 'constant' } } },
  }).run(once, {}, { onEvent: (e) => events.push(e) });
  expect(result.items[0]?.terminal).toBe('done');
  const scheduled = events.find((e) => e.type === 'retry.scheduled');
  if (scheduled?.type !== 'retry.scheduled') throw new Error('no retry was scheduled');
  return { delayMs: scheduled.delayMs, delaySource: scheduled.delaySource };
}

const httpDate = (ms: number) => new Date(ms).toUTCString();

describe('the clocks read wall time beside monotonic time', () => {
  it('the system clock reads Date.now() as wall time', () => {
    const before = Date.now();
    const wall = systemClock.wallNow();
    expect(wall).toBeGreaterThanOrEqual(before);
    expect(wall).toBeLessThanOrEqual(Date.now());
  });

  it('the virtual clock starts its wall time at wallStart and moves it with virtual time', async () => {
    const clock = createVirtualClock({ start: 500, wallStart: WALL });
    expect(clock.wallNow()).toBe(WALL);
    const sleeping = clock.sleep(1500);
    await clock.advance(1500);
    await sleeping;
    expect(clock.now()).toBe(2000);
    expect(clock.wallNow()).toBe(WALL + 1500);
    clock.setWall(WALL - 60_000);
    expect(clock.wallNow()).toBe(WALL - 60_000);
    expect(clock.now()).toBe(2000);
    await clock.advance(250);
    expect(clock.wallNow()).toBe(WALL - 60_000 + 250);
    expect(createVirtualClock().wallNow()).toBe(0);
  });

  it('seconds and milliseconds hints are relative: the wall reading does not change them', () => {
    expect(parseRetryAfter('3', WALL)).toBe(3000);
    expect(parseRetryAfter('3', 0)).toBe(3000);
    expect(parseRetryAfter(250, WALL)).toBe(250);
  });
});

describe('an HTTP-date Retry-After is measured against the wall clock (virtual clock, exact)', () => {
  const virtual = () => createVirtualClock({ auto: true, start: 12_345, wallStart: WALL });

  it('a date in the past means no wait', async () => {
    expect(
      await retryDelay(virtual(), () => ({ output: 'again', retryAfter: httpDate(WALL - 30_000) })),
    ).toEqual({ delayMs: 0, delaySource: 'retry-after' });
  });

  it('a date a few seconds ahead means waiting until then', async () => {
    expect(
      await retryDelay(virtual(), () => ({ output: 'again', retryAfter: httpDate(WALL + 3000) })),
    ).toEqual({ delayMs: 3000, delaySource: 'retry-after' });
  });

  it('the wait shrinks by the time the node took: wall time advances with virtual time', async () => {
    expect(
      await retryDelay(virtual(), () => ({ output: 'again', retryAfter: httpDate(WALL + 3000) }), 1000),
    ).toEqual({ delayMs: 2000, delaySource: 'retry-after' });
  });

  it('a date far ahead is cut to the cap', async () => {
    expect(
      await retryDelay(virtual(), () => ({ output: 'again', retryAfter: httpDate(WALL + 86_400_000) })),
    ).toEqual({ delayMs: CAP_MS, delaySource: 'retry-after' });
  });

  it('an HTTP-date in a thrown error’s headers is measured the same way', async () => {
    const error = () =>
      Promise.reject(
        Object.assign(new Error('busy'), { status: 503, headers: { 'retry-after': httpDate(WALL + 4000) } }),
      );
    const node = defineNode({
      id: 'urn:test:thrower',
      outputs: ['ok'],
      run: (_item, ctx) => (ctx.visit > 1 ? 'ok' : error()),
    });
    const d = dag('urn:test:thrown', { name: 'thrown', version: '1' })
      .budget('again', 1)
      .entry('work')
      .task('work', 'urn:test:thrower')
      .route('ok', 'done')
      .retry('retry', 'work', { budget: 'again', exhausted: 'gave_up' })
      .terminal('done', 'completed')
      .terminal('gave_up', 'failed')
      .build();
    const delays: number[] = [];
    await createDispatcher({ nodes: [node], clock: virtual() }).run(
      d,
      {},
      { onEvent: (e) => (e.type === 'retry.scheduled' ? delays.push(e.delayMs) : undefined) },
    );
    expect(delays).toEqual([4000]);
  });
});

describe('an HTTP-date Retry-After on the system clock', () => {
  it('a date in the past means no wait', async () => {
    expect(
      await retryDelay(systemClock, () => ({ output: 'again', retryAfter: httpDate(Date.now() - 60_000) })),
    ).toEqual({ delayMs: 0, delaySource: 'retry-after' });
  });

  it('a date 1–2 s ahead waits the difference from the wall reading the decision took, far below the cap', async () => {
    // The system clock with its wall readings kept: the wait is the date less a reading taken after the
    // node answered, however long the engine took to get there.
    const readings: number[] = [];
    const clock: Clock = {
      now: () => systemClock.now(),
      sleep: (ms, signal) => systemClock.sleep(ms, signal),
      wallNow: () => {
        const wall = systemClock.wallNow();
        readings.push(wall);
        return wall;
      },
    };
    let at = 0;
    let answered = 0;
    const { delayMs, delaySource } = await retryDelay(clock, () => {
      // The next whole second at least one second away: an HTTP-date cannot name milliseconds.
      at = Math.ceil((clock.wallNow() + 1000) / 1000) * 1000;
      answered = readings.length;
      return { output: 'again', retryAfter: httpDate(at) };
    });
    expect(delaySource).toBe('retry-after');
    expect(readings.slice(answered).map((wall) => at - wall)).toContain(delayMs);
    expect(delayMs).toBeLessThanOrEqual(2000);
    expect(delayMs).toBeLessThan(CAP_MS / 2);
  });

  it('a date far ahead is cut to the cap', async () => {
    const clock = systemClock;
    const node = defineNode({
      id: 'urn:test:hinted',
      outputs: ['ok', 'again'],
      run: (_item, ctx) =>
        ctx.visit > 1 ? 'ok' : { output: 'again', retryAfter: httpDate(Date.now() + 86_400_000) },
    });
    const delays: number[] = [];
    await createDispatcher({
      nodes: [node],
      clock,
      policy: { defaults: { retryAfter: { capMs: 50 } } },
    }).run(once, {}, { onEvent: (e) => (e.type === 'retry.scheduled' ? delays.push(e.delayMs) : undefined) });
    expect(delays).toEqual([50]);
  });
});

describe('a clock without a wall reading', () => {
  it('measures HTTP-dates against the system wall clock, not against its own time line', async () => {
    const virtual = createVirtualClock({ auto: true });
    // A clock written against the older interface: monotonic time and sleeps only.
    const legacy = { now: () => virtual.now(), sleep: (ms: number, s?: AbortSignal) => virtual.sleep(ms, s) };
    expect(
      await retryDelay(legacy as unknown as Clock, () => ({
        output: 'again',
        retryAfter: httpDate(Date.now() - 30_000),
      })),
    ).toEqual({ delayMs: 0, delaySource: 'retry-after' });
  });
});
