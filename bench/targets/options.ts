/**
 * The knobs of bench/engine-targets.ts, read from the environment: which targets to measure, how many
 * repetitions, the sizes, and the tree whose engine is "today's". Each has a default that finishes in a few
 * minutes on a 2-core machine; the million-item point of the async W2 line is behind `TARGETS_LARGE=1`.
 */
import { SwitchyardError } from '../../src/errors.ts';

/** The measured targets, in the order the table lists them. */
export const SECTIONS = [
  'w1',
  'w2-sync',
  'w2-async',
  'inflight',
  'durable-w1',
  'durable-w2',
  'distributed',
] as const;

/** One target (or group of target lines) of the table. */
export type Section = (typeof SECTIONS)[number];

/**
 * The engine the in-memory targets are held to ("no slower than today"): the tree at this commit, the last
 * one before the engine of issue 21, extracted with `git archive` beside this one and run in the same
 * process, alternating with this tree's engine.
 */
export const TODAY_REF = 'd49361a4662e9d4fc12cf0a6e9f17b5c05b78dd0';

/** What bench/engine-targets.ts measures, and how much. */
export interface TargetOptions {
  readonly sections: readonly Section[];
  /** Repetitions of every measurement; undefined: each measurement's own default. */
  readonly reps: number | undefined;
  /** List elements of the sync W2 comparison with today's engine. */
  readonly syncItems: number;
  /** Sizes of the async W2 line, ascending: the ratio is taken at the first, growth at the others. */
  readonly asyncSizes: readonly number[];
  /** List elements held in flight at once for the bytes-per-item line. */
  readonly inflightItems: number;
  /** W1 runs per repetition of the durable W1 line. */
  readonly durableRuns: number;
  /** List elements of the durable W2 lines. */
  readonly durableItems: number;
  /** List elements of the distributed W2 line. */
  readonly distributedItems: number;
  /** The git commit (or ref) of today's engine; undefined: use the ratios recorded in today.ts instead. */
  readonly todayRef: string | undefined;
  /** Exit with 1 when any line misses its target. */
  readonly strict: boolean;
}

/** The environment variables read, with what each sets (printed with a usage mistake). */
export const TARGET_KNOBS =
  'TARGETS_ONLY=<section,…> (' +
  SECTIONS.join(', ') +
  '), TARGETS_REPS=<n>, TARGETS_LARGE=1, TARGETS_ASYNC_SIZES=<n,…>, TARGETS_SYNC_ITEMS=<n>, ' +
  'TARGETS_INFLIGHT_ITEMS=<n>, TARGETS_DURABLE_RUNS=<n>, TARGETS_DURABLE_ITEMS=<n>, ' +
  'TARGETS_DISTRIBUTED_ITEMS=<n>, TARGETS_TODAY=<git ref>|none, TARGETS_STRICT=1';

function usage(message: string): SwitchyardError {
  return new SwitchyardError('E_USAGE', `${message} (knobs: ${TARGET_KNOBS})`);
}

function count(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1)
    throw usage(`${name} must be a whole number of at least 1, not '${text}'`);
  return n;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const text = env[name];
  if (text === undefined || text === '' || text === '0') return false;
  if (text === '1') return true;
  throw usage(`${name} must be 1 or 0, not '${text}'`);
}

function sizes(env: NodeJS.ProcessEnv, large: boolean): number[] {
  const text = env.TARGETS_ASYNC_SIZES;
  if (text === undefined || text === '') return large ? [10_000, 100_000, 1_000_000] : [10_000, 100_000];
  const list = text.split(',').map((part) => Number(part.trim()));
  const ascending = list.every(
    (n, i) => Number.isSafeInteger(n) && n >= 1 && (i === 0 || n > (list[i - 1] ?? 0)),
  );
  if (!ascending) throw usage(`TARGETS_ASYNC_SIZES must be whole numbers in ascending order, not '${text}'`);
  return list;
}

function sections(env: NodeJS.ProcessEnv): Section[] {
  const text = env.TARGETS_ONLY;
  if (text === undefined || text === '') return [...SECTIONS];
  const asked = text.split(',').map((part) => part.trim());
  for (const name of asked) {
    if (!(SECTIONS as readonly string[]).includes(name))
      throw usage(`TARGETS_ONLY names '${name}', which is not a target: use ${SECTIONS.join(', ')}`);
  }
  return SECTIONS.filter((name) => asked.includes(name));
}

/**
 * Reads the knobs from `env`; throws a SwitchyardError `E_USAGE` whose message is one line for the user.
 * @example
 * parseTargetOptions({ TARGETS_ONLY: 'w1,durable-w1', TARGETS_REPS: '5' }).sections; // ['w1', 'durable-w1']
 */
export function parseTargetOptions(env: NodeJS.ProcessEnv): TargetOptions {
  const reps =
    env.TARGETS_REPS === undefined || env.TARGETS_REPS === '' ? undefined : count(env, 'TARGETS_REPS', 1);
  const today = env.TARGETS_TODAY;
  if (today !== undefined && !/^(?:none|[\w./-]+)$/u.test(today))
    throw usage(`TARGETS_TODAY must be a git commit or ref, or none, not '${today}'`);
  return {
    sections: sections(env),
    reps,
    syncItems: count(env, 'TARGETS_SYNC_ITEMS', 10_000),
    asyncSizes: sizes(env, flag(env, 'TARGETS_LARGE')),
    inflightItems: count(env, 'TARGETS_INFLIGHT_ITEMS', 100_000),
    durableRuns: count(env, 'TARGETS_DURABLE_RUNS', 500),
    durableItems: count(env, 'TARGETS_DURABLE_ITEMS', 10_000),
    distributedItems: count(env, 'TARGETS_DISTRIBUTED_ITEMS', 5_000),
    todayRef: today === 'none' ? undefined : today === undefined || today === '' ? TODAY_REF : today,
    strict: flag(env, 'TARGETS_STRICT'),
  };
}
