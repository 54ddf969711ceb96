import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultHandBack, handBackDelay } from '../../src/distributed/hand-back.ts';
import { queueDelay } from '../../src/distributed/slots.ts';
import { applyJitter, backoffDelay, delays, maxBackoffDelay, steadyDelay } from '../../src/policy/backoff.ts';
import { seededRandom } from '../../src/policy/random.ts';
import type { BackoffOptions, BackoffStrategy, JitterMode } from '../../src/policy/types.ts';

const strategies: BackoffStrategy[] = ['exponential', 'constant', 'decorrelated'];
const jitters: JitterMode[] = ['none', 'full', 'equal'];

const optionsArb = fc.record({
  strategy: fc.constantFrom(...strategies),
  baseMs: fc.integer({ min: 0, max: 10_000 }),
  factor: fc.double({ min: 1, max: 10, noNaN: true }),
  capMs: fc.integer({ min: 0, max: 600_000 }),
}) satisfies fc.Arbitrary<BackoffOptions>;
const jitterArb = fc.constantFrom(...jitters);
const randomArb = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
const attemptArb = fc.integer({ min: 1, max: 2000 });

function take(iterator: Iterator<number>, n: number): number[] {
  return Array.from({ length: n }, () => iterator.next().value as number);
}

const exponential: BackoffOptions = { strategy: 'exponential', baseMs: 100, factor: 2, capMs: 30_000 };

describe('backoffDelay bounds (property)', () => {
  it('stays within 0 .. min(cap, maxBackoffDelay), an integer, and maxBackoffDelay never exceeds cap', () => {
    fc.assert(
      fc.property(attemptArb, optionsArb, jitterArb, randomArb, (attempt, options, jitter, r) => {
        const max = maxBackoffDelay(attempt, options, jitter);
        expect(max).toBeLessThanOrEqual(options.capMs);
        // For decorrelated, the previous delay of attempt n−1 is at most the bound of attempt n−1.
        const previous =
          options.strategy === 'decorrelated' ? maxBackoffDelay(attempt - 1, options, jitter) : undefined;
        const delay = backoffDelay(attempt, options, jitter, () => r, previous);
        expect(Number.isInteger(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(Math.min(options.capMs, max));
      }),
    );
  });

  it('keeps every delay of a generated sequence within the per-attempt bound', () => {
    fc.assert(
      fc.property(optionsArb, jitterArb, fc.integer(), (options, jitter, seed) => {
        const sequence = take(delays(options, jitter, seededRandom(seed)), 40);
        sequence.forEach((delay, i) => {
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(maxBackoffDelay(i + 1, options, jitter));
        });
      }),
    );
  });

  it('is non-decreasing in the attempt for exponential without jitter', () => {
    fc.assert(
      fc.property(optionsArb, attemptArb, (options, attempt) => {
        const exp = { ...options, strategy: 'exponential' as const };
        const a = backoffDelay(attempt, exp, 'none', () => 0.5);
        const b = backoffDelay(attempt + 1, exp, 'none', () => 0.5);
        expect(b).toBeGreaterThanOrEqual(a);
      }),
    );
  });

  it('gives 0 with full jitter and random 0, and close to the delay as random approaches 1', () => {
    fc.assert(
      fc.property(optionsArb, attemptArb, (options, attempt) => {
        const opts = { ...options, strategy: 'exponential' as const };
        const d = backoffDelay(attempt, opts, 'none', () => 0);
        expect(backoffDelay(attempt, opts, 'full', () => 0)).toBe(0);
        const nearOne = backoffDelay(attempt, opts, 'full', () => 1 - 2 ** -40);
        expect(nearOne).toBeGreaterThanOrEqual(d - 1);
        expect(nearOne).toBeLessThanOrEqual(d);
      }),
    );
  });

  it('gives at least half the delay with equal jitter', () => {
    fc.assert(
      fc.property(optionsArb, attemptArb, randomArb, (options, attempt, r) => {
        const opts = { ...options, strategy: 'exponential' as const };
        const d = backoffDelay(attempt, opts, 'none', () => r);
        expect(backoffDelay(attempt, opts, 'equal', () => r)).toBeGreaterThanOrEqual(Math.floor(d / 2));
      }),
    );
  });
});

describe('backoffDelay values', () => {
  it('grows exponentially up to the cap', () => {
    expect([1, 2, 3, 4, 9, 10].map((a) => backoffDelay(a, exponential, 'none', () => 0.5))).toEqual([
      100, 200, 400, 800, 25_600, 30_000,
    ]);
  });

  it('keeps a constant delay, cut to the cap', () => {
    const constant: BackoffOptions = { strategy: 'constant', baseMs: 750, factor: 2, capMs: 30_000 };
    expect([1, 5, 50].map((a) => backoffDelay(a, constant, 'none', () => 0.5))).toEqual([750, 750, 750]);
    expect(backoffDelay(1, { ...constant, capMs: 500 }, 'none', () => 0.5)).toBe(500);
    expect(backoffDelay(1, constant, 'equal', () => 0.5)).toBe(562);
  });

  it('ignores jitter for decorrelated and draws between base and previous × factor', () => {
    const decorrelated: BackoffOptions = { strategy: 'decorrelated', baseMs: 100, factor: 3, capMs: 30_000 };
    expect(backoffDelay(4, decorrelated, 'full', () => 0)).toBe(100);
    expect(backoffDelay(4, decorrelated, 'none', () => 0.5, 1000)).toBe(1550);
    expect(backoffDelay(4, decorrelated, 'equal', () => 0.5, 1000)).toBe(1550);
    expect(backoffDelay(1, { ...decorrelated, factor: 1 }, 'none', () => 0.5)).toBe(200);
  });

  it('overflows to the cap for huge attempts instead of Infinity or NaN', () => {
    expect(backoffDelay(5000, exponential, 'none', () => 0.5)).toBe(30_000);
    expect(backoffDelay(Number.MAX_SAFE_INTEGER, exponential, 'full', () => 0.5)).toBe(15_000);
    expect(maxBackoffDelay(100_000, { ...exponential, strategy: 'decorrelated' }, 'none')).toBe(30_000);
  });

  it('applies each jitter mode to a delay', () => {
    expect(applyJitter(1000, 'none', 0.25)).toBe(1000);
    expect(applyJitter(1000, 'full', 0.25)).toBe(250);
    expect(applyJitter(1000, 'equal', 0.25)).toBe(625);
  });
});

describe("steadyDelay: the engine's own waits, on the same back-off", () => {
  it('is the un-jittered exponential or constant delay, and draws nothing', () => {
    const steady = { strategy: 'exponential', baseMs: 100, factor: 2, capMs: 30_000 } as const;
    fc.assert(
      fc.property(attemptArb, (attempt) => {
        const drawn = backoffDelay(attempt, steady, 'none', () => 0.5);
        expect(steadyDelay(attempt, steady)).toBe(drawn);
        expect(steadyDelay(attempt, { ...steady, strategy: 'constant' })).toBe(100);
      }),
    );
  });

  it("gives a worker's hand-backs and slot waits their figures", () => {
    expect([1, 2, 3, 4, 5, 6, 40].map((n) => handBackDelay(defaultHandBack, n))).toEqual([
      100, 200, 400, 800, 1600, 2000, 2000,
    ]);
    expect([1, 2, 3, 5, 6, 7, 100].map(queueDelay)).toEqual([25, 50, 100, 400, 800, 1000, 1000]);
  });
});

describe('delays with a seeded random (golden numbers)', () => {
  it('produces the recorded sequences for seed 42', () => {
    expect(take(delays(exponential, 'none', seededRandom(42)), 10)).toEqual([
      100, 200, 400, 800, 1600, 3200, 6400, 12_800, 25_600, 30_000,
    ]);
    expect(take(delays(exponential, 'full', seededRandom(42)), 10)).toEqual([
      60, 89, 340, 535, 279, 1685, 1748, 7996, 22_156, 14_169,
    ]);
    expect(take(delays(exponential, 'equal', seededRandom(42)), 10)).toEqual([
      80, 144, 370, 667, 939, 2442, 4074, 10_398, 23_878, 22_084,
    ]);
    const decorrelated: BackoffOptions = { strategy: 'decorrelated', baseMs: 100, factor: 3, capMs: 30_000 };
    expect(take(delays(decorrelated, 'none', seededRandom(42)), 10)).toEqual([
      220, 351, 912, 1865, 1060, 1721, 1483, 2817, 7327, 10_434,
    ]);
  });
});

describe('seededRandom', () => {
  it('repeats the mulberry32 sequence for a seed and stays in [0, 1)', () => {
    const a = seededRandom(42);
    expect([a(), a(), a()]).toEqual([0.6011037519201636, 0.44829055899754167, 0.8524657934904099]);
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const r = seededRandom(seed);
        for (let i = 0; i < 50; i++) {
          const x = r();
          expect(x).toBeGreaterThanOrEqual(0);
          expect(x).toBeLessThan(1);
        }
      }),
    );
    expect(seededRandom(1)()).not.toBe(seededRandom(2)());
  });
});
