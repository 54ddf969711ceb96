import type { CompiledPlacement } from '../graph/compile.ts';
import { classifyError } from '../policy/classify.ts';
import { engineError, summarise, withEngineCode } from './error-summary.ts';
import { ExecutionContext, isThenable, settleNode } from './execute.ts';
import { countVisit, type ItemState } from './item-state.ts';
import type { Prepared } from './prepare.ts';
import type { PhaseError } from './run.ts';
import type { RunContext } from './runner.ts';

/**
 * Runs phase placements in key order, each once, with a run-level item (`id` 'run') whose data is shared by
 * the pre and post phases. Stops at the first phase that throws and returns its error. `signal` is the
 * run signal for pre phases, and a signal of its own for post phases (they run even after an abort).
 */
export async function runPhases(
  run: RunContext,
  prep: Prepared,
  phases: readonly CompiledPlacement[],
  runItem: ItemState,
  signal: AbortSignal,
): Promise<PhaseError | undefined> {
  const ev = run.events;
  const dagId = prep.compiled.dag.id;
  for (const at of phases) {
    const visit = countVisit(runItem, at.key);
    const started = ev ? run.clock.now() : 0;
    if (ev) ev.emit({ type: 'placement.start', item: runItem.id, dag: dagId, placement: at.key, visit });
    const node = prep.nodes[at.index];
    let failure: PhaseError | undefined;
    if (node?.run === undefined) {
      const iri = prep.nodeIris[at.index] ?? '(none)';
      const message = `phase '${at.key}' needs node '${iri}' with a run function; register it in createDispatcher({ nodes })`;
      failure = { placement: at.key, error: summarise(engineError('E_NODE_NOT_REGISTERED', message)) };
    } else {
      run.executions++;
      const deadlineMs = prep.timings[at.index]?.deadlineMs;
      const execution = deadlineMs === undefined ? undefined : new AbortController();
      const ctxSignal = execution === undefined ? signal : AbortSignal.any([signal, execution.signal]);
      const ctx = new ExecutionContext(
        { signal: ctxSignal },
        run.env.services,
        at.key,
        dagId,
        visit,
        runItem,
        run.clock,
      );
      try {
        const result = node.run(runItem, ctx);
        if (isThenable(result)) await settleNode(result, signal, run.clock, at.key, deadlineMs, execution);
      } catch (error) {
        // An aborted run stops its pre phases quietly: the items then stop too, and are listed as aborted.
        if (signal.aborted && run.stopReason !== undefined) return undefined;
        const classified = withEngineCode(error, classifyError(error, run.env.policy.classification));
        failure = { placement: at.key, error: summarise(classified) };
      }
    }
    if (ev) {
      const durationMs = run.clock.now() - started;
      const output = failure === undefined ? 'done' : 'error';
      const error = failure === undefined ? {} : { error: failure.error };
      ev.emit({
        type: 'placement.end',
        item: runItem.id,
        dag: dagId,
        placement: at.key,
        output,
        durationMs,
        ...error,
      });
    }
    if (failure !== undefined) return failure;
  }
  return undefined;
}
