import { SwitchyardError } from '../errors.ts';
import type { Clock } from '../policy/types.ts';
import type { ItemState } from './item-state.ts';
import { journalStep } from './journal.ts';
import type { BatchContext, NodeContext, NodeResult } from './node.ts';

/** A node's result in one shape: the output, and the hints it gave. */
export interface NormalResult {
  readonly output: string;
  readonly reason: string | undefined;
  readonly retryAfter: number | string | undefined;
}

/** True for promises and other thenables; plain results are handled without awaiting. */
export function isThenable<T>(value: unknown): value is PromiseLike<T> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** Reads a node's answer; anything but an output name or `{ output }` is a node bug reported as `E_NODE_ERROR`. */
export function normaliseResult(result: NodeResult | undefined, placement: string): NormalResult {
  if (typeof result === 'string') return { output: result, reason: undefined, retryAfter: undefined };
  if (result !== null && typeof result === 'object' && typeof result.output === 'string') {
    return { output: result.output, reason: result.reason, retryAfter: result.retryAfter };
  }
  throw new SwitchyardError(
    'E_NODE_ERROR',
    `the node at placement '${placement}' returned ${JSON.stringify(result) ?? String(result)}; return an output name or { output }`,
  );
}

/** The context of one execution for one item. One object per execution, methods on the prototype. */
export class ExecutionContext<S = unknown> implements NodeContext<S> {
  constructor(
    // The run itself, or the execution's own signal holder when it has a deadline: read only when a node
    // asks, so that nodes that never look at it cost no AbortController.
    private readonly signalSource: { readonly signal: AbortSignal },
    readonly services: S,
    readonly placement: string,
    readonly dag: string,
    readonly visit: number,
    private readonly state: ItemState,
    private readonly clock: Clock,
  ) {}

  get signal(): AbortSignal {
    return this.signalSource.signal;
  }

  now(): number {
    return this.clock.now();
  }

  attempts(budget: string): number {
    return this.state.budgets[budget] ?? 0;
  }

  step<T>(key: string, fn: () => T | Promise<T>): Promise<T> {
    return journalStep(this.state, key, fn);
  }
}

/** The context of one batch execution. */
export class BatchExecutionContext<S = unknown> implements BatchContext<S> {
  constructor(
    readonly signal: AbortSignal,
    readonly services: S,
    readonly placement: string,
    readonly dag: string,
    readonly contexts: readonly NodeContext<S>[],
    private readonly clock: Clock,
  ) {}

  now(): number {
    return this.clock.now();
  }
}

/** The error a placement's deadline raises: a timeout, retryable when the policy retries timeouts. */
export function deadlineError(placement: string, deadlineMs: number): SwitchyardError {
  return new SwitchyardError(
    'E_DEADLINE',
    `placement '${placement}' did not finish within its ${deadlineMs} ms deadline; raise deadlineMs in the policy or make the node answer sooner`,
  );
}

/**
 * Settles with the node's promise, unless `runSignal` aborts first (rejects with its reason) or the deadline
 * fires first (aborts `execution` so the node can stop, and rejects with `E_DEADLINE`).
 */
export function settleNode<T>(
  pending: PromiseLike<T>,
  runSignal: AbortSignal,
  clock: Clock,
  placement: string,
  deadlineMs: number | undefined,
  execution: AbortController | undefined,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: AbortController | undefined;
    const onAbort = () => {
      timer?.abort();
      reject(runSignal.reason);
    };
    const done = () => {
      runSignal.removeEventListener('abort', onAbort);
      timer?.abort();
    };
    if (runSignal.aborted) return onAbort();
    runSignal.addEventListener('abort', onAbort, { once: true });
    if (deadlineMs !== undefined) {
      timer = new AbortController();
      clock.sleep(deadlineMs, timer.signal).then(
        () => {
          runSignal.removeEventListener('abort', onAbort);
          const error = deadlineError(placement, deadlineMs);
          reject(error);
          execution?.abort(error);
        },
        () => undefined,
      );
    }
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
  });
}
