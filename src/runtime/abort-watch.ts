import type { Clock } from '../policy/types.ts';

/**
 * Many waiters on one abort signal through a single listener. Node's `EventTarget` looks through every
 * listener on each add, so a listener per waiting item makes a run with n items in flight cost n²; here each
 * signal gets one listener, which calls the callbacks of a `Set` (O(1) to add and remove). The sets live
 * beside their signals, keyed by identity, and go with them.
 */
const watchers = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `callback` once when `signal` aborts (the caller checks `signal.aborted` first). */
export function watchAbort(signal: AbortSignal, callback: () => void): void {
  let callbacks = watchers.get(signal);
  if (callbacks === undefined) {
    const created = new Set<() => void>();
    callbacks = created;
    watchers.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        watchers.delete(signal);
        for (const call of [...created]) call();
      },
      { once: true },
    );
  }
  callbacks.add(callback);
}

/** Forgets a callback given to {@link watchAbort}. */
export function unwatchAbort(signal: AbortSignal, callback: () => void): void {
  watchers.get(signal)?.delete(callback);
}

/**
 * `clock.sleep(ms)` that ends at once when `signal` aborts, with one listener on `signal` for all sleepers:
 * each sleep waits on a signal of its own, aborted from the shared one.
 */
export function sleepUnder(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return clock.sleep(ms, signal);
  const own = new AbortController();
  const forward = () => own.abort(signal.reason);
  watchAbort(signal, forward);
  return clock.sleep(ms, own.signal).finally(() => unwatchAbort(signal, forward));
}

/**
 * A signal of its own that aborts when `base` does (linked through {@link watchAbort}, so any number of
 * them cost `base` one listener), or when {@link LinkedAbort.abort} is called. {@link LinkedAbort.unlink}
 * forgets the link once its holder is done, so that `base` does not keep it.
 */
export class LinkedAbort {
  private readonly controller = new AbortController();
  private readonly forward: (() => void) | undefined;

  constructor(private readonly base: AbortSignal) {
    if (base.aborted) {
      this.controller.abort(base.reason);
    } else {
      const forward = () => this.controller.abort(base.reason);
      this.forward = forward;
      watchAbort(base, forward);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Aborts this signal alone, with `reason`. */
  abort(reason: unknown): void {
    this.unlink();
    this.controller.abort(reason);
  }

  /** Stops following `base`. */
  unlink(): void {
    if (this.forward !== undefined) unwatchAbort(this.base, this.forward);
  }
}
