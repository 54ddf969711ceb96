/**
 * Seeded uniform random numbers, for reproducible jitter in tests and replays.
 */
import type { Random } from './types.ts';

/**
 * A mulberry32 generator: uniform numbers in [0, 1), the same sequence for the same seed.
 *
 * @example
 * const random = seededRandom(42);
 * random(); // 0.6011037519…, every time
 */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
