/**
 * The real clock: monotonic time from `performance.now()`, wall time from `Date.now()`, and abortable sleeps on the platform timers. It is
 * the one place in the library that touches the global timers; everything else receives a {@link Clock}.
 */
import type { Clock } from './types.ts';

/** setTimeout cannot wait longer than this in one go (a longer delay fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The error a sleep rejects with when `signal` aborts: its reason if that is an Error, else an AbortError. */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('The operation was aborted', 'AbortError');
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  if (!(ms > 0)) return Promise.resolve();
  // Node measures a timer from the start of the current event-loop turn, so a timer set late in a long
  // turn can fire before `ms` has passed: the sleep ends only once the monotonic clock says it has.
  const end = performance.now() + ms;
  return new Promise<void>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal as AbortSignal));
    };
    const arm = () => {
      const left = end - performance.now();
      if (left <= 0) {
        signal?.removeEventListener('abort', onAbort);
        resolve();
        return;
      }
      timer = setTimeout(arm, Math.min(Math.ceil(left), MAX_TIMER_MS));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    arm();
  });
}

/**
 * The system clock: `now()` is `performance.now()` (monotonic, ms since process start); `wallNow()` is
 * `Date.now()` (ms since the Unix epoch, for HTTP-dates); `sleep(ms, signal)`
 * waits on a timer until at least `ms` have passed on `now()`, resolves at once for `ms` ≤ 0 without a timer, and rejects at once with an AbortError
 * (`signal.reason` when it is an Error) when `signal` is or becomes aborted, clearing its timer.
 *
 * @example
 * await systemClock.sleep(250, AbortSignal.timeout(100)); // rejects with the TimeoutError after 100 ms
 */
export const systemClock: Clock = Object.freeze({
  now: () => performance.now(),
  wallNow: () => Date.now(),
  sleep,
});

/**
 * How much wall time has passed on `clock` since the wall time `since`, never less than 0: `since` may have
 * been read on another host, or before the wall clock was set back, and neither makes a wait shorter than
 * none.
 *
 * @example
 * wallElapsed({ ...systemClock, wallNow: () => 1_000 }, 4_000); // 0
 */
export function wallElapsed(clock: Pick<Clock, 'wallNow'>, since: number): number {
  return Math.max(0, clock.wallNow() - since);
}

/**
 * `clock` itself when it reads wall time, else a clock with its `now` and `sleep` and the system's wall time:
 * a clock written before `wallNow` existed keeps working, and HTTP-dates are still measured against real
 * wall time rather than its own time line.
 *
 * @example
 * withWallTime({ now: () => 0, sleep: async () => {} }).wallNow(); // Date.now()
 */
export function withWallTime(clock: Omit<Clock, 'wallNow'> & Partial<Pick<Clock, 'wallNow'>>): Clock {
  if (typeof clock.wallNow === 'function') return clock as Clock;
  return {
    now: () => clock.now(),
    wallNow: systemClock.wallNow,
    sleep: (ms, signal) => clock.sleep(ms, signal),
  };
}

/**
 * Resolves on the event loop's next turn (`setImmediate`), once every promise reaction queued before it has
 * run: for a look at a run's state after the reactions of what just happened have settled. It measures no
 * time, so it is the same under any clock.
 */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
