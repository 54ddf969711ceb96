import type { ParkedItem } from '../awaits/desk.ts';
import type { EventStream } from './event-stream.ts';
import type { ErrorSummary, RunEvent } from './events.ts';
import type { ItemState } from './item-state.ts';

/** An item that reached a terminal. `data` is `state.data`, the run's own copy of the item's input. */
export interface ItemResult {
  readonly id: string;
  readonly terminal: string;
  readonly outcome: 'completed' | 'failed';
  readonly data: Record<string, unknown>;
  readonly state: ItemState;
}

/** An item that could not go on: its error, where it was, and its state (nothing is dropped). */
export interface ItemFailure {
  readonly id: string;
  readonly placement: string;
  readonly error: ErrorSummary;
  readonly state: ItemState;
}

/** What an item was doing when the run was aborted: `answer` for an item parked at an await placement. */
export type WaitingFor = 'backoff' | 'node' | 'queue' | 'answer';

/** An item stopped by an abort, with where it stopped. */
export interface ItemAborted {
  readonly item: string;
  readonly placement: string;
  readonly waitingFor: WaitingFor;
  readonly state: ItemState;
}

/** A phase placement that threw. A pre phase failing fails every item; a post phase failing fails the run. */
export interface PhaseError {
  readonly placement: string;
  readonly error: ErrorSummary;
}

/** Counters of a run. */
export interface RunStats {
  /** Node executions (per item; a batch of n items counts n), scatter bodies and phases included. */
  readonly executions: number;
  /** Retry waits scheduled (retry.scheduled events). */
  readonly retries: number;
  /** Salvage routes taken, and exhaustion routes to a non-terminal placement. */
  readonly salvages: number;
  /** Retry routes found exhausted (spent or deadline). */
  readonly exhausted: number;
  readonly durationMs: number;
  /** Input items per terminal key (a null-prototype record: any key is an ordinary key). */
  readonly byTerminal: Readonly<Record<string, number>>;
}

/**
 * The outcome of a run. Every input item is in exactly one of `items`, `failures` and `aborted` (and
 * `waiting`, for a run that stopped with its items parked).
 * `status` is `completed` only when every item ended at a completed terminal and no phase threw; `aborted`
 * when the caller's signal stopped an item (then listed in `aborted`); `failed` otherwise (the run deadline
 * included). An abort that comes once every item has ended leaves the status as the items made it.
 */
export interface RunResult {
  readonly runId: string;
  readonly dag: string;
  /** SHA-256 of the document's canonical N-Quads. */
  readonly hash: string;
  readonly status: 'completed' | 'failed' | 'aborted' | 'waiting';
  readonly items: readonly ItemResult[];
  readonly failures: readonly ItemFailure[];
  readonly aborted: readonly ItemAborted[];
  /**
   * Present when the run stopped with every item left parked at an await (`status` `waiting`, see
   * `whenParked`): the input items that had not ended, where they stood. They go on when the run is resumed.
   */
  readonly waiting?: readonly ItemAborted[];
  /** Present with {@link waiting}: every item parked when the run stopped, at any depth, with its token. */
  readonly parked?: readonly ParkedItem[];
  readonly phaseErrors: readonly PhaseError[];
  readonly stats: RunStats;
  /**
   * Present when an `onEvent` listener threw: the run carried on (a listener cannot break the run it
   * watches; it still got every later event), and this says how many calls threw and the first error.
   */
  readonly listenerErrors?: ListenerErrors;
}

/** Errors thrown by `onEvent` listeners during a run. */
export interface ListenerErrors {
  readonly count: number;
  readonly first: unknown;
}

/**
 * A running DAG: await it for the {@link RunResult}, or iterate it for the {@link RunEvent}s as they happen
 * (attach the iterator in the same tick as `dispatcher.run` to see every event).
 */
export class Run implements PromiseLike<RunResult>, AsyncIterable<RunEvent> {
  /** The run's id, also in every event. */
  readonly id: string;
  /** The result, as a plain promise. */
  readonly result: Promise<RunResult>;
  private readonly stream: EventStream;

  constructor(id: string, result: Promise<RunResult>, stream: EventStream) {
    this.id = id;
    this.result = result;
    this.stream = stream;
    // Iterating without awaiting must not turn a failed run into an unhandled rejection; awaiting still sees it.
    result.catch(() => undefined);
  }

  // biome-ignore lint/suspicious/noThenProperty: a Run is awaitable by design.
  then<A = RunResult, B = never>(
    onFulfilled?: ((value: RunResult) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.result.then(onFulfilled, onRejected);
  }

  [Symbol.asyncIterator](): AsyncIterator<RunEvent> {
    return this.stream.iterate();
  }
}
