import { SwitchyardError } from '../errors.ts';
import type { CompiledPlacement } from '../graph/compile.ts';
import { BatchExecutionContext, ExecutionContext, scopeOf, settleNode } from './execute.ts';
import type { ItemState } from './item-state.ts';
import type { NodeDefinition, NodeResult } from './node.ts';
import type { Prepared } from './prepare.ts';
import type { RunContext } from './runner.ts';
import { classifyThrown, dataChecked, type TaskOutcome, toOutcome } from './task.ts';

interface Waiting {
  /** The context the item runs in: the run, or a cancellable scope of it. */
  readonly from: RunContext;
  readonly state: ItemState;
  readonly visit: number;
  /** What is left of the placement's deadline for this item (less a wait at its gate); undefined: all of it. */
  readonly deadlineMs: number | undefined;
  readonly resolve: (outcome: TaskOutcome) => void;
  readonly reject: (reason: unknown) => void;
}

/**
 * Collects the items that reach a batch node's placement before the microtask queue drains, and hands them
 * to the node together (at most `maxBatch` at a time). Each item gets its own result; a thrown batch error
 * (or a deadline) applies to every item of that batch.
 */
class Batcher {
  private queue: Waiting[] = [];
  private scheduled = false;

  constructor(
    private readonly run: RunContext,
    private readonly prep: Prepared,
    private readonly at: CompiledPlacement,
    private readonly node: NodeDefinition,
  ) {}

  /**
   * Queues one item, running in `from` (the run or a scope of it); resolves with its outcome once its batch
   * has run. Rejects with the signal's reason instead when `from` is stopped before the batch starts.
   */
  submit(
    state: ItemState,
    visit: number,
    from: RunContext = this.run,
    deadlineMs: number | undefined = undefined,
  ): Promise<TaskOutcome> {
    if (from.stopReason !== undefined) return Promise.reject(from.signal.reason);
    return new Promise<TaskOutcome>((resolve, reject) => {
      this.queue.push({ from, state, visit, deadlineMs, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        queueMicrotask(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    // Items whose run (or scope) stopped while they were queued never reach the node: they stop where they
    // stand, and an aborted run calls no node at all.
    const all: Waiting[] = [];
    for (const entry of this.queue) {
      if (entry.from.stopReason === undefined) all.push(entry);
      else entry.reject(entry.from.signal.reason);
    }
    this.queue = [];
    const size = Math.max(1, this.node.maxBatch ?? all.length);
    for (let i = 0; i < all.length; i += size) void this.runBatch(all.slice(i, i + size));
  }

  private async runBatch(entries: readonly Waiting[]): Promise<void> {
    const { run, prep, at, node } = this;
    if (run.stopReason !== undefined) {
      for (const entry of entries) entry.reject(run.signal.reason);
      return;
    }
    run.count('executions', entries.length);
    // A batch runs under the shortest deadline any of its items has left.
    let deadlineMs = prep.timings[at.index]?.deadlineMs;
    for (const entry of entries) {
      if (entry.deadlineMs !== undefined && (deadlineMs === undefined || entry.deadlineMs < deadlineMs))
        deadlineMs = entry.deadlineMs;
    }
    const scope = scopeOf(run, deadlineMs);
    const dagId = prep.compiled.dag.id;
    const services = run.env.services;
    const contexts = entries.map(
      (e) => new ExecutionContext(scope, services, at.key, dagId, e.visit, e.state, run.clock, run.runId),
    );
    const ctx = new BatchExecutionContext(scope, services, at.key, dagId, contexts, run.clock);
    try {
      const batch = node.batch as NonNullable<NodeDefinition['batch']>;
      const pending = Promise.resolve().then(() =>
        batch(
          entries.map((e) => e.state),
          ctx,
        ),
      );
      const results: readonly NodeResult[] = await settleNode(pending, run.signal, run.clock, at.key, scope);
      if (!Array.isArray(results) || results.length !== entries.length) {
        throw new SwitchyardError(
          'E_NODE_ERROR',
          `batch node '${node.id}' returned ${Array.isArray(results) ? results.length : 'no'} results for ${entries.length} items; return one result per item, in order`,
        );
      }
      entries.forEach((entry, i) => {
        entry.resolve(dataChecked(entry.state, at.key, toOutcome(run, results[i], at.key)));
      });
    } catch (error) {
      let outcome: TaskOutcome;
      try {
        outcome = classifyThrown(run, error);
      } catch (stop) {
        for (const entry of entries) entry.reject(stop);
        return;
      }
      for (const entry of entries) entry.resolve(dataChecked(entry.state, at.key, outcome));
    }
  }
}

/**
 * The batcher of a placement within a run, created on first use. It belongs to the run itself, not to a
 * cancellable scope: a batch may hold items of several scopes, so one scope's cancellation must not abort it.
 */
export function batcherOf(
  run: RunContext,
  prep: Prepared,
  at: CompiledPlacement,
  node: NodeDefinition,
): Batcher {
  const slots = run.slotsOf(prep);
  let batcher = slots.batchers[at.index] as Batcher | undefined;
  if (batcher === undefined) {
    batcher = new Batcher(run.root, prep, at, node);
    slots.batchers[at.index] = batcher;
  }
  return batcher;
}
