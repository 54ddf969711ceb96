import type { CompiledPlacement } from '../graph/compile.ts';
import { classifyError } from '../policy/classify.ts';
import { engineError, summarise, withEngineCode } from './error-summary.ts';
import { ExecutionContext, isThenableNodeResult, type SignalSource, scopeOf, settleNode } from './execute.ts';
import { checkItemData, faultText, replaceByJsonForm } from './item-data.ts';
import { countVisit, type ItemState } from './item-state.ts';
import type { Prepared } from './prepare.ts';
import type { PhaseError } from './run.ts';
import type { RunContext } from './runner.ts';

/**
 * The deadline of a post phase whose timing sets none: post phases run even after an abort, and nothing
 * else would stop one that never answers.
 */
export const POST_PHASE_DEADLINE_MS = 30_000;

/**
 * Runs phase placements in key order, each once, with a run-level item (`id` 'run') whose data is shared by
 * the pre and post phases. Stops at the first phase that throws and returns its error. `source` holds the
 * run signal for pre phases, and a signal of its own for post phases (they run even after an abort).
 * `fallbackDeadlineMs` applies to phases whose timing has no `deadlineMs` (post phases:
 * {@link POST_PHASE_DEADLINE_MS}).
 */
export async function runPhases(
  run: RunContext,
  prep: Prepared,
  phases: readonly CompiledPlacement[],
  runItem: ItemState,
  source: SignalSource,
  fallbackDeadlineMs?: number,
): Promise<PhaseError | undefined> {
  const ev = run.events;
  const dagId = prep.compiled.dag.id;
  for (const at of phases) {
    // A stopped run calls no more nodes; post phases run on a signal of their own, which never stops here.
    if (source.signal.aborted) return undefined;
    const visit = countVisit(runItem, at.key);
    const started = ev ? run.placementStart(ev, runItem.id, dagId, at.key, visit) : 0;
    const node = prep.nodes[at.index];
    let failure: PhaseError | undefined;
    if (node?.run === undefined) {
      const iri = prep.nodeIris[at.index] ?? '(none)';
      const message = `phase '${at.key}' needs node '${iri}' with a run function; register it in createDispatcher({ nodes })`;
      failure = { placement: at.key, error: summarise(engineError('E_NODE_NOT_REGISTERED', message)) };
    } else {
      run.count('executions');
      const scope = scopeOf(source, prep.timings[at.index]?.deadlineMs ?? fallbackDeadlineMs);
      const ctx = new ExecutionContext(
        scope,
        run.env.services,
        at.key,
        dagId,
        visit,
        runItem,
        run.clock,
        run.runId,
      );
      try {
        const tracing = run.tracing;
        const phase = node;
        const result =
          tracing === undefined
            ? node.run(runItem, ctx)
            : tracing.within(runItem.id, ctx, () => phase.run?.(runItem, ctx));
        if (isThenableNodeResult(result)) await settleNode(result, source.signal, run.clock, at.key, scope);
      } catch (error) {
        // An aborted run stops its pre phases quietly: the items then stop too, and are listed as aborted.
        if (source.signal.aborted && run.stopReason !== undefined) return undefined;
        const classified = withEngineCode(error, classifyError(error, run.env.policy.classification));
        failure = { placement: at.key, error: summarise(classified) };
      }
      const fault = checkItemData(runItem);
      if (fault !== undefined) {
        replaceByJsonForm(runItem);
        const message = `the phase at placement '${at.key}' left run data that ${faultText(fault)}`;
        failure = { placement: at.key, error: summarise(engineError('E_ITEM_DATA', message)) };
      }
    }
    if (ev) {
      const output = failure === undefined ? 'done' : 'error';
      const error = failure?.error;
      run.placementEnd(ev, { item: runItem.id, dag: dagId, placement: at.key, output, error }, started);
    }
    if (failure !== undefined) return failure;
  }
  return undefined;
}
