import type { RunEvent } from '../../src/runtime/events.ts';

/** An `await.parked` event. */
export type Parked = Extract<RunEvent, { type: 'await.parked' }>;

/**
 * Resolves once `events` holds `count` events that `match`, letting promise reactions and timers run
 * between looks; fails after a bounded number of looks (a condition that never comes is a failure).
 */
export async function until<E extends RunEvent>(
  events: readonly RunEvent[],
  match: (e: RunEvent) => e is E,
  count = 1,
): Promise<E[]> {
  for (let i = 0; i < 2000; i++) {
    const found = events.filter(match);
    if (found.length >= count) return found;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`fewer than ${count} matching events came`);
}

/** Matches `await.parked` events. */
export const parkedEvent = (e: RunEvent): e is Parked => e.type === 'await.parked';
