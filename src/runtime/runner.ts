import { AnswerDesk, type ParkedItem } from '../awaits/desk.ts';
import type { Dag, DagLibrary } from '../document/model.ts';
import type { Gates } from '../gates/gates.ts';
import type { CompiledPlacement } from '../graph/compile.ts';
import { unusableRetryAfter } from '../policy/retry-after.ts';
import type { Clock, Random, RuntimePolicy } from '../policy/types.ts';
import type { RunStore } from '../store/types.ts';
import type { NodeTracing } from '../telemetry/span-like.ts';
import type { LiveRuns } from './answer.ts';
import { pollAnswers } from './answer-poll.ts';
import { type ClassifiedError, summarise } from './error-summary.ts';
import type { EventStream } from './event-stream.ts';
import type { PlacementEnded } from './events.ts';
import { type ChildTarget, ItemDrive } from './item-drive.ts';
import type { ItemState } from './item-state.ts';
import type { DispatcherName } from './kinds/children.ts';
import type { ParkWatch } from './park-watch.ts';
import type { Prepared } from './prepare.ts';
import { endingRecord, type Recorder } from './recorder.ts';
import {
  endingOf,
  placementOf,
  type ResumeBook,
  type Resumed,
  restoreInto,
  resumedFrom,
} from './resume-book.ts';
import type { WaitingFor } from './run.ts';
import { RunScope } from './run-scope.ts';

/** How an item left a DAG: at a terminal, failed with an error, or stopped by an abort or the run deadline. */
export type Ending =
  | { readonly kind: 'terminal'; readonly placement: string; readonly outcome: 'completed' | 'failed' }
  | { readonly kind: 'failed'; readonly placement: string; readonly error: ClassifiedError }
  | { readonly kind: 'stopped'; readonly placement: string; readonly waitingFor: WaitingFor };

/** What a run needs from its dispatcher. */
export interface RunEnvironment {
  readonly services: unknown;
  readonly policy: RuntimePolicy;
  readonly clock: Clock;
  readonly random: Random;
  readonly library: DagLibrary | undefined;
  /** The gates of the policy, shared by every run of the dispatcher. */
  readonly gates: Gates;
  /** The function the run's dispatcher was made with, as errors about a child's document name it (default `createDispatcher`). */
  readonly dispatcher?: DispatcherName;
  /** The runs the dispatcher carries out now, by id, for answers given to them; absent: none are listed. */
  readonly live?: LiveRuns;
  /** The prepared form of a library document, or undefined when the library lacks it. */
  prepareIri(iri: string): Prepared | undefined;
  /** The prepared form of a model. */
  prepareDag(dag: Dag): Prepared;
}

/**
 * One run as its items see it: the shared state of a {@link RunScope} (counters, signal, semaphores), and
 * the loop that moves one item from placement to placement, carrying out what {@link decide} says.
 */
export class RunContext extends RunScope {
  declare readonly root: RunContext;

  /**
   * A scope of this context whose signal also aborts when `cancel` does: the items driven in it stop where
   * they stand (an ending of kind `stopped`), while the rest of the run goes on.
   */
  cancellable(cancel: AbortSignal): RunContext {
    const scope = new RunContext(this.env, this.events, this.runDeadlineAt, { run: this, cancel });
    scope.durable = this.durable;
    scope.runId = this.runId;
    scope.tracing = this.tracing;
    scope.childTrails = this.childTrails;
    return scope;
  }

  /** The run's id, for the idempotency keys of its steps. */
  runId = '';

  /**
   * Whether child items (a scatter's, an embed's) keep their trail. Only a worker reads a child's trail (a
   * run's result holds its input items' states, a checkpoint of a child keeps none), so an in-process run
   * keeps none: three entries and arrays fewer per child of W2.
   */
  childTrails = true;

  /** A traced run's spans, which its nodes are called inside of; undefined when the run is not traced. */
  tracing: NodeTracing | undefined = undefined;

  private answerDesk: AnswerDesk | undefined;

  /** The run's DAG, set on the run's own context: what an answer given to the run is checked against. */
  rootDag: Dag | undefined;

  /** How many input items the run has (`1` … `inputItems`), set on the run's own context. */
  inputItems = 0;

  /** Set on the run's own context when the run stops once every item left is parked (`whenParked: 'stop'`). */
  parkWatch: ParkWatch | undefined;

  /** The items that were parked when the run stopped for them. */
  parkedAtStop: readonly ParkedItem[] | undefined;

  /** The run's answers and parked items (one for the run and its scopes), made when an item first parks. */
  get desk(): AnswerDesk {
    const root = this.root;
    if (root !== this) return root.desk;
    if (this.answerDesk === undefined) {
      const desk = new AnswerDesk(this.clock);
      desk.onPark = () => this.parkWatch?.check();
      this.answerDesk = desk;
    }
    return this.answerDesk;
  }

  private answersWatched = false;

  /**
   * Looks in the run's store for answers another process gives while items are parked here (see
   * {@link pollAnswers}); one look-out per run, from the first park until nothing is parked.
   */
  watchStoredAnswers(store: RunStore): void {
    const root = this.root;
    if (root !== this) {
      root.watchStoredAnswers(store);
      return;
    }
    if (this.answersWatched) return;
    this.answersWatched = true;
    pollAnswers(store, this.runId, this.desk, this.clock, this.signal, () => {
      this.answersWatched = false;
    }).catch(() => undefined);
  }

  /** The desk when an item has parked or an answer came, else undefined. */
  get deskIfAny(): AnswerDesk | undefined {
    return this.root.answerDesk;
  }

  /** How a durable run is recorded and, when it is resumed, the checkpoints it goes on from. */
  durable: { readonly recorder: Recorder; readonly book: ResumeBook | undefined } | undefined;

  /** Emits `placement.start` on `ev` (the caller checks `events` first) and returns its time, for {@link placementEnd}. */
  placementStart(ev: EventStream, item: string, dag: string, placement: string, visit: number): number {
    const now = this.clock.now();
    ev.emit({ type: 'placement.start', item, dag, placement, visit }, now);
    return now;
  }

  /**
   * Emits `placement.end` on `ev` for what `end` says, measuring from `started` (what {@link placementStart}
   * returned) to `now`.
   */
  placementEnd(ev: EventStream, end: PlacementEnded, started: number, now: number = this.clock.now()): void {
    const { item, dag, placement, output, error } = end;
    const durationMs = now - started;
    ev.emit(
      error === undefined
        ? { type: 'placement.end', item, dag, placement, output, durationMs }
        : { type: 'placement.end', item, dag, placement, output, durationMs, error },
      now,
    );
  }

  /**
   * Moves one item from `start` until it ends, one {@link step} at a time (see {@link ItemDrive}); a durable
   * run records each transition before the item acts on it (see {@link Recorder}). `resumed` continues an
   * item from its checkpoint: what it carried, and the wall time its wait ends. Never rejects: failures,
   * aborts, the run deadline and errors of the engine itself all come back as an {@link Ending}.
   */
  drive(
    prep: Prepared,
    state: ItemState,
    start: CompiledPlacement,
    resumed?: Resumed,
  ): Ending | Promise<Ending> {
    return new ItemDrive(this, prep, state, start, resumed, undefined, 0).go().settled();
  }

  /**
   * Starts a child item (an embed's, a scatter's) from `entry`, or, in a resumed run, from where its
   * checkpoint left it, restored into `child`; a child that had ended before the restart is not run again,
   * and gives its recorded ending. Its ending goes to `target` unless it came within this call (then the
   * returned drive's `ending` is set).
   */
  driveChild(
    prep: Prepared,
    child: ItemState,
    entry: CompiledPlacement,
    target?: ChildTarget,
    index = 0,
  ): ItemDrive {
    const book = this.durable?.book;
    const saved = book === undefined ? undefined : book.take(child.id, child.frames ?? []);
    if (saved === undefined) return new ItemDrive(this, prep, child, entry, undefined, target, index).go();
    restoreInto(saved, child);
    if (saved.status === 'ended' && saved.ending !== undefined) {
      const ending = endingOf(saved.ending, saved.position.placement);
      return ItemDrive.ended(this, prep, child, entry, ending, target, index);
    }
    const at = placementOf(prep, saved) ?? entry;
    return new ItemDrive(this, prep, child, at, resumedFrom(saved), target, index).go();
  }

  /** Records the ending of an item of a durable run, in the same turn as the event that reports it. */
  ended(dagId: string, state: ItemState, placement: string, ending: Ending): Ending {
    this.durable?.recorder.ended(dagId, state, placement, endingRecord(ending, ending.kind === 'stopped'));
    return ending;
  }

  /**
   * A node's Retry-After hint if it is usable, else undefined (the back-off applies) after a `warning` event
   * saying why: a node's malformed hint is its author's mistake to hear about, not a reason to fail the item.
   * `how` says where the hint came from (`returned a retryAfter`).
   */
  usableHint(hint: unknown, item: string, dag: string, placement: string, how: string): unknown {
    const why = unusableRetryAfter(hint);
    if (why === undefined) return hint;
    if (this.events) {
      const message = `the node at placement '${placement}' ${how}: ${why}; the back-off applies instead — give milliseconds (a number ≥ 0) or a Retry-After header value`;
      this.events.emit({ type: 'warning', code: 'W_RETRY_AFTER_IGNORED', item, dag, placement, message });
    }
    return undefined;
  }

  /**
   * An item stopped where it stood. A cancelled scope's items are reported here (`item.cancelled`), since
   * the run goes on without them; the run's result reports the items an abort or the deadline stopped.
   */
  stopped(dagId: string, state: ItemState, placement: string, waitingFor: WaitingFor): Ending {
    const ending: Ending = { kind: 'stopped', placement, waitingFor };
    if (this.stopReason === 'cancel') {
      this.events?.emit({ type: 'item.cancelled', item: state.id, dag: dagId, placement, waitingFor });
      this.ended(dagId, state, placement, ending);
    }
    return ending;
  }

  /** An item that cannot go on: reported with its error (event), returned as an ending. */
  failed(dagId: string, state: ItemState, placement: string, error: ClassifiedError): Ending {
    if (this.events) {
      this.events.emit({
        type: 'item.failed',
        item: state.id,
        dag: dagId,
        placement,
        error: summarise(error),
      });
    }
    return this.ended(dagId, state, placement, { kind: 'failed', placement, error });
  }
}
