/**
 * The records of a durable run and the {@link RunStore} interface that keeps them. Nothing here knows SQL:
 * an embedded SQLite file, memory and a networked store all implement the same promises. Every time in
 * these records is wall time in milliseconds since the Unix epoch, supplied by the caller, so that a store
 * never reads a clock and a record means the same after a restart on another machine.
 */

/**
 * Where a run stands: `running` until it ends `completed` (every item ended), `failed` or `aborted`;
 * `waiting` when it stopped with every item left parked at an await placement (no process holds it: an
 * answer, or a resume once a deadline has passed, moves it on).
 */
export type RunStatus = 'running' | 'waiting' | 'completed' | 'failed' | 'aborted';

/** A document a run uses: the DAG itself or one it embeds, with the identity that guards a resume. */
export interface DocumentRecord {
  /** The document's `@id`. */
  readonly iri: string;
  /** SHA-256 of its canonical N-Quads, as `hash` computes it. */
  readonly hash: string;
  /** The file it was read from, when it came from one; named when a resume finds it changed. */
  readonly file?: string;
  /** The document itself (plain JSON), so that a run can be shown without its files. */
  readonly document?: unknown;
}

/** The runtime policy of a run, resolved (defaults filled in), with its hash. */
export interface PolicyRecord {
  /** The resolved policy as plain JSON. */
  readonly value: unknown;
  /** SHA-256 of the policy's canonical JSON. */
  readonly hash: string;
}

/** One run: what it runs, on what input, with which options, and where it stands. */
export interface RunRecord {
  /** Unique id of the run, chosen by the engine. */
  readonly id: string;
  /** The DAG the run starts at. */
  readonly dag: DocumentRecord;
  /** Every document the DAG embeds, directly or further down, each once. */
  readonly documents: readonly DocumentRecord[];
  readonly policy: PolicyRecord;
  /** The input items, plain JSON. */
  readonly input: unknown;
  /** The run options that change what the run does (concurrency, deadlines…), plain JSON. */
  readonly options: unknown;
  readonly status: RunStatus;
  readonly createdAt: number;
  /** The last time the run's status changed. */
  readonly updatedAt: number;
  /** When the run ended; absent while it runs. */
  readonly finishedAt?: number;
  /** Version of the record format the engine wrote; an engine refuses to resume a newer one. */
  readonly formatVersion: number;
  /** Version of the Switchyard that started the run. */
  readonly engineVersion: string;
}

/** A change of a run's status, written as the run goes on and when it ends. */
export interface RunStatusUpdate {
  readonly runId: string;
  readonly status: RunStatus;
  /** Becomes the run's `updatedAt`. */
  readonly at: number;
  /** Set when the run ends. */
  readonly finishedAt?: number;
}

/**
 * Why an item is waiting: a back-off before a retry, a server's Retry-After, a concurrency queue, or an
 * outside answer at an await placement.
 */
export type WaitReason = 'backoff' | 'retry-after' | 'queue' | 'await';

/**
 * A wait in progress: the item goes on at `until` (wall time), or at once on a resume after it. An item
 * parked at an await placement (`reason` `await`) goes on with its answer, or takes the placement's
 * `deadline` output at `until`; `token` names it to whoever answers, `answers` are the outputs an answer
 * may name and `since` is the wall time it first parked there.
 */
export interface ItemWait {
  readonly until: number;
  readonly reason: WaitReason;
  readonly token?: string;
  readonly answers?: readonly string[];
  readonly since?: number;
}

/**
 * An outside answer to an item parked (or yet to park) at an await placement: the output it names and the
 * data it carries (plain JSON), kept under the item's answer token. The first answer for a token stays; a
 * second is refused.
 */
export interface AnswerRecord {
  readonly runId: string;
  readonly token: string;
  readonly output: string;
  /** Absent when the answer carries no data. */
  readonly data?: unknown;
  /** Wall time the answer was given. */
  readonly answeredAt: number;
}

/**
 * One level an item went down to reach its placement, outermost first: the embed placement whose child
 * document it runs in, or the scatter placement whose child `index` it is.
 */
export type PositionFrame =
  | { readonly kind: 'embed'; readonly dag: string; readonly placement: string; readonly visit: number }
  | {
      readonly kind: 'scatter';
      readonly dag: string;
      readonly placement: string;
      readonly visit: number;
      readonly index: number;
    };

/** Where an item is: the placement, in which document, through which frames, on which visit. */
export interface ItemPosition {
  /** IRI of the document the placement is in. */
  readonly dag: string;
  /** The placement key. */
  readonly placement: string;
  /** 1 on the item's first entry into the placement, 2 on the second… */
  readonly visit: number;
  /** The embeds and scatters between the run's DAG and this placement, outermost first. */
  readonly frames: readonly PositionFrame[];
  /** Present while the item waits. */
  readonly wait?: ItemWait;
}

/** How an item ended: at a terminal placement, in the run's failure list, or aborted with the run. */
export type ItemEnding =
  | { readonly kind: 'terminal'; readonly placement: string; readonly outcome: 'completed' | 'failed' }
  | { readonly kind: 'failure'; readonly code: string; readonly message: string; readonly placement?: string }
  | { readonly kind: 'aborted'; readonly reason: string };

/** `active` at or on its way to a placement, `waiting` until `position.wait.until`, `ended` for good. */
export type ItemStatus = 'active' | 'waiting' | 'ended';

/**
 * An item's state as plain JSON: its data, the budgets it spent, its journal, its trail and its visit
 * counts. Other fields the engine adds are kept as they are.
 */
export interface CheckpointState {
  readonly data: unknown;
  readonly budgets: Readonly<Record<string, number>>;
  readonly journal: Readonly<Record<string, unknown>>;
  readonly trail: readonly unknown[];
  readonly visits: Readonly<Record<string, number>>;
  readonly [field: string]: unknown;
}

/** An item as it stood after its last transition: what a resume continues from. */
export interface ItemCheckpoint {
  readonly runId: string;
  /** The item's path in the run: `1`, `1.3` (a scatter child), `1/e` (inside an embed). */
  readonly itemId: string;
  readonly status: ItemStatus;
  readonly state: CheckpointState;
  readonly position: ItemPosition;
  /** Present when `status` is `ended`. */
  readonly ending?: ItemEnding;
  readonly updatedAt: number;
}

/** A `ctx.step` value, committed before the node's code goes on, so that the step never runs again. */
export interface JournalRecord {
  readonly runId: string;
  /** The path of the item that ran the step (see {@link ItemCheckpoint.itemId}). */
  readonly itemPath: string;
  readonly stepKey: string;
  /** The step's value in the engine's text encoding; the store keeps it as it is. */
  readonly value: string;
  readonly committedAt: number;
}

/** One event of a run, as the engine's event stream numbered it. */
export interface EventRecord {
  readonly runId: string;
  /** The stream's sequence number: unique in the run, read back in increasing order. */
  readonly seq: number;
  /** The event's type (`placement.start`, `route`…). */
  readonly type: string;
  /** The whole event as plain JSON. */
  readonly body: unknown;
}

/** The process holding a lease. */
export interface LeaseHolder {
  readonly pid: number;
  readonly host: string;
}

/** The right of one process to move a run on, until `expiresAt` unless renewed by a heartbeat. */
export interface Lease extends LeaseHolder {
  readonly runId: string;
  /** Tells this holding apart from any other, even by the same process. */
  readonly token: string;
  readonly acquiredAt: number;
  readonly expiresAt: number;
}

/** A request for a run's lease at time `now`, for `ttlMs`. */
export interface LeaseRequest {
  readonly runId: string;
  readonly holder: LeaseHolder;
  readonly now: number;
  readonly ttlMs: number;
}

/**
 * One write of a batch. A batch is applied whole or not at all.
 * - `run`: a new run (`E_STORE_CONFLICT` when its id is taken);
 * - `run-status`: a status change of a run;
 * - `checkpoint`: an item's latest checkpoint, replacing the one before;
 * - `journal`: a step value; the first value committed for a step stays (a later one is ignored);
 * - `event`: an event (`E_STORE_CONFLICT` when its sequence number is taken);
 * - `events`: a page of events, kept as one record (see {@link EventPageWrite});
 * - `lease`: takes a run's lease under a token the caller chose (see {@link LeaseWrite});
 * - `release`: gives a lease up if it is still held under its token, else does nothing (see {@link LeaseWrite});
 * - `answer`: an answer to an await (see {@link AnswerRecord}); `E_STORE_CONFLICT` when its token already has one.
 * Every write but `run` and `release` needs its run to exist (`E_STORE_UNKNOWN_RUN`). Writes apply in batch
 * order, so a batch may write a run and then take its lease, or write a run's last events and status and
 * then release its lease.
 */
export type StoreWrite =
  | { readonly kind: 'run'; readonly run: RunRecord }
  | { readonly kind: 'run-status'; readonly update: RunStatusUpdate }
  | CheckpointWrite
  | { readonly kind: 'journal'; readonly entry: JournalRecord }
  | { readonly kind: 'event'; readonly event: EventRecord }
  | EventPageWrite
  | { readonly kind: 'answer'; readonly answer: AnswerRecord }
  | LeaseWrite;

/** The run a write is for. */
export function runOfWrite(write: StoreWrite): string {
  switch (write.kind) {
    case 'run':
      return write.run.id;
    case 'run-status':
      return write.update.runId;
    case 'checkpoint':
      return write.checkpoint.runId;
    case 'journal':
      return write.entry.runId;
    case 'event':
      return write.event.runId;
    case 'events':
      return write.runId;
    case 'answer':
      return write.answer.runId;
    default:
      return write.lease.runId;
  }
}

/**
 * An item's latest checkpoint, replacing the one before. `text`, when the writer has made it, is the JSON
 * text of `checkpoint` (`JSON.stringify(checkpoint)`): a store that keeps records as JSON text may keep it as
 * it is instead of encoding `checkpoint` again; a store that does not may ignore it.
 */
export interface CheckpointWrite {
  readonly kind: 'checkpoint';
  readonly checkpoint: ItemCheckpoint;
  readonly text?: string;
}

/**
 * Events of one run, written as one record however many they are: far cheaper than one `event` write each.
 * `events` are in strictly increasing `seq` (gaps allowed) and each has `runId` equal to `runId`, or the
 * write fails with `E_USAGE`; an empty list writes nothing. A page spans its range, first to last seq,
 * gaps included: a page whose range holds a seq already stored (in an `event`) or overlaps another page's
 * range fails with `E_STORE_CONFLICT`, and so does a later `event` whose seq lies in a stored page's range. Reading does not tell pages and single events apart: `readEvents`,
 * `streamEvents` and `lastEventSeq` see every event in seq order, and a prune deletes pages with their run.
 */
export interface EventPageWrite {
  readonly kind: 'events';
  readonly runId: string;
  readonly events: readonly EventRecord[];
}

/**
 * A lease taken or given up in the same transaction as the batch's other writes.
 * - `lease`: stores `lease` (its token, holder and times chosen by the caller) under the rules of
 *   {@link RunStore.acquireLease}, with `lease.acquiredAt` as the time now: a lease of the run still live
 *   then (`expiresAt > acquiredAt`) under another token fails the whole batch with `E_STORE_LEASE_HELD`,
 *   naming its holder's pid and host; a lease under the same token is replaced. `expiresAt` must be after
 *   `acquiredAt`.
 * - `release`: deletes the run's lease if it is still held under `lease.token`; else (released, taken over,
 *   or no such run) does nothing.
 * - `held`: writes nothing, but fails the whole batch with `E_STORE_LEASE_LOST` unless the run's lease is
 *   still held under `lease.token`: a fence, so that a process whose lease was taken over writes nothing
 *   more to the run.
 */
export type LeaseWrite =
  | { readonly kind: 'lease'; readonly lease: Lease }
  | { readonly kind: 'release'; readonly lease: Lease }
  | { readonly kind: 'held'; readonly lease: Lease };

/** Which runs to list: newest first, `limit` at a time, the next page after `cursor`. */
export interface RunQuery {
  /** Only runs with one of these statuses (all when absent, none for an empty list). */
  readonly status?: RunStatus | readonly RunStatus[];
  /** Only runs of the DAG with this IRI. */
  readonly dag?: string;
  /** At most this many runs (default 50). */
  readonly limit?: number;
  /** The `next` of the page before. */
  readonly cursor?: string;
}

/** A page of runs; `next` is the cursor of the following page, absent on the last. */
export interface RunPage {
  readonly runs: readonly RunRecord[];
  readonly next?: string;
}

/** Which events to read: those after sequence number `after` (all when absent), at most `limit`. */
export interface EventQuery {
  readonly after?: number;
  readonly limit?: number;
}

/** Which runs to delete: created before `olderThan` with one of `statuses` (default: every ended status). */
export interface PruneOptions {
  readonly olderThan: number;
  readonly statuses?: readonly RunStatus[];
}

/** What a prune deleted and, for a file, the bytes it gave back. */
export interface PruneResult {
  readonly runs: number;
  readonly reclaimedBytes: number;
}

/**
 * Keeps durable runs: the runs, each item's latest checkpoint, committed step values, the event stream and
 * a lease per run. Writes go through {@link RunStore.commit}, one batch at a time, each applied whole or not
 * at all; a write is durable once its promise resolves. Values are copied in and out: a caller never shares
 * an object with the store. Failures are `SwitchyardError`s with `E_STORE_*` codes.
 */
export interface RunStore {
  /** Where the records live: a file path, or `:memory:`. */
  readonly location: string;
  /** Applies a batch of writes in one transaction. */
  commit(batch: readonly StoreWrite[]): Promise<void>;
  getRun(runId: string): Promise<RunRecord | undefined>;
  /** Runs newest first (by `createdAt`, then id), filtered and paged. */
  listRuns(query?: RunQuery): Promise<RunPage>;
  getCheckpoint(runId: string, itemId: string): Promise<ItemCheckpoint | undefined>;
  /** The run's checkpoints in the order their items were first written, optionally of one status. */
  listCheckpoints(runId: string, status?: ItemStatus): Promise<readonly ItemCheckpoint[]>;
  getJournalEntry(runId: string, itemPath: string, stepKey: string): Promise<JournalRecord | undefined>;
  /** The run's step values in commit order, optionally of one item. */
  listJournal(runId: string, itemPath?: string): Promise<readonly JournalRecord[]>;
  /** The answer given under `token`, if any. */
  getAnswer(runId: string, token: string): Promise<AnswerRecord | undefined>;
  /** The run's answers in the order they were given. */
  listAnswers(runId: string): Promise<readonly AnswerRecord[]>;
  /** Events in increasing sequence order. */
  readEvents(runId: string, query?: EventQuery): Promise<readonly EventRecord[]>;
  /** Every event after `after`, page by page, including those appended while the stream is read. */
  streamEvents(runId: string, after?: number, pageSize?: number): AsyncIterable<EventRecord>;
  /** The highest sequence number written for the run, so that a resumed stream goes on from it. */
  lastEventSeq(runId: string): Promise<number | undefined>;
  /**
   * Takes the run's lease: free, expired (`expiresAt` ≤ `now`) or released. A live lease held by anyone
   * fails with `E_STORE_LEASE_HELD`, naming the holder's pid and host.
   */
  acquireLease(request: LeaseRequest): Promise<Lease>;
  /** Extends a held lease to `now + ttlMs`; `E_STORE_LEASE_LOST` when another holder took it over. */
  renewLease(lease: Lease, now: number, ttlMs: number): Promise<Lease>;
  /** Gives the lease up; does nothing when it is no longer held under this token. */
  releaseLease(lease: Lease): Promise<void>;
  getLease(runId: string): Promise<Lease | undefined>;
  /** Deletes matching runs with all their records, then gives the space back. */
  prune(options: PruneOptions): Promise<PruneResult>;
  /** Closes the store; later calls fail with `E_STORE_CLOSED`. Closing twice is harmless. */
  close(): Promise<void>;
}
