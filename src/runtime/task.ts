import type { SwitchyardError } from '../errors.ts';
import type { CompiledPlacement } from '../graph/compile.ts';
import { classifyError } from '../policy/classify.ts';
import type { NodeTracing } from '../telemetry/span-like.ts';
import { batcherOf } from './batch.ts';
import { type ClassifiedError, engineError, withEngineCode } from './error-summary.ts';
import {
  ExecutionContext,
  isThenableNodeResult,
  type NormalResult,
  normaliseResult,
  scopeOf,
  settleNode,
} from './execute.ts';
import { throughGate } from './gated-task.ts';
import { checkItemData, faultText, replaceByJsonForm } from './item-data.ts';
import type { ItemState } from './item-state.ts';
import type { NodeDefinition, NodeResult } from './node.ts';
import type { Prepared } from './prepare.ts';
import type { RunContext } from './runner.ts';

/** A task's outcome: the node's normalised result, or the classified error it threw. */
export type TaskOutcome = NormalResult | { readonly error: ClassifiedError };

/**
 * Classifies what a node threw. When the run itself was aborted, the error is rethrown instead: the item
 * stops where it is rather than being routed.
 */
export function classifyThrown(run: RunContext, error: unknown): TaskOutcome {
  if (run.signal.aborted) throw error;
  return { error: withEngineCode(error, classifyError(error, run.env.policy.classification)) };
}

/** Normalises a node result, turning a malformed one into an `E_NODE_ERROR` outcome. */
export function toOutcome(run: RunContext, result: NodeResult | undefined, placement: string): TaskOutcome {
  try {
    return normaliseResult(result, placement);
  } catch (error) {
    return classifyThrown(run, error);
  }
}

/**
 * Runs the node of placement `at` for one item: synchronously when the node answers synchronously, else
 * racing its promise against the placement deadline and the run signal. Batch nodes go through the
 * placement's batcher. An execution under a gate of the policy (each item of a batch too) waits at it first
 * (see `gated-task.ts`).
 * Throws the run signal's reason instead of calling the node once the run is stopped.
 */
export function runTask(
  run: RunContext,
  prep: Prepared,
  at: CompiledPlacement,
  state: ItemState,
  visit: number,
): TaskOutcome | Promise<TaskOutcome> {
  const node = prep.nodes[at.index];
  if (node === undefined) {
    const iri = prep.nodeIris[at.index] ?? '(none)';
    return {
      error: engineError(
        'E_NODE_NOT_REGISTERED',
        `placement '${at.key}' needs node '${iri}', which is not registered; pass it in createDispatcher({ nodes })`,
      ),
    };
  }
  const gate = prep.gates[at.index];
  if (node.batch !== undefined) {
    // Each item of a batch passes the gate as an execution of its own, then joins the batch.
    const submit = (deadlineMs?: number) =>
      batcherOf(run, prep, at, node).submit(state, visit, run, deadlineMs);
    return gate === undefined ? submit() : throughGate(run, prep, at, state, node, gate, submit);
  }
  // The closure is made only for a gated execution: an ungated one, the common case, calls the node directly.
  if (gate !== undefined) {
    const call = (deadlineMs: number | undefined) => callNode(run, prep, at, state, visit, node, deadlineMs);
    return throughGate(run, prep, at, state, node, gate, call);
  }
  return callNode(run, prep, at, state, visit, node, prep.timings[at.index]?.deadlineMs);
}

/** Calls `node` for one item under the run's signal and `deadlineMs`, as {@link runTask} says. */
function callNode(
  run: RunContext,
  prep: Prepared,
  at: CompiledPlacement,
  state: ItemState,
  visit: number,
  node: NodeDefinition,
  deadlineMs: number | undefined,
): TaskOutcome | Promise<TaskOutcome> {
  // An aborted run calls no more nodes, whatever path reached this execution.
  if (run.stopReason !== undefined) throw run.signal.reason;
  run.count('executions');
  const scope = scopeOf(run, deadlineMs);
  const dagId = prep.compiled.dag.id;
  const ctx = new ExecutionContext(
    scope,
    run.env.services,
    at.key,
    dagId,
    visit,
    state,
    run.clock,
    run.runId,
  );
  const tracing = run.tracing;
  const called =
    tracing === undefined
      ? invokeNode(run, node, state, ctx, at.key)
      : invokeTracedNode(run, tracing, node, state, ctx, at.key);
  if (!isNodeCall(called)) return called;
  return settleNode(called.pending, run.signal, run.clock, at.key, scope).then(
    (value) => nodeAnswered(run, ctx, state, value, at.key),
    (error: unknown) => nodeThrew(run, ctx, state, error, at.key),
  );
}

/**
 * {@link invokeNode} for a traced run: the node is called inside its execution's span (see
 * {@link NodeTracing.within}). A function of its own, so that the untraced call stays as small as it was.
 */
export function invokeTracedNode(
  run: RunContext,
  tracing: NodeTracing,
  node: NodeDefinition,
  state: ItemState,
  ctx: ExecutionContext,
  placement: string,
): TaskOutcome | NodeCall {
  const call = node.run as NonNullable<typeof node.run>;
  const traced = {
    ...node,
    run: (item: ItemState, context: ExecutionContext) =>
      tracing.within(item.id, context, () => call(item, context)),
  };
  return invokeNode(run, traced as NodeDefinition, state, ctx, placement);
}

/** A node's promise, as {@link invokeNode} hands it back: the node has not answered yet. */
export interface NodeCall {
  readonly pending: PromiseLike<NodeResult>;
}

/** True when {@link invokeNode} gave a node's promise rather than an outcome. */
export function isNodeCall(called: TaskOutcome | NodeCall): called is NodeCall {
  return 'pending' in called;
}

/**
 * Calls `node.run` for one item with `ctx`: a synchronous answer (or throw) comes back as its outcome, with
 * `ctx` released; a promise comes back as a {@link NodeCall}, and {@link nodeAnswered} or {@link nodeThrew}
 * takes it from there once it settles.
 */
export function invokeNode(
  run: RunContext,
  node: NodeDefinition,
  state: ItemState,
  ctx: ExecutionContext,
  placement: string,
): TaskOutcome | NodeCall {
  let result: ReturnType<NonNullable<typeof node.run>>;
  try {
    result = (node.run as NonNullable<typeof node.run>)(state, ctx);
  } catch (error) {
    ctx.release();
    return dataChecked(state, placement, classifyThrown(run, error));
  }
  if (!isThenableNodeResult<NodeResult>(result)) {
    ctx.release();
    return dataChecked(state, placement, toOutcome(run, result, placement));
  }
  return { pending: result };
}

/** The outcome of a node whose promise fulfilled with `value` (`ctx`: as for {@link nodeThrew}). */
export function nodeAnswered(
  run: RunContext,
  ctx: ExecutionContext | undefined,
  state: ItemState,
  value: NodeResult | undefined,
  placement: string,
): TaskOutcome {
  ctx?.release();
  const failure = ctx?.stepFailure;
  const outcome = failure === undefined ? toOutcome(run, value, placement) : stepValueOutcome(failure);
  return dataChecked(state, placement, outcome);
}

/**
 * The outcome of a node whose promise rejected with `error`; rethrows it when the run was aborted. `ctx` is
 * undefined when its owner was never given it (see `ContextOwner`): nothing to release, no step failed.
 */
export function nodeThrew(
  run: RunContext,
  ctx: ExecutionContext | undefined,
  state: ItemState,
  error: unknown,
  placement: string,
): TaskOutcome {
  ctx?.release();
  const failure = ctx?.stepFailure;
  const outcome = failure === undefined ? classifyThrown(run, error) : stepValueOutcome(failure);
  return dataChecked(state, placement, outcome);
}

/**
 * `outcome` when the data the node left in the item is item data (normalised in place, see `item-data.ts`);
 * else a non-retryable `E_ITEM_DATA` outcome, routed like any node error, with the data replaced by its
 * JSON form so that every executor carries the same data on.
 */
export function dataChecked(state: ItemState, placement: string, outcome: TaskOutcome): TaskOutcome {
  const fault = checkItemData(state);
  if (fault === undefined) return outcome;
  replaceByJsonForm(state);
  const message = `the node at placement '${placement}' left item data that ${faultText(fault)}`;
  return { error: engineError('E_ITEM_DATA', message) };
}

/** The outcome of an execution whose step ran but could not be recorded: a non-retryable `E_STEP_VALUE`. */
function stepValueOutcome(error: SwitchyardError): TaskOutcome {
  return { error: engineError(error.code, error.message) };
}
