import { SwitchyardError } from '../errors.ts';
import type { CompiledPlacement } from '../graph/compile.ts';
import type { NodeTracing } from '../telemetry/span-like.ts';
import type { DurableRun } from './durable-run.ts';
import { type ClassifiedError, engineError, summarise } from './error-summary.ts';
import type { EventStream } from './event-stream.ts';
import { createItemState, type ItemState } from './item-state.ts';
import { ParkWatch } from './park-watch.ts';
import { POST_PHASE_DEADLINE_MS, runPhases } from './phases.ts';
import type { Prepared } from './prepare.ts';
import { ResultLists } from './result-lists.ts';
import type { ResumedItems } from './resume-run.ts';
import type { PhaseError, RunResult } from './run.ts';
import { type Ending, RunContext, type RunEnvironment } from './runner.ts';

/** The parts of the run options this module reads. */
export interface RunLimits {
  readonly signal?: AbortSignal;
  readonly deadlineMs?: number;
  readonly whenParked?: 'wait' | 'stop';
  /** The spans of a traced run: its nodes are called inside their execution's span. */
  readonly tracing?: NodeTracing;
}

/** Why a run stopped once every item left was parked: the reason its waits end with. */
const PARKED = new Error('every item left waits for an answer');

/**
 * Carries out one run: pre phases, every item from the entrypoint (independently, no barrier), post phases
 * (always, each bounded by its deadline or {@link POST_PHASE_DEADLINE_MS}), then the result. Every input item ends in exactly one of `items`, `failures`, `aborted`.
 */
export async function executeRun(
  env: RunEnvironment,
  prep: Prepared,
  entrypoint: CompiledPlacement,
  states: readonly ItemState[],
  limits: RunLimits,
  stream: EventStream,
  runId: string,
  hashing: Promise<string>,
  durable?: DurableRun,
  resumed?: ResumedItems,
): Promise<RunResult> {
  const hash = await hashing;
  const clock = env.clock;
  const startedAt = clock.now();
  const deadlineMs = limits.deadlineMs ?? env.policy.run.deadlineMs;
  // The recorder listens to the stream before the run looks at whether anyone does.
  durable?.listen(stream);
  const run = new RunContext(
    env,
    stream.active ? stream : undefined,
    deadlineMs === undefined ? Number.POSITIVE_INFINITY : startedAt + deadlineMs,
  );
  run.runId = runId;
  if (!prep.fans) run.mostAtOnce = states.length;
  // Only a run that may park is listed for answers: a run of a document without awaits pays nothing.
  if (prep.awaits) {
    run.rootDag = prep.compiled.dag;
    run.inputItems = states.length;
    env.live?.set(runId, run);
  }
  run.tracing = limits.tracing;
  // Nothing in process reads a child's trail: a run's result holds its input items' states, and a durable
  // run's checkpoints of a child keep what its parent and a resume read (data, counts, position).
  run.childTrails = false;
  if (limits.whenParked === 'stop') {
    run.parkWatch = new ParkWatch(
      () => run.deskIfAny?.parkedCount ?? 0,
      () => {
        run.parkedAtStop = run.desk.parked();
        run.stop('parked', PARKED);
      },
    );
  }
  if (durable !== undefined) {
    run.durable = { recorder: durable.recorder, book: durable.book };
    durable.attach(states, (error) => {
      durable.recorder.failure ??= error;
      run.stop('abort', error);
    });
  }

  // Only a run with a deadline needs the timer: creating and aborting a controller per run is not free.
  const timer = deadlineMs === undefined ? undefined : new AbortController();
  if (timer !== undefined && deadlineMs !== undefined) {
    const error = new SwitchyardError(
      'E_RUN_DEADLINE',
      `the run passed its ${deadlineMs} ms deadline; raise run.deadlineMs in the policy or --deadline`,
    );
    clock.sleep(deadlineMs, timer.signal).then(
      () => run.stop('deadline', error),
      () => undefined,
    );
  }
  const userSignal = limits.signal;
  const onAbort = () => run.stop('abort', userSignal?.reason);
  if (userSignal?.aborted) onAbort();
  else userSignal?.addEventListener('abort', onAbort, { once: true });

  let result: RunResult | undefined;
  try {
    result = await carryOut(run, prep, entrypoint, states, runId, hash, startedAt, resumed);
  } finally {
    if (prep.awaits && env.live?.get(runId) === run) env.live.delete(runId);
    timer?.abort();
    userSignal?.removeEventListener('abort', onAbort);
    // A run that stopped on an abort stays resumable; one that ended (however) is finished for good.
    await durable?.finish(result === undefined || result.status === 'aborted' ? 'aborted' : result.status);
  }
  return result;
}

/** Pre phases, the items, post phases (always), the result. */
async function carryOut(
  run: RunContext,
  prep: Prepared,
  entrypoint: CompiledPlacement,
  states: readonly ItemState[],
  runId: string,
  hash: string,
  startedAt: number,
  resumed: ResumedItems | undefined,
): Promise<RunResult> {
  const starts = resumed?.starts;
  const dagId = prep.compiled.dag.id;
  const clock = run.clock;
  run.events?.emit(
    starts === undefined
      ? { type: 'run.start', dag: dagId, hash, items: states.length }
      : { type: 'run.start', dag: dagId, hash, items: states.length, resumed: true },
  );
  for (const { code, item, dag, placement, message } of resumed?.warnings ?? []) {
    run.events?.emit({ type: 'warning', code, item, dag, placement, message });
  }
  const runItem = createItemState('run', { items: states.length });

  let endings: Ending[];
  const phaseErrors: PhaseError[] = [];
  // A resumed run whose items had started ran its pre phases; one that stopped before them runs them now.
  // Without pre phases the items start in this turn (a durable run's first transaction then holds them).
  const preError =
    resumed?.preDone === true || prep.compiled.pre.length === 0
      ? undefined
      : await runPhases(run, prep, prep.compiled.pre, runItem, run);
  if (resumed?.preFailure !== undefined) phaseErrors.push(resumed.preFailure);
  if (run.stopReason === 'abort' || run.stopReason === 'deadline') {
    // Stopped during the pre phases: no item has started, and a durable run records none, so a resume
    // runs the pre phases again.
    endings = states.map((_state, i) => {
      const start = starts?.[i];
      return start !== undefined && 'ended' in start
        ? start.ended
        : { kind: 'stopped', placement: entrypoint.key, waitingFor: 'queue' };
    });
  } else if (preError !== undefined) {
    phaseErrors.push(preError);
    // Recorded as the ending of the run's own phase item, so that a resume reports it again.
    run.ended(dagId, runItem, preError.placement, {
      kind: 'failed',
      placement: preError.placement,
      error: { ...preError.error, engineCode: preError.error.code, kind: preError.error.kind ?? 'error' },
    });
    const error: ClassifiedError = {
      engineCode: preError.error.code,
      code: preError.error.code,
      message: `pre phase '${preError.placement}' failed: ${preError.error.message}`,
      retryable: preError.error.retryable,
      kind: preError.error.kind ?? 'error',
    };
    endings = states.map((state) => run.failed(dagId, state, preError.placement, error));
  } else {
    endings = await Promise.all(
      states.map((state, i) => {
        const start = starts?.[i];
        if (start === undefined) return run.drive(prep, state, entrypoint);
        return 'ended' in start ? start.ended : run.drive(prep, state, start.at, start.resumed);
      }),
    );
  }

  const result = assemble(run, dagId, states, endings);
  // An abort that came once every item had ended stopped nothing: the run ended as its items did (and a
  // durable run is then finished, not resumable).
  const waiting = run.stopReason === 'parked' && result.aborted.length > 0;
  const statusOf = () =>
    waiting
      ? 'waiting'
      : run.stopReason === 'abort' && result.aborted.length > 0
        ? 'aborted'
        : result.completed === states.length && phaseErrors.length === 0
          ? 'completed'
          : 'failed';
  runItem.data.status = statusOf();
  runItem.data.completed = result.completed;
  runItem.data.failed = states.length - result.completed;
  // A run that waits for answers has not ended: its post phases run when it does.
  const postError =
    prep.compiled.post.length === 0 || waiting
      ? undefined
      : await runPhases(
          run,
          prep,
          prep.compiled.post,
          runItem,
          { signal: new AbortController().signal },
          POST_PHASE_DEADLINE_MS,
        );
  if (postError !== undefined) phaseErrors.push(postError);

  const status = statusOf();
  const durationMs = clock.now() - startedAt;
  run.events?.emit({
    type: 'run.end',
    dag: dagId,
    status,
    completed: result.completed,
    failed: states.length - result.completed,
    durationMs,
  });
  const listenerErrors = run.events?.listenerErrors;
  const tally = run.tally;
  return {
    runId,
    dag: dagId,
    hash,
    status,
    items: result.items,
    failures: result.failures,
    aborted: waiting ? [] : result.aborted,
    ...(waiting ? { waiting: result.aborted, parked: run.parkedAtStop ?? [] } : {}),
    phaseErrors,
    // Named fields, not a spread: a spread into a literal with more fields costs a measurable share of a short run.
    stats: {
      executions: tally.executions,
      retries: tally.retries,
      salvages: tally.salvages,
      exhausted: tally.exhausted,
      durationMs,
      byTerminal: result.byTerminal,
    },
    ...(listenerErrors === undefined ? {} : { listenerErrors: { ...listenerErrors } }),
  };
}

/** Sorts endings into the three lists, in input order; stopped items fail with E_RUN_DEADLINE on a deadline. */
function assemble(run: RunContext, dagId: string, states: readonly ItemState[], endings: readonly Ending[]) {
  const lists = new ResultLists();
  endings.forEach((ending, i) => {
    const state = states[i] as ItemState;
    if (ending.kind === 'terminal') lists.terminal(state, ending.placement, ending.outcome);
    else if (ending.kind === 'failed') lists.failed(state, ending.placement, summarise(ending.error));
    else if (run.stopReason === 'deadline') {
      const message = `the run deadline passed while item ${state.id} was at '${ending.placement}' (waiting for ${ending.waitingFor}); raise the run deadline`;
      const error = engineError('E_RUN_DEADLINE', message, 'timeout');
      run.failed(dagId, state, ending.placement, error);
      lists.failed(state, ending.placement, summarise(error));
    } else lists.stopped(state, ending.placement, ending.waitingFor);
  });
  return lists;
}
