import { unwatchAbort, watchAbort } from './abort-watch.ts';

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (reason: unknown) => void;
  /** Set when the waiter's own signal aborted: it was rejected and is skipped when a slot frees. */
  gone: boolean;
}

/** A FIFO counting semaphore bound to one abort signal: at most `limit` holders, waiters served in order. */
export class Semaphore {
  readonly limit: number;
  private held = 0;
  private waiters: Waiter[] = [];
  private head = 0;
  private listening = false;

  /**
   * When the source's signal aborts, every waiter is rejected with its reason (one listener for all waiters,
   * added when the first one queues: a semaphore that never makes anyone wait never touches the signal).
   */
  constructor(
    limit: number,
    private readonly source: { readonly signal: AbortSignal },
  ) {
    this.limit = Math.max(1, limit);
  }

  private get signal(): AbortSignal {
    return this.source.signal;
  }

  /** Takes a slot at once when one is free (and nobody is queued); false otherwise. */
  tryAcquire(): boolean {
    if (this.held < this.limit && this.head === this.waiters.length) {
      this.held++;
      return true;
    }
    return false;
  }

  /**
   * Waits for a slot in FIFO order; rejects with the signal's reason once the semaphore's signal aborts, or
   * once `signal` (a narrower one, such as that of a cancelled group of scatter children) aborts: that waiter
   * leaves the queue without taking a slot.
   */
  acquire(signal?: AbortSignal): Promise<void> {
    if (this.tryAcquire()) return Promise.resolve();
    if (this.signal.aborted) return Promise.reject(this.signal.reason);
    const own = signal === undefined || signal === this.signal ? undefined : signal;
    if (own?.aborted) return Promise.reject(own.reason);
    if (!this.listening) {
      this.listening = true;
      this.signal.addEventListener('abort', () => this.rejectAll(), { once: true });
    }
    return new Promise<void>((resolve, reject) => {
      if (own === undefined) {
        this.waiters.push({ resolve, reject, gone: false });
        return;
      }
      const onAbort = () => {
        waiter.gone = true;
        reject(own.reason);
      };
      const waiter: Waiter = {
        resolve: () => {
          unwatchAbort(own, onAbort);
          resolve();
        },
        reject: (reason) => {
          unwatchAbort(own, onAbort);
          reject(reason);
        },
        gone: false,
      };
      // One listener on `own` for all its waiters: a listener each would make n waiters cost n².
      watchAbort(own, onAbort);
      this.waiters.push(waiter);
    });
  }

  /** Gives a slot back, handing it straight to the longest waiter still waiting if there is one. */
  release(): void {
    while (this.head < this.waiters.length) {
      const next = this.waiters[this.head] as Waiter;
      this.waiters[this.head] = undefined as never;
      this.head++;
      if (this.head > 1024 && this.head * 2 > this.waiters.length) {
        this.waiters = this.waiters.slice(this.head);
        this.head = 0;
      }
      if (next.gone) continue;
      next.resolve();
      return;
    }
    this.held--;
  }

  private rejectAll(): void {
    const waiting = this.waiters.slice(this.head);
    this.waiters = [];
    this.head = 0;
    for (const waiter of waiting) if (!waiter.gone) waiter.reject(this.signal.reason);
  }
}
