/**
 * What `run` and `resume` print when a run ends: the summary, or with `--json` the result as JSON (items
 * with the budgets they spent, failures with their data), both naming the run id and the store it is in.
 */
import type { RunResult } from '../runtime/run.ts';
import { safeStringify } from '../safe-json.ts';
import type { CliIO } from './io.ts';
import { displayPath } from './output.ts';
import { type ErrorCollector, formatSummary } from './run-summary.ts';

/** How a run's result is printed. */
export interface PrintOptions {
  readonly json: boolean;
  /** The policy file as shown to the user, when one was used. */
  readonly policyFrom: string | undefined;
  readonly virtualTime: boolean;
  readonly errors: ErrorCollector['errors'];
  /** The store file the run is recorded in; undefined when it was not recorded. */
  readonly storePath: string | undefined;
  /** Set on a resume: the summary says so. */
  readonly resumed?: boolean;
}

/** Prints `result` on `io.out`. */
export function printRunResult(io: CliIO, result: RunResult, options: PrintOptions): void {
  if (options.json) {
    const { items: ended, failures, aborted, waiting, ...rest } = result;
    io.out(
      safeStringify(
        {
          ...rest,
          ...(options.resumed ? { resumed: true } : {}),
          store: options.storePath ?? null,
          policy: options.policyFrom ?? null,
          items: ended.map(({ state, ...item }) => ({ ...item, budgets: state.budgets })),
          failures: failures.map(({ state, ...failure }) => ({ ...failure, data: state.data })),
          aborted: aborted.map(({ state, ...entry }) => entry),
          ...(waiting === undefined ? {} : { waiting: waiting.map(({ state, ...entry }) => entry) }),
        },
        2,
      ),
    );
    return;
  }
  const summary = formatSummary(result, {
    policyFrom: options.policyFrom,
    virtualTime: options.virtualTime,
    errors: options.errors,
  });
  const [first, ...rest] = summary;
  if (first !== undefined) io.out(options.resumed ? first.replace(/^run /u, 'resumed run ') : first);
  if (options.storePath !== undefined) {
    io.out(`recorded in ${displayPath(options.storePath, io.cwd)} as ${result.runId}`);
  }
  for (const line of rest) io.out(line);
}
