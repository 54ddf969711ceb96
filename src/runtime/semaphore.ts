/** A FIFO counting semaphore bound to one abort signal: at most `limit` holders, waiters served in order. */
export class Semaphore {
  readonly limit: number;
  private held = 0;
  private waiters: Array<{ resolve: () => void; reject: (reason: unknown) => void }> = [];
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

  /** Waits for a slot in FIFO order; rejects with the signal's reason once the signal aborts. */
  acquire(): Promise<void> {
    if (this.tryAcquire()) return Promise.resolve();
    if (this.signal.aborted) return Promise.reject(this.signal.reason);
    if (!this.listening) {
      this.listening = true;
      this.signal.addEventListener('abort', () => this.rejectAll(), { once: true });
    }
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
    });
  }

  /** Gives a slot back, handing it straight to the longest waiter if there is one. */
  release(): void {
    if (this.head < this.waiters.length) {
      const next = this.waiters[this.head] as { resolve: () => void };
      this.waiters[this.head] = undefined as never;
      this.head++;
      if (this.head > 1024 && this.head * 2 > this.waiters.length) {
        this.waiters = this.waiters.slice(this.head);
        this.head = 0;
      }
      next.resolve();
      return;
    }
    this.held--;
  }

  private rejectAll(): void {
    const waiting = this.waiters.slice(this.head);
    this.waiters = [];
    this.head = 0;
    for (const waiter of waiting) waiter.reject(this.signal.reason);
  }
}
