import type { CompiledPlacement } from '../graph/compile.ts';
import type { ErrorClassification } from '../policy/classify.ts';
import type { Clock } from '../policy/types.ts';
import { toJsonData } from '../safe-json.ts';
import { createGroupCommitter, type GroupCommitter } from '../store/group-commit.ts';
import type {
  EventRecord,
  ItemCheckpoint,
  ItemEnding,
  ItemWait,
  Lease,
  RunStore,
  StoreWrite,
} from '../store/types.ts';
import {
  EncodedCheckpoint,
  endedCheckpoint,
  OnItsWay,
  snapshot,
  TakenCheckpoint,
} from './checkpoint-state.ts';
import { copyJson } from './copy.ts';
import type { RunEvent } from './events.ts';
import type { ItemState } from './item-state.ts';
import type { JournalEntry } from './journal-value.ts';
import { isPlain } from './plain-copy.ts';
import { ownValue } from './record.ts';
import type { ParkedFan } from './resume-fan.ts';
import type { Ending } from './runner.ts';
import type { ItemCarry } from './step.ts';

/**
 * Events per page at most: a reader of events after some seq parses the whole page that holds it, so pages
 * stay small enough to parse in a moment however many events one turn makes.
 */
const PAGE_EVENTS = 512;

/**
 * Writes a durable run to its store as it goes: each item's checkpoint after every transition, each step
 * value, each event. Writes made in the same turn of the event loop go out as one batch in one transaction
 * (group commit). An item's checkpoints within a batch replace one another, so an item that moves through
 * several placements in one turn costs one row; each is a snapshot taken when it was made, so what is
 * written is the item as it stood at that transition even when a node changes the item before the commit.
 *
 * A transition's checkpoint is committed before any wait it starts begins (`drive` waits for {@link
 * Recorder.settled}), a step value before `ctx.step` returns, and the run's end (its status, the lease's
 * release) with or after every transition before it. A crash loses at most the transitions of the turn it
 * interrupts; the items concerned resume from their previous checkpoint and run those nodes again.
 */
export class Recorder {
  /** Set once a commit failed: the run stops, and its result rejects with this error. */
  failure: unknown;
  private checkpoints = new Map<string, ItemCheckpoint | TakenCheckpoint | OnItsWay>();
  private writes: StoreWrite[] = [];
  /** The turn's events not yet in a full page. */
  private events: EventRecord[] = [];
  /** The turn's full pages of events, {@link PAGE_EVENTS} each. */
  private pages: EventRecord[][] = [];
  private waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  /** A close of the batch is queued. */
  private scheduled = false;
  /** The queued close was put off to the next macrotask (see {@link Recorder.track}). */
  private deferred = false;
  /** The run's input items that have not ended, when the run said which they are. */
  private open: Set<string> | undefined;
  /** Commits each batch as soon as it is closed, one after another, in the order they closed. */
  private readonly group: GroupCommitter;

  /**
   * The lease this process holds the run under: every batch is fenced by it (`held`), so once another
   * process has taken the run over, nothing more from this one is written.
   */
  lease: Lease | undefined;

  /** Called once when a commit fails; the run sets it to stop itself. */
  onFailure: (error: unknown) => void = () => undefined;

  constructor(
    readonly store: RunStore,
    readonly runId: string,
    private readonly clock: Clock,
  ) {
    // The recorder decides when a turn's batch closes (and coalesces it); the committer commits batches in
    // order. Once one has failed no later one is written: the run's record stays a prefix of what it did.
    const guarded = {
      commit: (batch: readonly StoreWrite[]) =>
        this.failure === undefined ? store.commit(batch) : Promise.reject(this.failure),
    };
    this.group = createGroupCommitter(guarded, (flush) => flush());
  }

  /** Records an event as the stream numbered it. */
  readonly event = (event: RunEvent): void => {
    // A node's reason may be any value; events are stored as JSON, as `--events` writes them.
    const reason = (event as { reason?: unknown }).reason;
    const body = reason === undefined || typeof reason === 'string' ? event : toJsonData(event);
    const events = this.events;
    events.push({ runId: this.runId, seq: event.seq, type: event.type, body });
    if (events.length >= PAGE_EVENTS) {
      this.pages.push(events);
      this.events = [];
    }
    // The run's end goes with its status, which the run writes right after it, in one transaction.
    if (event.type !== 'run.end') this.schedule();
  };

  /** Queues a write of the run itself (its record, its status) behind everything queued before it. */
  write(write: StoreWrite): void {
    this.writes.push(write);
    this.schedule();
  }

  /** The item is on its way to `at` (after `wait`, when it has one). */
  moved(dag: string, state: ItemState, at: CompiledPlacement, carry: ItemCarry, wait?: ItemWait): void {
    const visit = (ownValue(state.visits, at.key) ?? 0) + 1;
    const frames = state.frames ?? [];
    const updatedAt = this.clock.wallNow();
    // On its way to a terminal at once, the item runs no code before its ending replaces this checkpoint
    // (or, stopped first, before the batch closes): its copy is taken when the batch closes, if at all.
    if (wait === undefined && at.placement.kind === 'terminal' && isPlain(state.data)) {
      this.pending(state.id, new OnItsWay(dag, state, at.key, visit, frames, carry, updatedAt));
      return;
    }
    this.pending(state.id, new TakenCheckpoint(state, carry, dag, at.key, visit, wait, updatedAt));
  }

  /**
   * The item parked at the await placement `at` (its visit counted already), until an answer or `wait.until`:
   * a resume finds it parked there, with the same visit, token and deadline.
   */
  parked(dag: string, state: ItemState, at: CompiledPlacement, carry: ItemCarry, wait: ItemWait): void {
    const visit = ownValue(state.visits, at.key) ?? 1;
    const updatedAt = this.clock.wallNow();
    this.pending(state.id, new TakenCheckpoint(state, carry, dag, at.key, visit, wait, updatedAt));
  }

  /**
   * The item fanned out at scatter or embed `at` (its visit counted already) and is parked there on its
   * children: a resume parks it again on the same fan out rather than entering the placement again (see
   * `resume-fan.ts`).
   */
  fannedOut(dag: string, state: ItemState, at: CompiledPlacement, carry: ItemCarry, fan: ParkedFan): void {
    const visit = ownValue(state.visits, at.key) ?? 1;
    const position = { dag, placement: at.key, visit, frames: state.frames ?? [] };
    this.pending(state.id, {
      runId: this.runId,
      itemId: state.id,
      status: 'active',
      state: { ...snapshot(state, carry), fan },
      position,
      updatedAt: this.clock.wallNow(),
    });
  }

  /** The item ended, for good, where `ending` says. */
  ended(dag: string, state: ItemState, placement: string, ending: ItemEnding): void {
    const visit = ownValue(state.visits, placement) ?? 0;
    const itemId = state.id;
    this.open?.delete(itemId);
    const position = { dag, placement, visit, frames: state.frames ?? [] };
    this.pending(itemId, endedCheckpoint(this.runId, state, position, ending, this.clock.wallNow()));
  }

  /** Queues the item's checkpoint, replacing any of this turn's. */
  private pending(itemId: string, checkpoint: ItemCheckpoint | TakenCheckpoint | OnItsWay): void {
    this.checkpoints.set(itemId, checkpoint);
    this.schedule();
  }

  /**
   * The run's input items. Once every one has ended, the run's end follows in the same turn: the batch then
   * closes on the next macrotask rather than at the end of the microtasks, so that the run's status and the
   * lease's release go in the same transaction as the last transitions (one commit instead of two).
   */
  track(items: readonly string[]): void {
    this.open = new Set(items);
  }

  /** Commits a step value of the input item `root`; resolves once it is durable. */
  step(root: string, key: string, entry: JournalEntry): Promise<void> {
    this.writes.push({
      kind: 'journal',
      entry: {
        runId: this.runId,
        itemPath: root,
        stepKey: key,
        value: JSON.stringify(entry),
        committedAt: this.clock.wallNow(),
      },
    });
    return this.flush();
  }

  /**
   * Resolves once every write queued so far is durable, without closing the turn's batch early: the batch
   * still takes every write of the turn. Rejects when a commit fails (the run then stops).
   */
  settled(): Promise<void> {
    if (!this.scheduled) return this.group.flush();
    return new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** Commits what is queued now; resolves once it and every batch before it are durable. */
  flush(): Promise<void> {
    const settled = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.close();
    return settled;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(this.close);
  }

  private readonly close = (): void => {
    // Every input item has ended and nobody waits on the batch: hold it for the run's end (see `track`).
    if (this.scheduled && !this.deferred && this.open?.size === 0 && this.waiters.length === 0) {
      this.deferred = true;
      setImmediate(this.close);
      return;
    }
    this.scheduled = false;
    this.deferred = false;
    const writes = this.writes;
    const waiters = this.waiters;
    const pages = this.pages;
    if (this.events.length > 0) pages.push(this.events);
    const empty = writes.length === 0 && pages.length === 0 && this.checkpoints.size === 0;
    if (empty && waiters.length === 0) return;
    // Step values and run records first, then the checkpoints and the events of the same transitions, then
    // what was queued to close the run (its status, its lease) behind them.
    const batch: StoreWrite[] = this.lease === undefined ? [] : [{ kind: 'held', lease: this.lease }];
    const closing: StoreWrite[] = [];
    for (const write of writes)
      (write.kind === 'run-status' || write.kind === 'release' ? closing : batch).push(write);
    for (const checkpoint of this.checkpoints.values()) {
      if (checkpoint instanceof EncodedCheckpoint) {
        batch.push({ kind: 'checkpoint', checkpoint, text: checkpoint.text });
      } else {
        const taken =
          checkpoint instanceof TakenCheckpoint || checkpoint instanceof OnItsWay
            ? checkpoint.checkpoint(this.runId)
            : checkpoint;
        batch.push({ kind: 'checkpoint', checkpoint: taken });
      }
    }
    for (const events of pages) batch.push({ kind: 'events', runId: this.runId, events });
    for (const write of closing) batch.push(write);
    this.writes = [];
    this.events = [];
    this.pages = [];
    this.waiters = [];
    this.checkpoints = new Map();
    // A flush with nothing queued waits for the batches on their way.
    const committed =
      this.failure !== undefined
        ? Promise.reject(this.failure)
        : empty
          ? this.group.flush()
          : this.group.write(...batch);
    committed.then(
      () => {
        // An earlier batch may have failed while this one waited behind it.
        if (this.failure !== undefined) for (const waiter of waiters) waiter.reject(this.failure);
        else for (const waiter of waiters) waiter.resolve();
      },
      (error: unknown) => {
        if (this.failure === undefined) {
          this.failure = error;
          this.onFailure(error);
        }
        for (const waiter of waiters) waiter.reject(this.failure);
      },
    );
  };
}

/** How a failed item's error was classified, as its checkpoint keeps it (the message is the ending's). */
export type RecordedClassification = Omit<ErrorClassification, 'message'>;

/**
 * A failure ending as the engine records it: the store's fields and the error's classification, so that a
 * resumed run routes on a child's failure (an embed's `retry`, a gather's `failed` list) as it would have.
 */
export type FailureRecord = Extract<ItemEnding, { readonly kind: 'failure' }> & {
  readonly error?: RecordedClassification;
};

/** The ending a checkpoint records for an item's {@link Ending}. */
export function endingRecord(ending: Ending, cancelled: boolean): ItemEnding {
  if (ending.kind === 'terminal') {
    return { kind: 'terminal', placement: ending.placement, outcome: ending.outcome };
  }
  if (ending.kind === 'failed') {
    const { engineCode, message, ...classification } = ending.error;
    const record: FailureRecord = {
      kind: 'failure',
      code: engineCode,
      message,
      placement: ending.placement,
      error: copyJson(classification),
    };
    return record;
  }
  return { kind: 'aborted', reason: cancelled ? 'cancelled' : ending.waitingFor };
}
