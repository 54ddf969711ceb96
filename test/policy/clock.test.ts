import { describe, expect, it } from 'vitest';
import { systemClock, wallElapsed } from '../../src/policy/clock.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';

async function settle(promise: Promise<unknown>): Promise<{ ok: boolean; value: unknown }> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (value: unknown) => ({ ok: false, value }),
  );
}

describe('virtual clock: advance', () => {
  it('fires sleepers in time order, ties in registration order, with exact now() values', async () => {
    const clock = createVirtualClock({ start: 1000 });
    const fired: string[] = [];
    const track = (name: string, ms: number) =>
      clock.sleep(ms).then(() => fired.push(`${name}@${clock.now()}`));
    void track('c', 300);
    void track('a', 100);
    void track('b1', 200);
    void track('b2', 200);
    expect(clock.pending()).toBe(4);
    await clock.advance(250);
    expect(fired).toEqual(['a@1100', 'b1@1200', 'b2@1200']);
    expect(clock.now()).toBe(1250);
    await clock.advance(50);
    expect(fired).toEqual(['a@1100', 'b1@1200', 'b2@1200', 'c@1300']);
    expect(clock.pending()).toBe(0);
  });

  it('fires sleeps started by a woken sleeper when they fall due within the same advance', async () => {
    const clock = createVirtualClock();
    const times: number[] = [];
    void (async () => {
      for (let i = 0; i < 3; i++) {
        await clock.sleep(10);
        times.push(clock.now());
      }
    })();
    await clock.advance(25);
    expect(times).toEqual([10, 20]);
    expect(clock.now()).toBe(25);
    await clock.advance(5);
    expect(times).toEqual([10, 20, 30]);
  });

  it('resolves sleep(0) at once without registering a sleeper', async () => {
    const clock = createVirtualClock();
    await clock.sleep(0);
    await clock.sleep(-5);
    expect(clock.pending()).toBe(0);
    expect(clock.now()).toBe(0);
  });

  it('rejects at once and removes the sleeper on abort', async () => {
    const clock = createVirtualClock();
    const controller = new AbortController();
    const sleeping = settle(clock.sleep(60_000, controller.signal));
    expect(clock.pending()).toBe(1);
    const reason = new Error('run cancelled');
    controller.abort(reason);
    expect(await sleeping).toEqual({ ok: false, value: reason });
    expect(clock.pending()).toBe(0);
    expect(clock.now()).toBe(0);
  });

  it('rejects with an AbortError when the signal is already aborted or aborts without an Error reason', async () => {
    const clock = createVirtualClock();
    const already = await settle(clock.sleep(10, AbortSignal.abort('not an error')));
    expect(already.ok).toBe(false);
    expect((already.value as Error).name).toBe('AbortError');
    const controller = new AbortController();
    const later = settle(clock.sleep(10, controller.signal));
    controller.abort();
    expect(((await later).value as Error).name).toBe('AbortError');
  });

  it('runs until idle, following chains of sleeps', async () => {
    const clock = createVirtualClock();
    const done = (async () => {
      await clock.sleep(1000);
      await Promise.all([clock.sleep(500), clock.sleep(2000)]);
      return clock.now();
    })();
    await clock.runUntilIdle();
    expect(await done).toBe(3000);
    expect(clock.pending()).toBe(0);
  });
});

describe('virtual clock: auto mode', () => {
  it('completes a chain of three 60 s sleeps with now() exactly 180000', async () => {
    const clock = createVirtualClock({ auto: true });
    const stamps: number[] = [];
    for (let i = 0; i < 3; i++) {
      await clock.sleep(60_000);
      stamps.push(clock.now());
    }
    expect(stamps).toEqual([60_000, 120_000, 180_000]);
    expect(clock.pending()).toBe(0);
  });

  it('fires concurrent sleepers in deadline order', async () => {
    const clock = createVirtualClock({ auto: true, start: 5 });
    const order: string[] = [];
    await Promise.all([
      clock.sleep(300).then(() => order.push(`slow@${clock.now()}`)),
      clock.sleep(100).then(() => order.push(`fast@${clock.now()}`)),
      (async () => {
        await clock.sleep(150);
        order.push(`mid@${clock.now()}`);
        await clock.sleep(100);
        order.push(`mid2@${clock.now()}`);
      })(),
    ]);
    expect(order).toEqual(['fast@105', 'mid@155', 'mid2@255', 'slow@305']);
  });

  it('forgets an aborted sleeper, so time does not jump to its deadline', async () => {
    const clock = createVirtualClock({ auto: true });
    const controller = new AbortController();
    const sleeping = settle(clock.sleep(60_000, controller.signal));
    controller.abort();
    expect((await sleeping).ok).toBe(false);
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(clock.pending()).toBe(0);
    expect(clock.now()).toBe(0);
    await clock.sleep(10);
    expect(clock.now()).toBe(10);
  });
});

describe('system clock', () => {
  it('has a monotonic now()', () => {
    const a = systemClock.now();
    const b = systemClock.now();
    expect(b).toBeGreaterThanOrEqual(a);
  });

  it('resolves a short sleep and sleep(0)', async () => {
    await expect(systemClock.sleep(0)).resolves.toBeUndefined();
    await expect(systemClock.sleep(1)).resolves.toBeUndefined();
  });

  it('rejects a 60 s sleep as soon as its signal aborts', async () => {
    const controller = new AbortController();
    const sleeping = settle(systemClock.sleep(60_000, controller.signal));
    setTimeout(() => controller.abort(), 5);
    const outcome = await sleeping;
    expect(outcome.ok).toBe(false);
    expect((outcome.value as Error).name).toBe('AbortError');
  });

  it('rejects at once with the signal reason when already aborted', async () => {
    const reason = new Error('stop');
    await expect(systemClock.sleep(60_000, AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it('never ends a sleep before its time, even one started late in a long turn of the event loop', async () => {
    // Node times a timer from the start of the turn: after 3 ms of work a bare 20 ms timer can fire at 19.x.
    const elapsed: number[] = [];
    for (let i = 0; i < 30; i++) {
      const busy = performance.now();
      while (performance.now() - busy < 3) {
        // a synchronous node's work
      }
      const start = systemClock.now();
      await systemClock.sleep(20);
      elapsed.push(systemClock.now() - start);
    }
    expect(Math.min(...elapsed)).toBeGreaterThanOrEqual(20);
  });
});

describe('wall time elapsed', () => {
  it('is the wall time passed since, and 0 when the clock reads a time before it', () => {
    const clock = createVirtualClock({ wallStart: 10_000 });
    expect(wallElapsed(clock, 4_000)).toBe(6_000);
    expect(wallElapsed(clock, 10_000)).toBe(0);
    expect(wallElapsed(clock, 13_000)).toBe(0);
  });
});
