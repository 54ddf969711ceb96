import { isSwitchyardError, SwitchyardError } from '../errors.ts';
import { describeThrown, isObjectLike, read } from '../policy/safe-read.ts';
import type { Clock } from '../policy/types.ts';
import type { SpanLike } from '../telemetry/span-like.ts';
import { LinkedAbort, unwatchAbort, watchAbort } from './abort-watch.ts';
import { spent } from './budgets.ts';
import type { ItemState } from './item-state.ts';
import { journalStep, type StepInfo } from './journal.ts';
import type { BatchContext, NodeContext, NodeResult } from './node.ts';

/** A node's result in one shape: the output, and the hints it gave. */
export interface NormalResult {
  readonly output: string;
  readonly reason: string | undefined;
  readonly retryAfter: number | string | undefined;
}

/**
 * True for promises and other thenables among the engine's own values (a transition, an outcome, an ending),
 * which are handled without awaiting when plain. A value a node returned goes through
 * {@link isThenableNodeResult} instead.
 */
export function isThenable<T>(value: unknown): value is PromiseLike<T> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * {@link isThenable} for a value a node returned, which may be hostile: a value whose `then` cannot be read
 * (a Proxy whose traps throw) is not a thenable, and its result is reported as the node's bug.
 */
export function isThenableNodeResult<T>(value: unknown): value is PromiseLike<T> {
  return isObjectLike(value) && typeof read(value, 'then') === 'function';
}

/** A returned value as a message shows it: its JSON, else how it prints, else that it cannot be read. */
function shown(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return describeThrown(value, 'a value that cannot be read');
  }
}

/** Reads a node's answer; anything but an output name or `{ output }` is a node bug reported as `E_NODE_ERROR`. */
export function normaliseResult(result: NodeResult | undefined, placement: string): NormalResult {
  if (typeof result === 'string') return { output: result, reason: undefined, retryAfter: undefined };
  const output = result !== null && typeof result === 'object' ? read(result, 'output') : undefined;
  if (typeof output === 'string' && result !== null && typeof result === 'object') {
    // Read once each: a getter may answer differently, or throw, on a second read.
    const reason = read(result, 'reason') as string | undefined;
    return { output, reason, retryAfter: read(result, 'retryAfter') as number | string | undefined };
  }
  throw new SwitchyardError(
    'E_NODE_ERROR',
    `the node at placement '${placement}' returned ${shown(result)}; return an output name or { output }`,
  );
}

/** Where an execution reads its abort signal: the run, a phase's own signal holder, or a {@link DeadlineScope}. */
export interface SignalSource {
  readonly signal: AbortSignal;
}

/**
 * The abort scope of one execution whose placement has a deadline: its signal aborts with the base signal,
 * or when the deadline fires ({@link DeadlineScope.expire}). The signal is made only when a node reads it,
 * linked to the base signal through one shared listener ({@link LinkedAbort}).
 */
export class DeadlineScope implements SignalSource {
  private link: LinkedAbort | undefined;
  private expiredWith: { readonly error: unknown } | undefined;

  constructor(
    private readonly base: SignalSource,
    readonly deadlineMs: number,
  ) {}

  get signal(): AbortSignal {
    if (this.link === undefined) {
      this.link = new LinkedAbort(this.base.signal);
      if (this.expiredWith !== undefined) this.link.abort(this.expiredWith.error);
    }
    return this.link.signal;
  }

  /** Marks the deadline as passed: aborts the signal if a node holds it, or makes it born aborted. */
  expire(error: unknown): void {
    if (this.expiredWith !== undefined) return;
    this.expiredWith = { error };
    this.link?.abort(error);
  }

  /** The execution is over: the base signal no longer needs to reach this one. */
  release(): void {
    this.link?.unlink();
  }
}

/**
 * The signal source of one execution: `base` itself when the placement has no deadline (nothing is
 * allocated), else a new {@link DeadlineScope} over it.
 */
export function scopeOf(base: SignalSource, deadlineMs: number | undefined): SignalSource {
  return deadlineMs === undefined ? base : new DeadlineScope(base, deadlineMs);
}

/**
 * Who holds an execution's context only when it must: the item whose node call it is. The context gives
 * itself to its owner once it has something to settle after the node answers (a signal of its own to
 * unlink, a step's failure), so that a node that keeps no hold of its context leaves it to the collector
 * while it runs.
 */
export interface ContextOwner {
  /** `call` is the number the owner gave the context: a late word from an earlier call is ignored. */
  keep(ctx: ExecutionContext, call: number): void;
}

/** The context of one execution for one item. One object per execution, methods on the prototype. */
export class ExecutionContext<S = unknown> implements NodeContext<S> {
  // A node that reads `signal` without a deadline gets a signal of its own, linked to the run's: listeners
  // it adds (an HTTP client's, say) then land on that signal, not all on the run's.
  private link: LinkedAbort | undefined;

  constructor(
    // Read only when a node asks: the run's signal and a deadline's controller are made on first read.
    private readonly signalSource: SignalSource,
    readonly services: S,
    readonly placement: string,
    readonly dag: string,
    readonly visit: number,
    private readonly state: ItemState,
    private readonly clock: Clock,
    private readonly runId: string,
    private readonly owner?: ContextOwner,
    private readonly call = 0,
  ) {}

  /** Set for a traced run's execution only (see {@link NodeContext.span}). */
  declare span: SpanLike | undefined;

  get signal(): AbortSignal {
    const source = this.signalSource;
    if (source instanceof DeadlineScope) return source.signal;
    if (this.link === undefined) {
      this.link = new LinkedAbort(source.signal);
      this.owner?.keep(this, this.call);
    }
    return this.link.signal;
  }

  /** The execution is over: its own signal, if a node read one, stops following the run's. */
  release(): void {
    this.link?.unlink();
  }

  now(): number {
    return this.clock.now();
  }

  attempts(budget: string): number {
    return spent(this.state, budget);
  }

  /**
   * The first `E_STEP_VALUE` a step of this execution raised: the item fails with it even if the node
   * catches it, since the step ran and its value is lost.
   */
  stepFailure: SwitchyardError | undefined;

  step<T>(key: string, fn: (info: StepInfo) => T | Promise<T>): Promise<T> {
    return journalStep(this.state, key, fn, this.runId).catch((error: unknown) => {
      if (isSwitchyardError(error) && error.code === 'E_STEP_VALUE' && this.stepFailure === undefined) {
        this.stepFailure = error;
        this.owner?.keep(this, this.call);
      }
      throw error;
    });
  }
}

/** The context of one batch execution. */
export class BatchExecutionContext<S = unknown> implements BatchContext<S> {
  constructor(
    private readonly signalSource: SignalSource,
    readonly services: S,
    readonly placement: string,
    readonly dag: string,
    readonly contexts: readonly NodeContext<S>[],
    private readonly clock: Clock,
  ) {}

  get signal(): AbortSignal {
    return this.signalSource.signal;
  }

  now(): number {
    return this.clock.now();
  }
}

/** The error a placement's deadline raises: a timeout, retryable when the policy retries timeouts. */
function deadlineError(placement: string, deadlineMs: number): SwitchyardError {
  return new SwitchyardError(
    'E_DEADLINE',
    `placement '${placement}' did not finish within its ${deadlineMs} ms deadline; raise deadlineMs in the policy or make the node answer sooner`,
  );
}

/**
 * Settles with the node's promise, unless `runSignal` aborts first (rejects with its reason) or the deadline
 * of `scope` (a {@link DeadlineScope}) fires first (expires the scope so the node can stop, and rejects with
 * `E_DEADLINE`). It waits on `runSignal` through {@link watchAbort}: the executions in flight share one
 * listener, so their number does not make each one dearer.
 */
export function settleNode<T>(
  pending: PromiseLike<T>,
  runSignal: AbortSignal,
  clock: Clock,
  placement: string,
  scope: SignalSource,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: AbortController | undefined;
    const onAbort = () => {
      timer?.abort();
      reject(runSignal.reason);
    };
    const done = () => {
      unwatchAbort(runSignal, onAbort);
      timer?.abort();
      if (scope instanceof DeadlineScope) scope.release();
    };
    // The node's promise is always handled, even when the run has already stopped: a late rejection of an
    // abandoned node must not become an unhandled rejection.
    pending.then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
    if (runSignal.aborted) return onAbort();
    watchAbort(runSignal, onAbort);
    if (scope instanceof DeadlineScope) {
      const deadlineMs = scope.deadlineMs;
      timer = new AbortController();
      clock.sleep(deadlineMs, timer.signal).then(
        () => {
          unwatchAbort(runSignal, onAbort);
          const error = deadlineError(placement, deadlineMs);
          reject(error);
          scope.expire(error);
        },
        () => undefined,
      );
    }
  });
}
