import type { GatherPlacement } from '../document/model.ts';
import { SwitchyardError } from '../errors.ts';
import type { CompiledPlacement } from '../graph/compile.ts';
import { type ClassifiedError, summarise } from './error-summary.ts';
import { isThenable } from './execute.ts';
import { countVisit, type ItemState } from './item-state.ts';
import type { ChildDocument } from './kinds/children.ts';
import { type ChildResult, decided } from './kinds/gather.ts';
import { bodyEnding, childResult, type ScatterEntry, scatterChild, scatterFan } from './kinds/scatter.ts';
import type { Prepared } from './prepare.ts';
import { endingRecord } from './recorder.ts';
import { endingOf, restoredState } from './resume-book.ts';
import type { WaitingFor } from './run.ts';
import type { Ending, RunContext } from './runner.ts';
import type { Semaphore } from './semaphore.ts';
import { runTask, type TaskOutcome } from './task.ts';

/**
 * Fans the array at the scatter's `items` pointer out into child items in this process and runs them (what
 * the children are, and the result each gives its gather, is the scatter kind's: see `kinds/scatter.ts`).
 * The placement's `concurrency` bounds the children in flight across the whole run: the children of every
 * item that reaches this scatter share it. A node body runs once for each child (no routes inside the body;
 * the placement's deadline applies to each execution); a body document's child runs from its first
 * entrypoint with fresh budgets. An input the scatter cannot fan out is its error outcome (the scatter's
 * `error` route, if any).
 *
 * Once the settled children fix what the gather will return (a `first` gather with its winner, see
 * `decided` in the gather module), the rest are cancelled: children not started are never started, running
 * ones see their `ctx.signal` abort with `E_CANCELLED` and stop where they stand. Each ends with status
 * `cancelled` and an `item.cancelled` event; none is lost or counted as failed.
 */
export async function runScatter(
  run: RunContext,
  prep: Prepared,
  at: CompiledPlacement,
  state: ItemState,
  visit: number,
): Promise<{ readonly results: ChildResult[] } | { readonly error: ClassifiedError }> {
  const fan = scatterFan(at, state.data, run.env, 'createDispatcher');
  if ('error' in fan) return fan;
  const { list, body } = fan;
  const done = at.routes.get('done')?.target.placement;
  const gather = done?.kind === 'gather' ? done : undefined;
  const job = new ScatterJob(run, prep, at, state, visit, list, body, gather);
  const limit = Math.max(1, Math.min(list.length, prep.timings[at.index]?.concurrency ?? list.length));
  const workers: Promise<void>[] = [];
  for (let w = 0; w < limit; w++) workers.push(job.work());
  await Promise.all(workers);
  job.cancelUnstarted();
  return { results: job.results };
}

/** One scatter execution: hands out child indices to the workers and records each child's result. */
class ScatterJob {
  readonly results: ChildResult[];
  private next = 0;
  private order = 0;
  /** The results in the order they settled, for deciding the gather early. */
  private readonly settled: ChildResult[] = [];
  /** Aborted when the gather's result is decided; only made when the gather can be decided early. */
  private readonly cancel: AbortController | undefined;
  /** Where the children run: a cancellable scope of the run when the gather can be decided early. */
  private readonly scope: RunContext;
  /** The run-wide limit of this scatter's children in flight. */
  private readonly semaphore: Semaphore | undefined;
  /** Where the children come from, for making them. */
  private readonly entry: ScatterEntry;

  constructor(
    private readonly run: RunContext,
    private readonly prep: Prepared,
    private readonly at: CompiledPlacement,
    parent: ItemState,
    visit: number,
    private readonly list: readonly unknown[],
    private readonly body: ChildDocument | undefined,
    private readonly gather: GatherPlacement | undefined,
  ) {
    this.results = new Array(list.length);
    this.entry = { parent, placement: at.key, dag: prep.compiled.dag.id, visit };
    this.cancel = gather?.reducer === 'first' && list.length > 1 ? new AbortController() : undefined;
    this.scope = this.cancel === undefined ? run : run.cancellable(this.cancel.signal);
    this.semaphore = run.semaphoreOf(prep, at);
  }

  private get cancelled(): boolean {
    return this.cancel?.signal.aborted === true;
  }

  /** One worker: runs children one after another, each in a slot of the run-wide limit, until none is left. */
  async work(): Promise<void> {
    const n = this.list.length;
    const semaphore = this.semaphore;
    while (this.next < n && !this.cancelled) {
      // Once the run is stopped no worker starts another child.
      if (this.run.stopReason !== undefined) throw this.run.signal.reason;
      if (semaphore !== undefined && !semaphore.tryAcquire()) {
        try {
          await semaphore.acquire(this.scope.signal);
        } catch (error) {
          if (this.run.stopReason === undefined && this.cancelled) return;
          throw error;
        }
      }
      try {
        if (this.next >= n || this.cancelled) return;
        await this.runChild(this.next++);
      } finally {
        semaphore?.release();
      }
    }
  }

  /**
   * Runs child `index` to its end; a child stopped by the cancellation is recorded as cancelled. In a
   * resumed run a child that had ended is not run again, and a sub-DAG child goes on from its checkpoint.
   */
  private async runChild(index: number): Promise<void> {
    const fresh = scatterChild(this.entry, index, this.list[index]);
    try {
      if (this.body === undefined) {
        const saved = this.run.durable?.book?.take(fresh.id, fresh.frames ?? []);
        if (saved?.ending !== undefined) {
          this.settle(index, restoredState(saved, fresh), endingOf(saved.ending, this.at.key));
          return;
        }
        const pending = bodyOutcome(this.scope, this.prep, this.at, fresh);
        const ending = bodyEnding(this.at, isThenable<TaskOutcome>(pending) ? await pending : pending);
        // A durable run records a node body's ending, so a resume does not run it again.
        const record = endingRecord(ending, false);
        this.run.durable?.recorder.ended(this.prep.compiled.dag.id, fresh, this.at.key, record);
        this.settle(index, fresh, ending);
      } else {
        const { prep, entry } = this.body;
        const running = this.scope.driveChild(prep, fresh, entry);
        this.settle(index, fresh, isThenable<Ending>(running) ? await running : running);
      }
    } catch (error) {
      if (this.run.stopReason !== undefined || !this.cancelled) throw error;
      this.recordCancelled(index, fresh, 'node');
    }
  }

  /** Records every child that never started as cancelled (none unless the gather was decided early). */
  cancelUnstarted(): void {
    if (!this.cancelled) return;
    for (let index = 0; index < this.list.length; index++) {
      if (this.results[index] !== undefined) continue;
      this.recordCancelled(index, scatterChild(this.entry, index, this.list[index], false), 'queue');
    }
  }

  /** Records child `index` as cancelled where it stood, with its `item.cancelled` event. */
  private recordCancelled(index: number, child: ItemState, waitingFor: WaitingFor): void {
    const ending = { kind: 'stopped', placement: this.at.key, waitingFor } as const;
    this.results[index] = { ...childResult(child, ending, index, false), order: this.order++ };
    const dag = this.prep.compiled.dag.id;
    this.run.events?.emit({
      type: 'item.cancelled',
      item: child.id,
      dag,
      placement: this.at.key,
      waitingFor,
    });
    this.run.durable?.recorder.ended(dag, child, this.at.key, endingRecord(ending, true));
  }

  /** Records how child `index` ended as its result, and cancels the rest once the gather is decided. */
  private settle(index: number, child: ItemState, ending: Ending): void {
    // Only a cancellation stops a child while its run goes on, now or before a restart; the child's own
    // drive reported it (item.cancelled) where it stood.
    if (ending.kind === 'stopped' && this.run.stopReason !== undefined) throw this.run.signal.reason;
    const result: ChildResult = {
      ...childResult(child, ending, index, this.body !== undefined),
      order: this.order++,
    };
    this.results[index] = result;
    if (result.status === 'cancelled') return;
    this.settled.push(result);
    // A child that ends after the result was decided (one that ignored the abort, or a batch already
    // running) is kept as it ended: a late result cannot change a decided gather.
    if (
      this.cancel !== undefined &&
      !this.cancelled &&
      decided(this.gather as GatherPlacement, this.settled, this.list.length)
    ) {
      const gather = this.at.routes.get('done')?.target.key ?? '';
      this.cancel.abort(
        new SwitchyardError(
          'E_CANCELLED',
          `gather '${gather}' has its result without the children of scatter '${this.at.key}' still running, so they were cancelled`,
        ),
      );
    }
  }
}

/** Runs the scatter's body node for one child, with the placement's events (also a distributed child job's work). */
export function bodyOutcome(
  run: RunContext,
  prep: Prepared,
  at: CompiledPlacement,
  child: ItemState,
): TaskOutcome | Promise<TaskOutcome> {
  if (run.stopReason !== undefined) throw run.signal.reason;
  const ev = run.events;
  const dagId = prep.compiled.dag.id;
  const visit = countVisit(child, at.key);
  const started = ev ? run.placementStart(ev, child.id, dagId, at.key, visit) : 0;
  const end = (outcome: TaskOutcome): TaskOutcome => {
    if (ev) {
      const error = 'error' in outcome ? summarise(outcome.error) : undefined;
      const output = 'error' in outcome ? 'error' : outcome.output;
      run.placementEnd(ev, { item: child.id, dag: dagId, placement: at.key, output, error }, started);
    }
    return outcome;
  };
  const pending = runTask(run, prep, at, child, visit);
  return isThenable<TaskOutcome>(pending) ? pending.then(end) : end(pending);
}
