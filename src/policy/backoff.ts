/**
 * Back-off maths: how long to wait before retry number `attempt`. Pure functions of their arguments;
 * randomness comes in through an injected {@link Random}.
 */
import type { BackoffOptions, JitterMode, Random } from './types.ts';

/** The multiplier `decorrelated` uses when `factor` is not above 1, or when a policy switches to it without one. */
export const DECORRELATED_DEFAULT_FACTOR = 3;

/** Clamps to an integer in [0, cap]; NaN and negative values become 0, Infinity becomes cap. */
function clampMs(value: number, capMs: number): number {
  const cap = Math.max(0, Math.floor(capMs));
  if (Number.isNaN(value) || value <= 0) return 0;
  if (value >= cap) return cap;
  return Math.floor(value);
}

/** base × factor^exponent, cut to cap; a huge exponent overflows to Infinity and so to cap. */
function grown(baseMs: number, factor: number, exponent: number, capMs: number): number {
  return Math.min(capMs, baseMs * factor ** exponent);
}

/** The factor `decorrelated` multiplies the previous delay by. */
function decorrelatedFactor(options: BackoffOptions): number {
  return options.factor > 1 ? options.factor : DECORRELATED_DEFAULT_FACTOR;
}

/** Applies a jitter mode to a delay `d` with a uniform `r` in [0, 1). */
export function applyJitter(d: number, jitter: JitterMode, r: number): number {
  switch (jitter) {
    case 'none':
      return d;
    case 'full':
      return r * d;
    case 'equal':
      return d / 2 + (r * d) / 2;
  }
}

/** The delay before an attempt, before jitter: exponential or constant (decorrelated has none). */
function baseDelay(attempt: number, options: BackoffOptions): number {
  if (options.strategy === 'constant') return Math.min(options.capMs, options.baseMs);
  return grown(options.baseMs, options.factor, Math.max(0, attempt - 1), options.capMs);
}

/**
 * The delay in whole milliseconds before try `attempt` (from 1) of an `exponential` or `constant` back-off
 * with no jitter: min(cap, base × factor^(attempt−1)), or min(cap, base). For the engine's own waits that
 * need no spread (a job handed back to the queue, an item waiting for a slot); draws nothing.
 *
 * @example
 * steadyDelay(3, { strategy: 'exponential', baseMs: 100, factor: 2, capMs: 2000 }); // 400
 */
export function steadyDelay(
  attempt: number,
  options: BackoffOptions & { readonly strategy: 'exponential' | 'constant' },
): number {
  return clampMs(baseDelay(attempt, options), options.capMs);
}

/**
 * The delay in whole milliseconds before retry `attempt` (1 = the first retry), never negative, never above
 * `capMs`.
 *
 * - `exponential`: min(cap, base × factor^(attempt−1)), then jitter.
 * - `constant`: min(cap, base), then jitter.
 * - `decorrelated`: min(cap, uniform between base and previous × factor), `previousMs` defaulting to base and
 *   `factor` to 3 when not above 1; it is its own jitter, so `jitter` is ignored.
 *
 * Jitter on a delay d: `none` = d, `full` = random × d, `equal` = d/2 + random × d/2.
 *
 * @example
 * backoffDelay(3, { strategy: 'exponential', baseMs: 100, factor: 2, capMs: 30_000 }, 'none', seededRandom(1)); // 400
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions,
  jitter: JitterMode,
  random: Random,
  previousMs?: number,
): number {
  if (options.strategy === 'decorrelated') {
    const previous = previousMs ?? options.baseMs;
    const upper = Math.max(options.baseMs, previous * decorrelatedFactor(options));
    return clampMs(options.baseMs + random() * (upper - options.baseMs), options.capMs);
  }
  return clampMs(applyJitter(baseDelay(attempt, options), jitter, random()), options.capMs);
}

/**
 * The largest delay {@link backoffDelay} can return for `attempt`: the un-jittered delay for `exponential` and
 * `constant` (jitter only shortens), min(cap, base × factor^attempt) for `decorrelated`. For worst-case
 * analysis.
 */
export function maxBackoffDelay(attempt: number, options: BackoffOptions, _jitter: JitterMode): number {
  if (options.strategy === 'decorrelated') {
    const factor = decorrelatedFactor(options);
    return clampMs(grown(options.baseMs, factor, Math.max(0, attempt), options.capMs), options.capMs);
  }
  // Every jitter mode only shortens a delay, so the un-jittered delay bounds them all.
  return clampMs(baseDelay(attempt, options), options.capMs);
}

/**
 * The endless sequence of delays for attempts 1, 2, 3, …; `decorrelated` feeds each delay back as the
 * previous one.
 *
 * @example
 * const it = delays({ strategy: 'constant', baseMs: 50, factor: 1, capMs: 50 }, 'none', seededRandom(1));
 * it.next().value; // 50
 */
export function* delays(
  options: BackoffOptions,
  jitter: JitterMode,
  random: Random,
): Generator<number, never> {
  let previous: number | undefined;
  for (let attempt = 1; ; attempt++) {
    const delay = backoffDelay(attempt, options, jitter, random, previous);
    previous = delay;
    yield delay;
  }
}
