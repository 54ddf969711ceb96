/**
 * A virtual clock for deterministic runs: time moves only when told to (or, in auto mode, whenever the
 * program is idle), so minutes of back-off take milliseconds and every `now()` is exact.
 */
import { abortError } from './clock.ts';
import type { Clock } from './types.ts';

/** A {@link Clock} whose time is moved by the caller, or by itself in auto mode. */
export interface VirtualClock extends Clock {
  /**
   * Moves time forward by `ms`, firing every sleeper due by then in time order (ties in registration order);
   * one macrotask turn passes after each firing, so sleeps that the woken work starts are fired too when due.
   * Ends with `now()` exactly `ms` later.
   */
  advance(ms: number): Promise<void>;
  /** How many sleeps are waiting. */
  pending(): number;
  /** Fires sleepers in time order, jumping to each deadline, until none is waiting (new ones included). */
  runUntilIdle(): Promise<void>;
  /**
   * Sets the wall-clock reading to `ms` (since the Unix epoch) from this moment; it then advances with
   * virtual time. Moves no sleeper: the monotonic `now()` is unchanged.
   */
  setWall(ms: number): void;
}

/** Options of {@link createVirtualClock}. */
export interface VirtualClockOptions {
  /** The time `now()` starts at; default 0. */
  readonly start?: number;
  /** Advance by itself whenever the program is idle with sleepers waiting; default false. */
  readonly auto?: boolean;
  /**
   * What `wallNow()` reads when `now()` reads `start`, in ms since the Unix epoch; default 0, so that a run
   * is the same whenever it happens. Pass `Date.now()` to measure real HTTP-dates.
   */
  readonly wallStart?: number;
}

interface Sleeper {
  readonly at: number;
  readonly resolve: () => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

// Macrotask turns are how this clock tells that the program has run everything it can at the current
// virtual time: a turn lets every pending promise chain settle first.
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Creates a virtual clock. `wallNow()` starts at `wallStart` and moves with `now()`. `sleep(ms)` registers a sleeper due at `now() + ms` (resolving at once when
 * `ms` ≤ 0); aborting its signal rejects at once with an AbortError and removes it.
 *
 * With `auto: true` the clock drives itself: whenever sleepers are waiting and one macrotask turn
 * (`setImmediate`) passes with no sleeper registered, fired or removed, it jumps to the earliest deadline
 * and fires that sleeper, then watches again. A retry-heavy run thus finishes in real milliseconds with an
 * exact time line. Work that waits on real I/O across turns while sleepers are pending sees time jump, so
 * auto mode suits code whose only waits are this clock's sleeps. It stops watching when no sleeper waits,
 * leaving no handle open.
 *
 * @example
 * const clock = createVirtualClock({ auto: true });
 * await clock.sleep(60_000);
 * clock.now(); // 60000
 */
export function createVirtualClock(options: VirtualClockOptions = {}): VirtualClock {
  let now = options.start ?? 0;
  // Wall time is monotonic time plus an offset, so it advances with every sleep and advance.
  let wallOffset = (options.wallStart ?? 0) - now;
  let epoch = 0;
  let watching = false;
  const sleepers: Sleeper[] = [];

  const remove = (sleeper: Sleeper) => {
    const index = sleepers.indexOf(sleeper);
    if (index >= 0) sleepers.splice(index, 1);
    sleeper.signal?.removeEventListener('abort', sleeper.onAbort);
    epoch++;
  };

  const fireFirst = () => {
    const first = sleepers[0];
    if (first === undefined) return;
    remove(first);
    now = Math.max(now, first.at);
    first.resolve();
  };

  const watch = () => {
    if (!options.auto || watching) return;
    watching = true;
    void (async () => {
      while (sleepers.length > 0) {
        const seen = epoch;
        await nextTurn();
        if (epoch === seen) fireFirst();
      }
      watching = false;
    })();
  };

  const insert = (sleeper: Sleeper) => {
    let low = 0;
    let high = sleepers.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((sleepers[mid]?.at ?? 0) <= sleeper.at) low = mid + 1;
      else high = mid;
    }
    sleepers.splice(low, 0, sleeper);
    epoch++;
    watch();
  };

  const sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (!(ms > 0)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const sleeper: Sleeper = {
        at: now + ms,
        resolve,
        signal,
        onAbort: () => {
          remove(sleeper);
          reject(abortError(signal as AbortSignal));
        },
      };
      signal?.addEventListener('abort', sleeper.onAbort, { once: true });
      insert(sleeper);
    });
  };

  const advance = async (ms: number): Promise<void> => {
    const target = ms > 0 ? now + ms : now;
    for (let first = sleepers[0]; first !== undefined && first.at <= target; first = sleepers[0]) {
      fireFirst();
      await nextTurn();
    }
    now = Math.max(now, target);
  };

  const runUntilIdle = async (): Promise<void> => {
    while (sleepers.length > 0) {
      fireFirst();
      await nextTurn();
    }
  };

  return {
    now: () => now,
    wallNow: () => now + wallOffset,
    setWall: (ms: number) => {
      wallOffset = ms - now;
    },
    sleep,
    advance,
    pending: () => sleepers.length,
    runUntilIdle,
  };
}
