/**
 * How a test waits for something another process, a server or a timer brings about: it looks again and
 * again until the thing holds, instead of sleeping a guessed time and hoping. A loaded machine only makes
 * the wait longer. The bound is a hang guard far above what any machine needs, not a timing assertion; when
 * it passes, the wait fails with what it waited for and what it last saw.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** A look's answer: a value once the condition holds; `undefined`, `null` or `false` while it does not. */
export type Look<T> = () => T | undefined | null | false | Promise<T | undefined | null | false>;

/** How {@link waitFor} waits. */
export interface WaitOptions {
  /** What is awaited, in words, for the failure message ("the worker to take jobs"). */
  readonly what: string;
  /** The hang guard in milliseconds; default {@link HANG_GUARD_MS}. */
  readonly withinMs?: number;
  /** The pause between two looks in milliseconds; default 20. */
  readonly everyMs?: number;
  /** What the last look saw (a terminal's screen, a process's stderr), added to the failure message. */
  readonly seen?: () => string;
}

/**
 * The default hang guard: half of vitest's default test limit here (60 s), so that a test that waits for
 * two things still fails with this message rather than vitest's "timed out".
 */
export const HANG_GUARD_MS = 30_000;

/**
 * Looks until `look` answers a value (anything but `undefined`, `null` or `false`) and returns it. A look
 * that throws ends the wait with its error: that is how a look says the thing can no longer happen (the
 * process it waits for ended).
 * @example
 * await waitFor(() => worker.err().includes('taking jobs'), { what: 'the worker to take jobs' });
 */
export async function waitFor<T>(look: Look<T>, options: WaitOptions): Promise<T> {
  const { what, withinMs = HANG_GUARD_MS, everyMs = 20, seen } = options;
  const giveUpAt = performance.now() + withinMs;
  for (;;) {
    const value = await look();
    if (value !== undefined && value !== null && value !== false) return value;
    if (performance.now() >= giveUpAt) {
      const last = seen === undefined ? '' : `; the last look saw:\n${seen()}`;
      throw new Error(`waited ${withinMs} ms for ${what}, in vain${last}`);
    }
    await sleep(everyMs);
  }
}
