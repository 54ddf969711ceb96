import type { RunEvent } from './events.ts';

/** True for promises and other thenables a listener may return. */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

type Distribute<T> = T extends RunEvent ? Omit<T, 'seq' | 'time' | 'runId'> : never;

/** A run event before the stream stamps it with `seq`, `time` and `runId`. */
export type EventBody = Distribute<RunEvent>;

interface Reader {
  readonly queue: RunEvent[];
  wake: (() => void) | undefined;
}

/**
 * The event stream of one run. Events are built only when someone listens (`active`); the dispatcher checks
 * it before creating an event object, so a run nobody watches allocates none.
 */
export class EventStream {
  /** True once a listener or an iterator is attached. */
  active = false;
  /** Set when a listener threw or its promise rejected: how many calls failed, and the first error. */
  listenerErrors: { count: number; readonly first: unknown } | undefined;
  private seq = 0;
  private readonly listeners: Array<(event: RunEvent) => unknown> = [];
  private readonly readers: Reader[] = [];
  private done = false;
  private failure: { error: unknown } | undefined;

  constructor(
    /** The run the events are of. */
    readonly runId: string,
    private readonly now: () => number,
  ) {}

  /**
   * Calls `listener` with every later event, synchronously, in order; the stream never waits for a promise
   * it returns. An error it throws, or the rejection of a promise it returns (an `async` listener), is caught
   * and counted in {@link EventStream.listenerErrors}; later events still reach it.
   */
  listen(listener: (event: RunEvent) => unknown): void {
    this.listeners.push(listener);
    this.active = true;
  }

  /** Numbers the next event `seq + 1`: a resumed run's events go on after those it recorded before. */
  continueAfter(seq: number): void {
    this.seq = seq + 1;
  }

  /** Stamps and delivers one event; `time` saves a clock read when the caller has just made one. */
  emit(body: EventBody, time: number = this.now()): void {
    // Stamping the body in place, rather than spreading it into a new object, keeps emission cheap enough
    // to leave on: a spread over a dozen event shapes is megamorphic and allocates twice.
    const stamped = body as unknown as { seq: number; time: number; runId: string };
    stamped.seq = this.seq++;
    stamped.time = time;
    stamped.runId = this.runId;
    const event = stamped as unknown as RunEvent;
    for (const listener of this.listeners) {
      try {
        const returned = listener(event);
        // An async listener's rejection would otherwise be unhandled, which ends the process.
        if (returned instanceof Promise) returned.catch(this.onListenerError);
        else if (isThenable(returned)) returned.then(undefined, this.onListenerError);
      } catch (error) {
        this.onListenerError(error);
      }
    }
    for (const reader of this.readers) {
      reader.queue.push(event);
      const wake = reader.wake;
      if (wake) {
        reader.wake = undefined;
        wake();
      }
    }
  }

  /** A listener must not break the run it watches: the run goes on and its result reports the error. */
  private readonly onListenerError = (error: unknown): void => {
    if (this.listenerErrors === undefined) this.listenerErrors = { count: 1, first: error };
    else this.listenerErrors.count++;
  };

  /** Ends every iterator after the events already queued; `error` makes them throw it instead. */
  close(error?: { error: unknown }): void {
    this.done = true;
    this.failure = error;
    for (const reader of this.readers) {
      const wake = reader.wake;
      reader.wake = undefined;
      wake?.();
    }
  }

  /** A new iterator over the events from now on (attach before the run starts to see them all). */
  iterate(): AsyncIterableIterator<RunEvent> {
    const reader: Reader = { queue: [], wake: undefined };
    this.readers.push(reader);
    this.active = true;
    let index = 0;
    const stream = this;
    return {
      [Symbol.asyncIterator]() {
        return this;
      },
      async next(): Promise<IteratorResult<RunEvent>> {
        for (;;) {
          if (index < reader.queue.length) {
            const value = reader.queue[index] as RunEvent;
            reader.queue[index++] = undefined as unknown as RunEvent;
            if (index > 4096 && index * 2 > reader.queue.length) {
              reader.queue.splice(0, index);
              index = 0;
            }
            return { value, done: false };
          }
          if (stream.done) {
            if (stream.failure) throw stream.failure.error;
            return { value: undefined, done: true };
          }
          await new Promise<void>((resolve) => {
            reader.wake = resolve;
          });
        }
      },
      async return(): Promise<IteratorResult<RunEvent>> {
        const at = stream.readers.indexOf(reader);
        if (at >= 0) stream.readers.splice(at, 1);
        return { value: undefined, done: true };
      },
    };
  }
}
