import type { RouteKind } from '../document/model.ts';

/**
 * The events of a run, in order. Every event carries a per-run monotonic `seq` and the dispatcher clock's
 * `time` (ms). Items are named by path: `1`, `1.3` (the fourth child of a scatter of item 1), `1/e` (the
 * item an embed placement runs in its child DAG). `dag` is the IRI of the document the placement is in,
 * so a trace can be drawn over each document separately. Written one per line as JSON by `--events`.
 */
export type RunEvent =
  | RunStartEvent
  | RunEndEvent
  | PlacementStartEvent
  | PlacementEndEvent
  | RouteEvent
  | RetryScheduledEvent
  | BudgetExhaustedEvent
  | SalvageEvent
  | ItemEndEvent
  | ItemFailedEvent
  | ItemCancelledEvent
  | GateWaitEvent
  | GatePassedEvent
  | GateClosedEvent
  | GateOpenedEvent
  | AwaitParkedEvent
  | AwaitAnsweredEvent
  | AwaitExpiredEvent
  | WarningEvent;

interface Base {
  readonly seq: number;
  readonly time: number;
  readonly runId: string;
}

interface ItemBase extends Base {
  readonly item: string;
  readonly dag: string;
}

export interface RunStartEvent extends Base {
  readonly type: 'run.start';
  readonly dag: string;
  /** SHA-256 of the document's canonical N-Quads. */
  readonly hash: string;
  readonly items: number;
  /** True when the run goes on from its checkpoints after a restart (the items already ended are counted). */
  readonly resumed?: boolean;
}

export interface RunEndEvent extends Base {
  readonly type: 'run.end';
  readonly dag: string;
  readonly status: 'completed' | 'failed' | 'aborted' | 'waiting';
  readonly completed: number;
  readonly failed: number;
  readonly durationMs: number;
}

export interface PlacementStartEvent extends ItemBase {
  readonly type: 'placement.start';
  readonly placement: string;
  /** 1 on the first execution of this placement for this item, 2 on the second, … */
  readonly visit: number;
}

export interface PlacementEndEvent extends ItemBase {
  readonly type: 'placement.end';
  readonly placement: string;
  /** The output the item left on (`error`/`retry` after a throw or timeout). */
  readonly output: string;
  readonly durationMs: number;
  readonly error?: ErrorSummary;
}

/**
 * How an item left a placement, as a {@link PlacementEndEvent} says it before the stream stamps it and the
 * duration is measured: `error` is undefined when the placement did not throw.
 */
export interface PlacementEnded {
  readonly item: string;
  readonly dag: string;
  readonly placement: string;
  readonly output: string;
  readonly error: ErrorSummary | undefined;
}

/** An item moved along an edge. `exhausted` is a retry route's exhaustion edge. */
export interface RouteEvent extends ItemBase {
  readonly type: 'route';
  readonly from: string;
  readonly output: string;
  readonly to: string;
  readonly kind: RouteKind | 'exhausted';
  readonly reason?: string | undefined;
}

export interface RetryScheduledEvent extends ItemBase {
  readonly type: 'retry.scheduled';
  readonly from: string;
  /** The output whose retry route was taken; tells apart two retry routes between the same placements. */
  readonly output: string;
  readonly to: string;
  readonly budget: string;
  /** The budget's count after this spend (1 for the first retry). */
  readonly attempt: number;
  readonly delayMs: number;
  /** Where the delay came from. */
  readonly delaySource: 'backoff' | 'retry-after';
  readonly reason?: string | undefined;
}

export interface BudgetExhaustedEvent extends ItemBase {
  readonly type: 'budget.exhausted';
  readonly from: string;
  readonly budget: string;
  readonly to: string;
  /** `spent`: the budget is used up; `deadline`: the wait would not fit the run's remaining time. */
  readonly why: 'spent' | 'deadline';
  readonly reason?: string | undefined;
}

/** An item took a salvage route, or an exhaustion route to a recovery placement. */
export interface SalvageEvent extends ItemBase {
  readonly type: 'salvage';
  readonly from: string;
  readonly to: string;
  readonly reason?: string | undefined;
}

export interface ItemEndEvent extends ItemBase {
  readonly type: 'item.end';
  readonly terminal: string;
  readonly outcome: 'completed' | 'failed';
}

export interface ItemFailedEvent extends ItemBase {
  readonly type: 'item.failed';
  readonly placement: string;
  readonly error: ErrorSummary;
}

/**
 * A scatter child stopped because its gather's result was decided without it (a `first` reducer with its
 * winner, see the gather module): not a failure. `placement` is where it stood (the scatter's own key for a
 * child that had not started), `waitingFor` what it was doing.
 */
export interface ItemCancelledEvent extends ItemBase {
  readonly type: 'item.cancelled';
  readonly placement: string;
  readonly waitingFor: 'backoff' | 'node' | 'queue' | 'answer';
}

/**
 * An item waits at a gate of the runtime policy before its execution of `placement` starts: the gate's key
 * is `closed`, its pace (`rate`) or its `concurrency` is full. `untilMs` is the wall time (ms since the
 * epoch) the wait ends at the latest known now; absent for a concurrency wait, which ends when an
 * execution under the key does. The wait spends no budget.
 */
export interface GateWaitEvent extends ItemBase {
  readonly type: 'gate.wait';
  readonly placement: string;
  readonly gate: string;
  readonly key: string;
  readonly why: 'closed' | 'rate' | 'concurrency';
  readonly untilMs?: number;
}

/**
 * An item that waited at a gate (it had a `gate.wait`) went through and its node is called now: the end of
 * its wait, which `placement.end` alone would not tell apart from the node's own time. `waitedMs` is wall
 * time at the gate.
 */
export interface GatePassedEvent extends ItemBase {
  readonly type: 'gate.passed';
  readonly placement: string;
  readonly gate: string;
  readonly key: string;
  readonly waitedMs: number;
}

/**
 * A gate's key closed: an execution under it (`item` at `placement`, when it was this run's) got a
 * rate-limit answer. `untilMs` is the wall time it reopens; `hintMs` the Retry-After the answer carried,
 * absent when the closing lasts the back-off instead.
 */
export interface GateClosedEvent extends Base {
  readonly type: 'gate.closed';
  readonly gate: string;
  readonly key: string;
  readonly untilMs: number;
  readonly reason: string;
  readonly hintMs?: number;
  readonly item?: string;
  readonly dag?: string;
  readonly placement?: string;
}

/** A closed gate's key reopened (reported once its closing has passed, as the first waiting item goes on). */
export interface GateOpenedEvent extends Base {
  readonly type: 'gate.opened';
  readonly gate: string;
  readonly key: string;
  /**
   * How long it was closed, ms; for a closing a resumed durable run restored from its events, how long since
   * the resume (the stopped process's part is not known).
   */
  readonly closedMs: number;
}

/**
 * An item parked at an await placement until an outside answer names one of `answers` or `deadlineAt` (wall
 * time, ms since the epoch) passes. `token` is what an answer names (`switchyard answer <run> <token> …`).
 * `resumed` is set when a resumed durable run finds the item parked where the stopped process left it.
 */
export interface AwaitParkedEvent extends ItemBase {
  readonly type: 'await.parked';
  readonly placement: string;
  readonly visit: number;
  readonly token: string;
  readonly answers: readonly string[];
  readonly deadlineAt: number;
  readonly resumed?: boolean;
}

/**
 * A parked item took an answer: it leaves the await on `output`, with the answer's data (if any) written at
 * the placement's `into`. `early` when the answer was given before the item parked; `waitedMs` is wall time
 * parked.
 */
export interface AwaitAnsweredEvent extends ItemBase {
  readonly type: 'await.answered';
  readonly placement: string;
  readonly token: string;
  readonly output: string;
  readonly waitedMs: number;
  readonly early?: boolean;
}

/** A parked item's deadline passed with no answer: it leaves the await on its `deadline` output. */
export interface AwaitExpiredEvent extends ItemBase {
  readonly type: 'await.expired';
  readonly placement: string;
  readonly token: string;
  readonly waitedMs: number;
}

/**
 * Something the run worked around, with a stable code: `W_RETRY_AFTER_IGNORED`, a node's `retryAfter` that
 * is neither milliseconds ≥ 0 nor a header value, ignored in favour of the back-off;
 * `W_CHECKPOINT_DATA_CONVERTED`, a resumed item whose checkpoint held data item data cannot hold (a Date, a
 * BigInt), going on with its JSON form; `W_ANSWER_IGNORED`, an answer given before its item parked that does
 * not fit the await placement it parked at (an output it does not expect, data it does not take).
 */
export interface WarningEvent extends ItemBase {
  readonly type: 'warning';
  readonly code: 'W_RETRY_AFTER_IGNORED' | 'W_CHECKPOINT_DATA_CONVERTED' | 'W_ANSWER_IGNORED';
  readonly placement: string;
  readonly message: string;
}

/** A thrown error as it appears in events and results: plain JSON. */
export interface ErrorSummary {
  readonly code: string;
  readonly message: string;
  readonly retryable: boolean;
  readonly kind?: 'timeout' | 'abort' | 'http' | 'network' | 'error';
  readonly status?: number;
}

/** Every event type name, for schema checks and filters. */
export const EVENT_TYPES = [
  'run.start',
  'run.end',
  'placement.start',
  'placement.end',
  'route',
  'retry.scheduled',
  'budget.exhausted',
  'salvage',
  'item.end',
  'item.failed',
  'item.cancelled',
  'gate.wait',
  'gate.passed',
  'gate.closed',
  'gate.opened',
  'await.parked',
  'await.answered',
  'await.expired',
  'warning',
] as const satisfies readonly RunEvent['type'][];
