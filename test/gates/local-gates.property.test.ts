/**
 * LocalGates against a brute-force check of what it did with random asks: every start in arrival order,
 * outside closings, within the concurrency and within the bucket (burst + span / interval, checked against
 * every earlier start), and no start later than the first millisecond nothing held it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LocalGates } from '../../src/gates/local-gates.ts';
import { resolveGates } from '../../src/gates/resolve.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { propertySettings } from '../runtime/property-settings.ts';

interface Ask {
  /** ms after the previous ask. */
  readonly gap: number;
  /** How long its execution takes once started. */
  readonly work: number;
  /** A closing its execution causes when it ends (ms), or 0. */
  readonly closes: number;
}

interface Setup {
  readonly limit: number;
  readonly periodMs: number;
  readonly burst: number;
  readonly concurrency: number | undefined;
  readonly paced: boolean;
  readonly asks: readonly Ask[];
}

const setup = fc.record({
  limit: fc.integer({ min: 1, max: 5 }),
  periodMs: fc.constantFrom(100, 200, 500, 1000),
  burst: fc.integer({ min: 1, max: 3 }),
  concurrency: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
  paced: fc.boolean(),
  asks: fc.array(
    fc.record({
      gap: fc.integer({ min: 0, max: 150 }),
      work: fc.integer({ min: 1, max: 120 }),
      closes: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 400 })),
    }),
    { minLength: 1, maxLength: 14 },
  ),
});

/** Start times by the gate itself, on a virtual clock. */
async function byGate(s: Setup): Promise<number[]> {
  const clock = createVirtualClock({ auto: true });
  const gate = resolveGates({
    api: {
      ...(s.paced ? { rate: { limit: s.limit, periodMs: s.periodMs, burst: s.burst } } : {}),
      ...(s.concurrency === undefined ? {} : { concurrency: s.concurrency }),
    },
  }).api;
  if (gate === undefined) throw new Error('no gate');
  const gates = new LocalGates(clock);
  const ref = { gate, key: 'api' };
  const signal = new AbortController().signal;
  const starts: number[] = [];
  const done: Promise<void>[] = [];
  const ask = async (a: Ask, i: number) => {
    const entered = await gates.enter(ref, {
      events: undefined,
      signal,
      item: String(i),
      dag: 'd',
      placement: 'p',
      latest: Infinity,
    });
    if ('late' in entered) throw new Error('late');
    starts[i] = clock.now();
    if (a.work > 0) await clock.sleep(a.work);
    if (a.closes > 0) {
      gates.close(ref, {
        untilMs: clock.wallNow() + a.closes,
        reason: 'HTTP 429',
        hintMs: a.closes,
        events: undefined,
        item: String(i),
        dag: 'd',
        placement: 'p',
      });
    }
    entered.leave();
  };
  for (const [i, a] of s.asks.entries()) {
    if (a.gap > 0) await clock.sleep(a.gap);
    done.push(ask(a, i));
  }
  await Promise.all(done);
  return starts;
}

/** Whether a start at `t` after `earlier` (the starts before it) keeps every window within the bucket. */
function conforms(s: Setup, earlier: readonly number[], t: number): boolean {
  if (!s.paced) return true;
  const interval = s.periodMs / s.limit;
  return earlier.every((from) => {
    const count = earlier.filter((x) => x >= from).length + 1;
    return count <= s.burst + Math.floor((t - from) / interval + 1e-9);
  });
}

/**
 * Checks the gate's start times by brute force against what the asks did: in arrival order; none inside a
 * closing, beyond the concurrency or outside the bucket; and none later than it had to be: at the
 * millisecond before a delayed start, something held it (a closing, the concurrency, the bucket, or the
 * ask before it not yet started).
 */
function check(s: Setup, starts: readonly number[]): void {
  const arrivals: number[] = [];
  let t = 0;
  for (const a of s.asks) {
    t += a.gap;
    arrivals.push(t);
  }
  const ends = starts.map((start, i) => start + (s.asks[i] as Ask).work);
  const closings = s.asks.flatMap((a, i) =>
    a.closes > 0 ? [{ from: ends[i] as number, until: (ends[i] as number) + a.closes }] : [],
  );
  const closedAt = (at: number, strict: boolean) =>
    closings.some((c) => (strict ? c.from < at : c.from <= at) && at < c.until);
  const running = (at: number, except: number) =>
    starts.filter((x, j) => j !== except && x <= at && at < (ends[j] as number)).length;
  for (const [i, start] of starts.entries()) {
    const arrival = arrivals[i] as number;
    expect(start).toBeGreaterThanOrEqual(arrival);
    if (i > 0) expect(start).toBeGreaterThanOrEqual(starts[i - 1] as number);
    expect(closedAt(start, true), `ask ${i} started at ${start} inside a closing`).toBe(false);
    if (s.concurrency !== undefined) expect(running(start, i)).toBeLessThan(s.concurrency);
    const earlier = starts.slice(0, i);
    expect(conforms(s, earlier, start), `ask ${i} at ${start} exceeds the bucket`).toBe(true);
    const ready = Math.max(arrival, i > 0 ? (starts[i - 1] as number) : 0);
    if (start > ready) {
      const before = start - 1;
      const held =
        closedAt(before, false) ||
        (s.concurrency !== undefined && running(before, i) >= s.concurrency) ||
        !conforms(
          s,
          earlier.filter((x) => x <= before),
          before,
        );
      expect(held, `ask ${i} started at ${start}, but nothing held it at ${before}`).toBe(true);
    }
  }
}

describe('LocalGates', () => {
  const { runs, replay } = propertySettings(150);
  it('starts every ask in order, within its limits, and as soon as nothing holds it', async () => {
    await fc.assert(
      fc.asyncProperty(setup, async (s) => {
        check(s, await byGate(s));
      }),
      { numRuns: runs, ...replay },
    );
  });
});

describe('LocalGates keys', () => {
  it('forgets idle keys as the map grows, and keeps those still in use', async () => {
    const clock = createVirtualClock();
    const gate = resolveGates({ api: { keys: 'u[0-9]+', concurrency: 1 } }).api;
    if (gate === undefined) throw new Error('no gate');
    const gates = new LocalGates(clock);
    const signal = new AbortController().signal;
    const entry = { events: undefined, signal, item: '1', dag: 'd', placement: 'p', latest: Infinity };
    const held = await gates.enter({ gate, key: 'api:u-held' }, entry);
    for (let i = 0; i < 5000; i++) {
      const pass = await gates.enter({ gate, key: `api:u${i}` }, entry);
      if ('late' in pass) throw new Error('late');
      pass.leave();
    }
    const keys = gates.view().map((v) => v.key);
    expect(keys.length).toBeLessThanOrEqual(2048);
    expect(keys).toContain('api:u-held');
    if ('late' in held) throw new Error('late');
    held.leave();
  });
});
