/**
 * What the fuzz test files share: how many cases a property runs (`FUZZ_RUNS`, default {@link DEFAULT_RUNS}),
 * the per-case hang guard, and how a case's violations are turned into an assertion.
 */
import fc from 'fast-check';
import type { CaseReport, Violation, ViolationKind } from './commands.ts';
import { SHIPPED } from './documents.ts';

/** The seed of `npm test`'s cases. */
const FIXED_SEED = 20_261_201;
/** Cases per property in `npm test`. */
export const DEFAULT_RUNS = 10;
/** Cases per property: `FUZZ_RUNS`, or {@link DEFAULT_RUNS}. */
export const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? DEFAULT_RUNS) || DEFAULT_RUNS);
/**
 * The seed of every property: `FUZZ_SEED`; else a fixed one in `npm test` (no `FUZZ_RUNS`), so that the
 * suite checks the same cases on every machine and a red run is a change, not a draw; else (`npm run fuzz`)
 * a fresh one each run, to explore.
 */
export const SEED: number | undefined =
  process.env.FUZZ_SEED !== undefined && process.env.FUZZ_SEED !== ''
    ? Number(process.env.FUZZ_SEED) | 0
    : process.env.FUZZ_RUNS === undefined
      ? FIXED_SEED
      : undefined;
/** The hang guard: a case (all its commands) that takes longer fails. */
export const CASE_LIMIT_MS = 20_000;
/** The whole property's time limit, for vitest: the hang guard times the number of cases, plus slack. */
export const TEST_LIMIT_MS = RUNS * CASE_LIMIT_MS + 60_000;

/**
 * fast-check parameters of a property: the number of cases, the per-case hang guard, and an end to the
 * whole run (shrinking included) before vitest's limit, so that a failure found is reported rather than
 * cut off.
 */
export const params = {
  numRuns: RUNS,
  ...(SEED === undefined ? {} : { seed: SEED }),
  timeout: CASE_LIMIT_MS,
  interruptAfterTimeLimit: TEST_LIMIT_MS - 30_000,
} as const;

/** Violations other than `skip`, as one message per line (empty when there are none). */
export function broken(report: CaseReport, skip: readonly ViolationKind[] = ['uncoded']): string[] {
  return report.violations
    .filter((v) => !skip.includes(v.kind))
    .map((v: Violation) => `${v.kind} in ${v.command}: ${v.detail}`);
}

/** The path under `dags/` of a shipped document. */
export const shippedDoc = fc.constantFrom(...SHIPPED.map((s) => s.path));
