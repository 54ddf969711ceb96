import type { GatherPlacement } from '../document/model.ts';
import { SwitchyardError } from '../errors.ts';
import type { CompiledPlacement } from '../graph/compile.ts';
import { summarise } from './error-summary.ts';
import { isThenable } from './execute.ts';
import type { FanTarget } from './fan-out.ts';
import type { ChildTarget, ItemDrive } from './item-drive.ts';
import { countVisit, type ItemState } from './item-state.ts';
import type { ChildDocument } from './kinds/children.ts';
import { type ChildResult, decided } from './kinds/gather.ts';
import { bodyEnding, type ScatterEntry, scatterChild, settledResult } from './kinds/scatter.ts';
import type { Prepared } from './prepare.ts';
import { endingRecord } from './recorder.ts';
import { endingOf, restoredState, restoreInto } from './resume-book.ts';
import type { WaitingFor } from './run.ts';
import type { Ending, RunContext } from './runner.ts';
import type { Semaphore } from './semaphore.ts';
import { runTask, type TaskOutcome } from './task.ts';

/**
 * Runs the children of a scatter's fan out (see `FanOut` in `step.ts`) as items of this process, and tells
 * `target` once every child has been counted off, with the results in input order, or with the first error
 * that stops it (the run's abort or deadline). What the children are, and the result each gives its
 * gather, is the scatter kind's (see `kinds/scatter.ts`). The placement's `concurrency` bounds the children
 * in flight across the whole run: the children of every item that reaches this scatter share it. A node
 * body runs once for each child (no routes inside the body; the placement's deadline applies to each
 * execution); a body document's child runs from its first entrypoint with fresh budgets.
 *
 * Once the settled children fix what the gather will return (a `first` gather with its winner, see
 * `decided` in the gather module), the rest are cancelled: children not started are never started, running
 * ones see their `ctx.signal` abort with `E_CANCELLED` and stop where they stand. Each ends with status
 * `cancelled` and an `item.cancelled` event; none is lost or counted as failed. `target` may hear within
 * this call (a scatter of an empty list).
 */
export function startScatter(
  run: RunContext,
  prep: Prepared,
  at: CompiledPlacement,
  fan: ScatterChildren,
  target: FanTarget,
): void {
  const { list, body, entry } = fan;
  const done = at.routes.get('done')?.target.placement;
  const gather = done?.kind === 'gather' ? done : undefined;
  const job = new ScatterJob(run, prep, at, entry, list, body, gather, target);
  const limit = Math.max(1, Math.min(list.length, prep.timings[at.index]?.concurrency ?? list.length));
  job.start(limit);
}

/** What a scatter fans out: its list, its body document (none for a node body), where its children come from. */
export interface ScatterChildren {
  readonly kind: 'scatter';
  readonly list: readonly unknown[];
  readonly body: ChildDocument | undefined;
  readonly entry: ScatterEntry;
}

/**
 * One scatter execution: its children are items of the executor's, not coroutines. `limit` workers (a
 * count, not a coroutine each) take child indices in turn, each in a slot of the run-wide limit; a child's
 * ending comes back to {@link ScatterJob.childEnded}, which records it and hands its worker the next index.
 */
class ScatterJob implements ChildTarget {
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
  /** Workers that have not ended. */
  private live = 0;
  /** The first error that ended a worker: the scatter fails with it. */
  private failure: { readonly error: unknown } | undefined;
  /**
   * Children that ended in the turn that started them (null: a node body's child, already recorded), whose
   * workers go on in the next microtask, as a worker waiting on its child would: every worker starts its
   * child before any result can cancel the rest.
   */
  private ready: (ItemDrive | null)[] = [];
  private readonly onSlot = () => this.take();
  private readonly onNoSlot = (error: unknown) => {
    if (this.run.stopReason === undefined && this.cancelled) this.workerEnded();
    else this.fail(error);
  };
  private readonly drain = () => this.drainReady();

  constructor(
    private readonly run: RunContext,
    private readonly prep: Prepared,
    private readonly at: CompiledPlacement,
    entry: ScatterEntry,
    private readonly list: readonly unknown[],
    private readonly body: ChildDocument | undefined,
    private readonly gather: GatherPlacement | undefined,
    private readonly target: FanTarget,
  ) {
    this.results = new Array(list.length);
    this.entry = entry;
    this.cancel = gather?.reducer === 'first' && list.length > 1 ? new AbortController() : undefined;
    this.scope = this.cancel === undefined ? run : run.cancellable(this.cancel.signal);
    this.semaphore = run.semaphoreOf(prep, at);
  }

  private get cancelled(): boolean {
    return this.cancel?.signal.aborted === true;
  }

  /** Starts `limit` workers; the target hears once every child has ended, or of the first error that ends a worker. */
  start(limit: number): void {
    this.settleEnded();
    this.live = limit;
    for (let w = 0; w < limit; w++) this.advance();
  }

  /**
   * In a resumed run, the children that had ended before the restart settle first, in the order they ended
   * (their checkpoints' times, then input order), as they settled before it: a `first` gather's value and
   * when it is decided depend on that order, not on the order the workers reach the children again.
   */
  private settleEnded(): void {
    // Once the restart's checkpoints are all handed out, a scatter has no ended child to find.
    const book = this.run.durable?.book;
    if (book === undefined || book.empty) return;
    const ended: { index: number; child: ItemState; ending: Ending; at: number }[] = [];
    for (let index = 0; index < this.list.length; index++) {
      const fresh = scatterChild(this.entry, index, this.list[index]);
      const saved = book.takeEnded(fresh.id, fresh.frames ?? []);
      if (saved?.ending === undefined) continue;
      let child = fresh;
      let ending: Ending;
      if (this.body === undefined) {
        child = restoredState(saved, fresh);
        ending = endingOf(saved.ending, this.at.key);
      } else {
        restoreInto(saved, fresh);
        ending = endingOf(saved.ending, saved.position.placement);
      }
      ended.push({ index, child, ending, at: saved.updatedAt });
    }
    ended.sort((a, b) => a.at - b.at || a.index - b.index);
    for (const { index, child, ending } of ended) {
      try {
        this.settle(index, child, ending);
      } catch (error) {
        this.fail(error);
        return;
      }
    }
  }

  /** Moves past the children that have settled already (ended before a restart). */
  private skipSettled(): void {
    while (this.next < this.list.length && this.results[this.next] !== undefined) this.next++;
  }

  /** A worker takes its next child, in a slot of the run-wide limit, or ends when none is left. */
  private advance(): void {
    this.skipSettled();
    if (this.failure !== undefined || this.next >= this.list.length || this.cancelled) {
      this.workerEnded();
      return;
    }
    // Once the run is stopped no worker starts another child.
    if (this.run.stopReason !== undefined) {
      this.fail(this.run.signal.reason);
      return;
    }
    const semaphore = this.semaphore;
    if (semaphore !== undefined && !semaphore.tryAcquire()) {
      semaphore.acquire(this.scope.signal).then(this.onSlot, this.onNoSlot);
      return;
    }
    this.take();
  }

  /** A worker holding a slot starts the next child, or gives the slot back when none is left. */
  private take(): void {
    this.skipSettled();
    if (this.next >= this.list.length || this.cancelled) {
      this.semaphore?.release();
      this.workerEnded();
      return;
    }
    this.runChild(this.next++);
  }

  /** A child's worker is done with it: the slot goes back and the worker takes the next child. */
  private afterChild(): void {
    this.semaphore?.release();
    this.advance();
  }

  private workerEnded(): void {
    if (--this.live > 0 || this.failure !== undefined) return;
    this.cancelUnstarted();
    this.target.fannedIn({ results: this.results });
  }

  private fail(error: unknown): void {
    if (this.failure !== undefined) return;
    this.failure = { error };
    this.target.fanFailed(error);
  }

  /**
   * Starts child `index`; a child stopped by the cancellation is recorded as cancelled. In a resumed run a
   * child that had ended is not run again, and a sub-DAG child goes on from its checkpoint.
   */
  private runChild(index: number): void {
    const fresh = scatterChild(this.entry, index, this.list[index]);
    try {
      if (this.body === undefined) {
        const saved = this.run.durable?.book?.take(fresh.id, fresh.frames ?? []);
        if (saved?.ending !== undefined) {
          this.settle(index, restoredState(saved, fresh), endingOf(saved.ending, this.at.key));
          this.later(null);
          return;
        }
        this.runBody(index, fresh);
      } else {
        const { prep, entry } = this.body;
        const drive = this.scope.driveChild(prep, fresh, entry, this, index);
        if (drive.ending !== undefined) this.later(drive);
      }
    } catch (error) {
      this.childThrew(index, fresh, error, true);
    }
  }

  /**
   * Runs a node body's child. Its closures are made here, not in {@link runChild}: a closure there holding
   * the child would put it in the context of every closure made there, and measured so, every child of a
   * synchronous scatter outlived the young generation's collections (sync W2: 7.0 against 3.0 µs an item,
   * most of it collecting).
   */
  private runBody(index: number, child: ItemState): void {
    const pending = bodyOutcome(this.scope, this.prep, this.at, child);
    if (isThenable<TaskOutcome>(pending)) {
      pending.then(
        (outcome) => this.bodyEnded(index, child, outcome),
        (error: unknown) => this.childThrew(index, child, error, false),
      );
      return;
    }
    this.bodySettled(index, child, pending);
    this.later(null);
  }

  /** A node body's outcome is the child's ending; a durable run records it, so a resume does not run it again. */
  private bodySettled(index: number, child: ItemState, outcome: TaskOutcome): void {
    const ending = bodyEnding(this.at, outcome);
    const record = endingRecord(ending, false);
    this.run.durable?.recorder.ended(this.prep.compiled.dag.id, child, this.at.key, record);
    this.settle(index, child, ending);
  }

  /** The ending of a child that ended after the turn that started it (see {@link ChildTarget}). */
  childEnded(drive: ItemDrive): void {
    try {
      this.settle(drive.index, drive.state, drive.ending as Ending);
    } catch (error) {
      this.childThrew(drive.index, drive.state, error, false);
      return;
    }
    this.afterChild();
  }

  private bodyEnded(index: number, child: ItemState, outcome: TaskOutcome): void {
    try {
      this.bodySettled(index, child, outcome);
    } catch (error) {
      this.childThrew(index, child, error, false);
      return;
    }
    this.afterChild();
  }

  /**
   * A child whose run or record threw: cancelled when its group was (its worker goes on, in the next
   * microtask when `later`), else the worker ends and the scatter fails with the error.
   */
  private childThrew(index: number, child: ItemState, error: unknown, later: boolean): void {
    if (this.run.stopReason !== undefined || !this.cancelled) {
      this.semaphore?.release();
      this.fail(error);
      return;
    }
    this.recordCancelled(index, child, 'node');
    if (later) this.later(null);
    else this.afterChild();
  }

  /** Hands a worker whose child ended in this turn on to the next microtask (see {@link ready}). */
  private later(drive: ItemDrive | null): void {
    if (this.ready.length === 0) queueMicrotask(this.drain);
    this.ready.push(drive);
  }

  /** Records the children that ended in the turn that started them, then their workers go on. */
  private drainReady(): void {
    const ready = this.ready;
    this.ready = [];
    const going: boolean[] = new Array(ready.length).fill(true);
    for (let i = 0; i < ready.length; i++) {
      const drive = ready[i];
      if (drive === null || drive === undefined) continue;
      try {
        this.settle(drive.index, drive.state, drive.ending as Ending);
      } catch (error) {
        if (this.run.stopReason !== undefined || !this.cancelled) {
          this.semaphore?.release();
          this.fail(error);
          going[i] = false;
        } else this.recordCancelled(drive.index, drive.state, 'node');
      }
    }
    for (let i = 0; i < ready.length; i++) if (going[i]) this.afterChild();
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
    this.results[index] = settledResult(child, ending, index, false, this.order++);
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
    const result = settledResult(child, ending, index, this.body !== undefined, this.order++);
    this.results[index] = result;
    // Only a gather that can be decided early reads the results in the order they settled.
    if (result.status === 'cancelled' || this.cancel === undefined) return;
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
