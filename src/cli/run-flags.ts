/**
 * The flags `run` and `resume` share that change how a run goes rather than what it runs: the run deadline,
 * the virtual clock and the seed of the back-off jitter.
 */
import { SwitchyardError } from '../errors.ts';
import { systemClock } from '../policy/clock.ts';
import { seededRandom } from '../policy/random.ts';
import type { Clock, Random } from '../policy/types.ts';
import { createVirtualClock } from '../policy/virtual-clock.ts';

/** The options of `run` and `resume` that {@link runFlags} reads. */
export interface RunFlagOptions {
  readonly deadline?: string;
  readonly virtualTime?: boolean;
  readonly seed?: string;
}

/** What the flags ask for: a deadline, and the clock and random a dispatcher takes. */
export interface RunFlags {
  readonly deadlineMs?: number;
  readonly clock?: Clock;
  readonly random?: Random;
}

function parseSeed(text: string): number {
  const seed = Number(text);
  if (!Number.isSafeInteger(seed)) {
    throw new SwitchyardError('E_USAGE', `--seed must be a whole number, not '${text}'`);
  }
  return seed;
}

function parseDeadline(text: string): number {
  const ms = Number(text);
  if (!Number.isFinite(ms) || ms <= 0) {
    throw new SwitchyardError(
      'E_USAGE',
      `--deadline must be a positive number of milliseconds, not '${text}'`,
    );
  }
  return ms;
}

/**
 * The deadline, clock and random that `--deadline`, `--virtual-time` and `--seed` ask for; a wrong value
 * is `E_USAGE` with one line. The virtual clock starts at the wall time now, so a recorded wait's end (a
 * wall time) means the same on it.
 * @example
 * runFlags({ virtualTime: true, seed: '1' }) // { clock: <virtual clock>, random: <seeded> }
 */
export function runFlags(options: RunFlagOptions): RunFlags {
  const flags: { -readonly [K in keyof RunFlags]: RunFlags[K] } = {};
  if (options.deadline !== undefined) flags.deadlineMs = parseDeadline(options.deadline);
  if (options.seed !== undefined) flags.random = seededRandom(parseSeed(options.seed));
  if (options.virtualTime === true)
    flags.clock = createVirtualClock({ auto: true, wallStart: systemClock.wallNow() });
  return flags;
}
