/**
 * The flags `run` and `resume` share that change how a run goes rather than what it runs: the run deadline,
 * the virtual clock and the seed of the back-off jitter; and which of their files are standard input or
 * output.
 */
import { SwitchyardError } from '../errors.ts';
import { systemClock } from '../policy/clock.ts';
import { seededRandom } from '../policy/random.ts';
import type { Clock, Random } from '../policy/types.ts';
import { createVirtualClock } from '../policy/virtual-clock.ts';
import type { CliIO } from './io.ts';
import { wholeNumber } from './messages.ts';
import { claimStdin, isDash, namesStdin } from './stdio.ts';

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
  if (options.seed !== undefined) flags.random = seededRandom(wholeNumber('--seed', options.seed));
  if (options.virtualTime === true)
    flags.clock = createVirtualClock({ auto: true, wallStart: systemClock.wallNow() });
  return flags;
}

/** The options of `run` and `resume` that name standard input or output. */
export interface RunStdioOptions {
  readonly input?: string;
  readonly policy?: string;
  readonly events?: string;
  readonly json?: boolean;
}

/**
 * Refuses a `run` that names standard input twice (`<dag> -`, `--input @-`, `--policy -`), or that would
 * write both its events (`--events -`) and its `--json` result to standard output.
 */
export function claimRunStdio(dag: string | undefined, options: RunStdioOptions): void {
  claimStdin([
    { flag: '<dag> -', used: isDash(dag) },
    { flag: `--input ${options.input}`, used: namesStdin(options.input) },
    { flag: '--policy -', used: isDash(options.policy) },
  ]);
  if (isDash(options.events) && options.json === true) {
    throw new SwitchyardError(
      'E_USAGE',
      '--events - and --json would both write standard output — write the events to a file, or leave out --json',
    );
  }
}

/**
 * Where the summary of a run is printed: standard output, or stderr when `--events -` writes the events
 * there, so that standard output holds JSON lines only.
 */
export function summaryIO<T extends Pick<CliIO, 'out' | 'err'>>(io: T, options: RunStdioOptions): T {
  return isDash(options.events) ? { ...io, out: io.err } : io;
}
