/**
 * The run path `render` draws: a recorded run's (`--run`), its store's events summed up as a `--trace` file
 * would be, or a trace file's (`--trace`).
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseTrace, readTrace, summariseTrace, type TraceSummary } from '../../render/trace.ts';
import type { CliIO } from '../io.ts';
import { fileNotFound, isNotFound } from '../messages.ts';
import { displayPath } from '../output.ts';
import { isDash, readStdin, STDIN_NAME } from '../stdio.ts';
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

/**
 * The trace `render --trace` names: a file `run --events` wrote, or `-` for one piped to standard input
 * (named `<stdin>`). A missing file is the `E_FILE_NOT_FOUND` line every missing file gets.
 * @example
 * const trace = await readTraceOption('run.jsonl', io);
 */
export async function readTraceOption(
  path: string,
  io: Pick<CliIO, 'cwd' | 'stdin' | 'err'>,
): Promise<TraceSummary> {
  if (isDash(path)) {
    const example = 'switchyard runs events <id> | switchyard render dag.jsonld --trace - -o run.svg';
    return summariseTrace(parseTrace(await readStdin(io, 'a run trace', example), STDIN_NAME));
  }
  const file = resolve(io.cwd, path);
  const found = await stat(file).catch((error: unknown) => error);
  if (isNotFound(found)) throw fileNotFound(displayPath(file, io.cwd), 'given to --trace');
  return readTrace(file);
}
