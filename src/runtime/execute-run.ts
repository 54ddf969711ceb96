import { SwitchyardError } from '../errors.ts';
import type { CompiledPlacement } from '../graph/compile.ts';
import { type ClassifiedError, engineError, summarise } from './error-summary.ts';
import type { EventStream } from './event-stream.ts';
import { createItemState, type ItemState } from './item-state.ts';
import { POST_PHASE_DEADLINE_MS, runPhases } from './phases.ts';
import type { Prepared } from './prepare.ts';
import { emptyRecord, ownValue } from './record.ts';
import type { ItemAborted, ItemFailure, ItemResult, PhaseError, RunResult } from './run.ts';
import { type Ending, RunContext, type RunEnvironment } from './runner.ts';

/** The parts of the run options this module reads. */
export interface RunLimits {
  readonly signal?: AbortSignal;
  readonly deadlineMs?: number;
}

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
): Promise<RunResult> {
  const hash = await hashing;
  const clock = env.clock;
  const startedAt = clock.now();
  const deadlineMs = limits.deadlineMs ?? env.policy.run.deadlineMs;
  const run = new RunContext(
    env,
    stream.active ? stream : undefined,
    deadlineMs === undefined ? Number.POSITIVE_INFINITY : startedAt + deadlineMs,
  );

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

  try {
    return await carryOut(run, prep, entrypoint, states, runId, hash, startedAt);
  } finally {
    timer?.abort();
    userSignal?.removeEventListener('abort', onAbort);
  }
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
): Promise<RunResult> {
  const dagId = prep.compiled.dag.id;
  const clock = run.clock;
  run.events?.emit({ type: 'run.start', dag: dagId, hash, items: states.length });
  const runItem = createItemState('run', { items: states.length });

  let endings: Ending[];
  const phaseErrors: PhaseError[] = [];
  const preError = await runPhases(run, prep, prep.compiled.pre, runItem, run);
  if (preError !== undefined) {
    phaseErrors.push(preError);
    const error: ClassifiedError = {
      engineCode: preError.error.code,
      code: preError.error.code,
      message: `pre phase '${preError.placement}' failed: ${preError.error.message}`,
      retryable: preError.error.retryable,
      kind: preError.error.kind ?? 'error',
    };
    endings = states.map((state) => run.failed(dagId, state, preError.placement, error));
  } else {
    endings = await Promise.all(states.map((state) => run.drive(prep, state, entrypoint)));
  }

  const result = assemble(run, dagId, states, endings);
  const statusOf = () =>
    run.stopReason === 'abort'
      ? 'aborted'
      : result.completed === states.length && phaseErrors.length === 0
        ? 'completed'
        : 'failed';
  runItem.data.status = statusOf();
  runItem.data.completed = result.completed;
  runItem.data.failed = states.length - result.completed;
  const postError =
    prep.compiled.post.length === 0
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
  return {
    runId,
    dag: dagId,
    hash,
    status,
    items: result.items,
    failures: result.failures,
    aborted: result.aborted,
    phaseErrors,
    stats: {
      executions: run.executions,
      retries: run.retries,
      salvages: run.salvages,
      exhausted: run.exhausted,
      durationMs,
      byTerminal: result.byTerminal,
    },
    ...(listenerErrors === undefined ? {} : { listenerErrors: { ...listenerErrors } }),
  };
}

/** Sorts endings into the three lists, in input order; stopped items fail with E_RUN_DEADLINE on a deadline. */
function assemble(run: RunContext, dagId: string, states: readonly ItemState[], endings: readonly Ending[]) {
  const items: ItemResult[] = [];
  const failures: ItemFailure[] = [];
  const aborted: ItemAborted[] = [];
  const byTerminal = emptyRecord<number>();
  let completed = 0;
  endings.forEach((ending, i) => {
    const state = states[i] as ItemState;
    if (ending.kind === 'terminal') {
      items.push({
        id: state.id,
        terminal: ending.placement,
        outcome: ending.outcome,
        data: state.data,
        state,
      });
      byTerminal[ending.placement] = (ownValue(byTerminal, ending.placement) ?? 0) + 1;
      if (ending.outcome === 'completed') completed++;
    } else if (ending.kind === 'failed') {
      failures.push({ id: state.id, placement: ending.placement, error: summarise(ending.error), state });
    } else if (run.stopReason === 'deadline') {
      const message = `the run deadline passed while item ${state.id} was at '${ending.placement}' (waiting for ${ending.waitingFor}); raise the run deadline`;
      const error = engineError('E_RUN_DEADLINE', message, 'timeout');
      run.failed(dagId, state, ending.placement, error);
      failures.push({ id: state.id, placement: ending.placement, error: summarise(error), state });
    } else {
      aborted.push({ item: state.id, placement: ending.placement, waitingFor: ending.waitingFor, state });
    }
  });
  return { items, failures, aborted, byTerminal, completed };
}
