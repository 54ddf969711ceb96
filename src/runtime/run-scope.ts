import { setMaxListeners } from 'node:events';
import type { CompiledPlacement } from '../graph/compile.ts';
import type { Clock } from '../policy/types.ts';
import type { EventStream } from './event-stream.ts';
import { InFlight } from './in-flight.ts';
import type { Prepared } from './prepare.ts';
import type { RunEnvironment } from './runner.ts';
import { Semaphore } from './semaphore.ts';

/** Per-run state of one prepared DAG: the semaphores and batchers of its placements. */
export interface Slots {
  readonly semaphores: (Semaphore | undefined)[];
  readonly batchers: unknown[];
}

/**
 * Why a run context's signal aborted: the caller's signal, the run deadline, a decided gather, or every item
 * left parked at an await in a run told to stop then (`whenParked: 'stop'`).
 */
export type StopReason = 'abort' | 'deadline' | 'cancel' | 'parked';

/** The counters of a run: node executions (a batch of n items counts n), retries, salvages, exhaustions. */
export interface Tally {
  readonly executions: number;
  readonly retries: number;
  readonly salvages: number;
  readonly exhausted: number;
}

/** Counters at zero: a run's before it starts, a report that adds nothing. */
export function emptyTally(): Tally {
  return { executions: 0, retries: 0, salvages: 0, exhausted: 0 };
}

/** The counters as the run adds to them, shared by the run and the cancellable scopes inside it. */
type Counters = { -readonly [K in keyof Tally]: number };

/**
 * What a run shares across everything it drives: counters, the run signal and why it stopped, and the
 * per-placement semaphores and batchers.
 *
 * A scope may be a cancellable part of a run (see `RunContext.cancellable`): the items of a group (the
 * children of one scatter execution) share the run's counters, slots and events but have a signal of their
 * own, which aborts with the run's or when the group is cancelled.
 */
export class RunScope {
  /** The run's own scope; itself unless this is a cancellable scope. */
  readonly root: RunScope;
  readonly clock: Clock;
  private readonly counters: Counters;
  private readonly slots: Map<Prepared, Slots>;
  private reason: StopReason | undefined;
  // Created on first use: most runs of synchronous nodes never wait on anything, and a controller per run
  // is a measurable share of a short run's cost.
  private controller: AbortController | undefined;
  private scopeSignal: AbortSignal | undefined;
  private calls: InFlight | undefined;
  /**
   * The most items that can execute one task placement at once in this run: unbounded, unless the run's
   * documents never fan out (see `Prepared.fans`), when its input items (or, in their place, their embedded
   * children) are all there are. A concurrency limit at least that high is no limit, and gets no semaphore.
   */
  mostAtOnce = Number.POSITIVE_INFINITY;

  constructor(
    readonly env: RunEnvironment,
    readonly events: EventStream | undefined,
    readonly runDeadlineAt: number,
    private readonly parent?: { readonly run: RunScope; readonly cancel: AbortSignal },
  ) {
    this.clock = env.clock;
    this.root = parent?.run.root ?? this;
    this.counters = parent?.run.counters ?? emptyTally();
    this.slots = parent?.run.slots ?? new Map();
  }

  /** Adds `n` (default 1) to one of the run's counters; the run and its scopes count together. */
  count(counter: keyof Tally, n = 1): void {
    // A named store per counter: this runs on every execution, and a store keyed by a variable is slower.
    const counters = this.counters;
    switch (counter) {
      case 'executions':
        counters.executions += n;
        break;
      case 'retries':
        counters.retries += n;
        break;
      case 'salvages':
        counters.salvages += n;
        break;
      case 'exhausted':
        counters.exhausted += n;
        break;
    }
  }

  /** The run's counters so far, as a value of their own that later counts do not change. */
  get tally(): Tally {
    const { executions, retries, salvages, exhausted } = this.counters;
    return { executions, retries, salvages, exhausted };
  }

  /**
   * Why this context's signal aborted, undefined while it has not: `abort` (the caller's signal) or
   * `deadline` (the run deadline) for the whole run, `cancel` for a cancelled scope.
   */
  get stopReason(): StopReason | undefined {
    if (this.parent === undefined) return this.reason;
    return this.parent.run.stopReason ?? (this.parent.cancel.aborted ? 'cancel' : undefined);
  }

  /** Aborts when the run is aborted or passes its deadline (or, in a scope, when the scope is cancelled). */
  get signal(): AbortSignal {
    if (this.parent !== undefined) {
      this.scopeSignal ??= AbortSignal.any([this.parent.run.signal, this.parent.cancel]);
      return this.scopeSignal;
    }
    return this.controllerOf().signal;
  }

  private controllerOf(): AbortController {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      // Items waiting on a node or a back-off share one listener (abort-watch.ts), but each semaphore and
      // any node reading ctx.signal adds its own: many listeners at once are the design, not a leak.
      setMaxListeners(0, this.controller.signal);
    }
    return this.controller;
  }

  /** The node calls in flight in this scope, abandoned when its signal aborts; made on first use. */
  get inFlight(): InFlight {
    this.calls ??= new InFlight(this);
    return this.calls;
  }

  /** Aborts every wait of the run, recording why. The first reason wins. */
  stop(reason: 'abort' | 'deadline' | 'parked', error: unknown): void {
    if (this.root !== this) {
      this.root.stop(reason, error);
      return;
    }
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.controllerOf().abort(error);
  }

  /** The per-run slots of a prepared DAG (semaphores, batchers), created on first use. */
  slotsOf(prep: Prepared): Slots {
    let slots = this.slots.get(prep);
    if (slots === undefined) {
      slots = { semaphores: [], batchers: [] };
      this.slots.set(prep, slots);
    }
    return slots;
  }

  /**
   * The run-wide concurrency limiter of a placement, or undefined when its concurrency is unbounded or no
   * lower than {@link mostAtOnce}. For a task it counts items executing the placement (none for a batch node,
   * whose `maxBatch` is its limit); for a scatter it counts the children in flight across every item of the
   * run.
   */
  semaphoreOf(prep: Prepared, at: CompiledPlacement): Semaphore | undefined {
    const limit = prep.limits[at.index];
    if (limit === undefined || limit >= this.root.mostAtOnce) return undefined;
    const slots = this.slotsOf(prep);
    let semaphore = slots.semaphores[at.index];
    if (semaphore === undefined) {
      // Bound to the run's own signal: a cancelled scope's waiters leave through their own signal.
      semaphore = new Semaphore(limit, this.root);
      slots.semaphores[at.index] = semaphore;
    }
    return semaphore;
  }
}
