/** A recorded run's path for `render --run`: the store's events, summed up as a `--trace` file would be. */
import { parseTrace, summariseTrace, type TraceSummary } from '../../render/trace.ts';
import { displayPath } from '../output.ts';
import { openCliStore, storePathOf } from '../store-option.ts';
import { findRun } from './views.ts';

/**
 * The trace of run `runId` in the store `--store` names (or the default one): its recorded events, checked
 * as `render --trace` checks a file. A missing store is `E_NO_RUNS`, an unknown run `E_RESUME_UNKNOWN_RUN`.
 * @example
 * const trace = await readRunTrace('3f2a…', { store: 'runs.db' }, process.cwd());
 */
export async function readRunTrace(
  runId: string,
  options: { readonly store?: string },
  cwd: string,
): Promise<TraceSummary> {
  const path = storePathOf(options, process.env, cwd) as string;
  const store = await openCliStore(path, { create: false, cwd });
  try {
    await findRun(store, runId, displayPath(path, cwd));
    const lines: string[] = [];
    for await (const event of store.streamEvents(runId)) lines.push(JSON.stringify(event.body));
    return summariseTrace(parseTrace(lines.join('\n'), `run ${runId}`));
  } finally {
    await store.close();
  }
}
