/**
 * Group commit: writes made in the same turn of the event loop go to the store as one batch, in one
 * transaction. Each caller still waits for its own write to be durable; many items moving at once share a
 * transaction instead of paying for one each.
 */
import type { RunStore, StoreWrite } from './types.ts';

/** Queues `flush` to run once the current synchronous work is done. */
export type Schedule = (flush: () => void) => void;

/** Coalesces writes into batches; see {@link createGroupCommitter}. */
export interface GroupCommitter {
  /** Queues writes for the next batch; resolves once that batch is committed, rejects if it fails. */
  write(...writes: readonly StoreWrite[]): Promise<void>;
  /** Commits whatever is queued now, and waits for every batch already on its way. */
  flush(): Promise<void>;
}

/**
 * Creates a committer over `store`. By default a batch closes at the end of the current microtask queue
 * (`queueMicrotask`); pass `schedule` to close batches later, for example on the next macrotask, so that
 * more writes join each batch. Batches are committed one after another, in the order they closed.
 * @example
 * const group = createGroupCommitter(store);
 * await Promise.all(items.map((item) => group.write({ kind: 'checkpoint', checkpoint: item })));
 */
export function createGroupCommitter(
  store: Pick<RunStore, 'commit'>,
  schedule: Schedule = queueMicrotask,
): GroupCommitter {
  let queued: StoreWrite[] = [];
  let waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  let scheduled = false;
  let previous: Promise<void> = Promise.resolve();

  const close = (): Promise<void> => {
    scheduled = false;
    if (waiters.length === 0) return previous;
    const batch = queued;
    const settle = waiters;
    queued = [];
    waiters = [];
    const done = previous.then(() => store.commit(batch));
    previous = done.then(
      () => {
        for (const waiter of settle) waiter.resolve();
      },
      (error: unknown) => {
        for (const waiter of settle) waiter.reject(error);
      },
    );
    return previous;
  };

  return {
    write(...writes) {
      for (const write of writes) queued.push(write);
      const settled = new Promise<void>((resolve, reject) => waiters.push({ resolve, reject }));
      if (!scheduled) {
        scheduled = true;
        schedule(() => void close());
      }
      return settled;
    },
    flush: close,
  };
}
