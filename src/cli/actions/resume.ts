import type { Dag } from '../../document/model.ts';
import { systemClock } from '../../policy/clock.ts';
import { resolveRecordedPolicy } from '../../policy/recorded.ts';
import type { Clock, RuntimePolicy } from '../../policy/types.ts';
import { createDispatcher } from '../../runtime/dispatcher.ts';
import { RUN_FORMAT_VERSION } from '../../runtime/durable-run.ts';
import type { RunEvent } from '../../runtime/events.ts';
import type { RunResult } from '../../runtime/run.ts';
import type { RunRecord, RunStore } from '../../store/types.ts';
import type { SetExit } from '../commands/index.ts';
import type { ResumeCommandOptions } from '../commands/resume.ts';
import { runExitCode } from '../exit-code.ts';
import type { CliIO } from '../io.ts';
import { loadNodeModule } from '../node-modules.ts';
import { flushOtel, otelFor, tracerOption } from '../otel-flag.ts';
import { displayPath } from '../output.ts';
import { tellParked } from '../parked.ts';
import { loadPolicyFor, type PolicyIO } from '../policy-file.ts';
import type { Wait } from '../progress-state.ts';
import { type RecordedDocuments, recordedDocuments } from '../run-documents.ts';
import { openEvents } from '../run-events.ts';
import { claimRunStdio, runFlags, summaryIO } from '../run-flags.ts';
import { printRunResult } from '../run-output.ts';
import { progressMode, runProgress } from '../run-progress.ts';
import { interruptOnSigint, openResumeStore, resumeCommand, resumeHint } from '../run-store.ts';
import { errorCollector } from '../run-summary.ts';
import { isDash, STDIN_NAME } from '../stdio.ts';

/** The run's policy: `--policy` when given, else the one the run was recorded with. */
async function policyOf(
  record: RunRecord,
  option: string | undefined,
  io: PolicyIO,
  documents: RecordedDocuments | undefined,
): Promise<{ policy: RuntimePolicy; from: string }> {
  if (option !== undefined) {
    const target =
      documents?.dag === undefined
        ? { dag: record.dag.document as Dag }
        : { dag: documents.dag, ...(documents.library === undefined ? {} : { library: documents.library }) };
    const from = isDash(option) ? STDIN_NAME : displayPath(option, io.cwd);
    return { policy: await loadPolicyFor(option, io, target), from };
  }
  return { policy: resolveRecordedPolicy(record.policy.value), from: 'as recorded with the run' };
}

/**
 * What the progress line starts from on a resume (read only when it shows): the input items that had ended,
 * and the back-offs and Retry-After waits items were in, which the run goes on with without an event; a
 * wait's end is recorded in wall time and shown on the run's clock.
 */
async function progressBefore(
  store: RunStore,
  runId: string,
  clock: Clock,
): Promise<{ alreadyEnded: number; waiting: Wait[] }> {
  const ended = await store.listCheckpoints(runId, 'ended');
  const waiting: Wait[] = [];
  for (const c of await store.listCheckpoints(runId, 'waiting')) {
    const wait = c.position.wait;
    // A parked item is shown by its await events, not as a wait that ends at its deadline.
    if (wait === undefined || wait.reason === 'queue' || wait.reason === 'await') continue;
    const delayMs = Math.max(0, wait.until - clock.wallNow());
    const until = clock.now() + delayMs;
    waiting.push({
      item: c.itemId,
      placement: c.position.placement,
      source: wait.reason,
      reason: undefined,
      delayMs,
      until,
    });
  }
  return { alreadyEnded: ended.filter((c) => !/[./]/u.test(c.itemId)).length, waiting };
}

/** `fn`, run on the first call only. */
function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

/**
 * Carries out `switchyard resume <run-id> --nodes <module>` (described in commands/resume.ts): goes on
 * with a recorded run where each item stood and prints the summary `run` prints.
 */
export async function resumeAction(
  runId: string,
  options: ResumeCommandOptions,
  io: CliIO,
  setExit: SetExit,
): Promise<void> {
  // Flag values first: a wrong command line is a usage error whatever the store holds.
  const { deadlineMs, clock, random } = runFlags(options);
  claimRunStdio(undefined, options);
  const nodes = await loadNodeModule(options.nodes, io.cwd);
  const opened = await openResumeStore(options.store, io.cwd);
  const { store, path } = opened;
  let result: RunResult;
  let otel: Awaited<ReturnType<typeof otelFor>>;
  const interrupt = interruptOnSigint();
  try {
    const record = await store.getRun(runId);
    // An unknown, finished or newer run is refused by the engine with its own line; its files are not read.
    const live =
      record !== undefined &&
      (record.status === 'running' || record.status === 'aborted' || record.status === 'waiting') &&
      record.formatVersion <= RUN_FORMAT_VERSION;
    const documents = live ? await recordedDocuments(record, io.cwd, nodes) : undefined;
    // Said once the run goes on: a resume the engine refuses is its one line, nothing else.
    const tellGone = once(() => {
      for (const gone of documents?.missing ?? []) {
        io.err(
          `switchyard: ${displayPath(gone, io.cwd)} is gone; run ${runId} goes on with the document recorded with it`,
        );
      }
    });
    const { policy, from } =
      record === undefined || !live
        ? { policy: undefined, from: undefined }
        : await policyOf(record, options.policy, io, documents);
    otel = await otelFor(options.otel);
    const dispatcher = createDispatcher({
      nodes,
      store,
      ...tracerOption(otel),
      ...(documents?.library === undefined ? {} : { library: documents.library }),
      ...(policy === undefined ? {} : { policy }),
      ...(clock === undefined ? {} : { clock }),
      ...(random === undefined ? {} : { random }),
    });
    // A run the engine refuses before it reads anything leaves no empty events file.
    const events = options.events === undefined || !live ? undefined : await openEvents(options.events, io);
    const errors = errorCollector();
    const total = Number((record?.options as { items?: unknown } | undefined)?.items ?? 0);
    const runClock = clock ?? systemClock;
    const shown = live && progressMode(options.progress, io.progress ?? process.stderr) !== 'off';
    const before = shown ? await progressBefore(store, runId, runClock) : {};
    const progress = runProgress({ total, runId, ...before, clock: runClock, flag: options.progress }, io);
    const onEvent = (event: RunEvent) => {
      if (event.type === 'run.start') tellGone();
      errors.onEvent(event);
      progress.onEvent(event);
      events?.write(event);
    };
    try {
      result = await dispatcher.resume(runId, {
        signal: interrupt.signal,
        onEvent,
        whenParked: options.keepWaiting === true ? 'wait' : 'stop',
        ...(deadlineMs === undefined ? {} : { deadlineMs }),
        ...(documents?.dag === undefined ? {} : { dag: documents.dag }),
      });
    } finally {
      progress.stop();
      await events?.close();
    }
    tellGone();
    printRunResult(summaryIO(io, options), result, {
      json: options.json === true,
      policyFrom: from,
      virtualTime: options.virtualTime === true,
      errors: errors.errors,
      storePath: path,
      resumed: true,
    });
  } finally {
    interrupt.dispose();
    await store.close();
    await flushOtel(otel, io.err);
  }
  resumeHint(
    io.err,
    result.status,
    interrupt.interrupted(),
    resumeCommand(runId, options.nodes, path, io.cwd),
  );
  tellParked(io.err, result, { nodes: options.nodes, storePath: path, cwd: io.cwd }, systemClock.wallNow());
  setExit(runExitCode(result.status));
}
