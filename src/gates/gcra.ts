/**
 * The pace of a gate key as pure functions of its {@link GateKeyState} and the wall clock: the generic cell
 * rate algorithm (a token bucket kept as one time, the theoretical arrival time) and closings. Every
 * executor's gates (in process, and the Redis scripts across workers) follow these functions.
 */
import type { GateKeyState, GateRate, GateWhy } from './types.ts';

/** A key that has never been used: no pace owed, open. */
export const OPEN_KEY: GateKeyState = Object.freeze({ tat: 0, closedUntil: 0 });

/** The time between two starts at a steady pace: `periodMs / limit`. */
export function emissionInterval(rate: GateRate): number {
  return rate.periodMs / rate.limit;
}

/** When an execution asking at `now` may start, and why it waits, when it does. */
export interface Reservation {
  /** The wall time it may start: `now` or later. */
  readonly at: number;
  /** Why it waits; undefined when `at` is `now`. */
  readonly why: Exclude<GateWhy, 'concurrency'> | undefined;
  /** The key's state once the start is taken. */
  readonly next: GateKeyState;
}

/**
 * The earliest start at or after `now` of an execution under a key in `state`: after the key's closing,
 * and, with a `rate`, no sooner than the pace allows (`burst` starts may come at once, then one per
 * emission interval). Taking it (storing `next`) is up to the caller, which may decline a start that comes
 * too late for it, leaving the state as it was.
 */
export function reserve(rate: GateRate | undefined, state: GateKeyState, now: number): Reservation {
  const open = Math.max(now, state.closedUntil);
  if (rate === undefined) {
    return { at: open, why: open > now ? 'closed' : undefined, next: state };
  }
  const interval = emissionInterval(rate);
  const tolerance = (rate.burst - 1) * interval;
  const at = Math.max(open, state.tat - tolerance);
  const next = { tat: Math.max(state.tat, at) + interval, closedUntil: state.closedUntil };
  const why = at <= now ? undefined : at === open && open > now ? 'closed' : 'rate';
  return { at, why, next };
}

/** The state of a key closed until `until`: a closing never shortens one already in force. */
export function closeKey(state: GateKeyState, until: number): GateKeyState {
  return until <= state.closedUntil ? state : { tat: state.tat, closedUntil: until };
}

/** True when the key is closed at `now`. */
export function isClosed(state: GateKeyState, now: number): boolean {
  return state.closedUntil > now;
}

/**
 * How long a closing lasts: the hint (ms) when there is one, else the back-off the item that got the
 * answer waits; never longer than `capMs`, never negative.
 */
export function closingMs(hintMs: number | undefined, backoffMs: number, capMs: number): number {
  const ms = hintMs ?? backoffMs;
  return Math.max(0, Math.min(ms, capMs));
}

/** True when an error of HTTP `status`, with or without a usable Retry-After, closes a gate. */
export function closesGate(
  closeOn: { readonly statuses: readonly number[]; readonly statusesWithHint: readonly number[] },
  status: number | undefined,
  hasHint: boolean,
): boolean {
  if (status === undefined) return false;
  return closeOn.statuses.includes(status) || (hasHint && closeOn.statusesWithHint.includes(status));
}
