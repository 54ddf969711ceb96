/**
 * What the progress line says of the items waiting at gates: the key most of them wait at, how many, why,
 * and the time left of the closing they wait out: `12 items waiting at gate openai (Retry-After, 14 s left)`.
 * Read from the book's counts per key, so that a line costs no pass over the waiting items.
 */
import type { GateWaitBook, KeyWaits } from '../gates/gate-waits.ts';
import { countdown } from './countdown.ts';

/** The wall time the closing the items at a key wait out ends: 0 when none is known. */
function closedUntil(book: GateWaitBook, at: KeyWaits): number {
  return Math.max(book.closing(at.key)?.untilMs ?? 0, at.closed > 0 ? at.untilMs : 0);
}

/** Why the items at one key wait: its closing (Retry-After or back-off), else its pace, else its concurrency. */
function keyWhy(book: GateWaitBook, at: KeyWaits, wallNow: number): string {
  const closing = book.closing(at.key);
  // A closing just announced holds every waiter at once, before each is told so.
  if (closedUntil(book, at) > wallNow) {
    return closing === undefined ? 'closed' : closing.hintMs === undefined ? 'back-off' : 'Retry-After';
  }
  if (at.rate > 0) return 'rate';
  if (at.concurrency > 0) return 'concurrency';
  // Waiters told of a closing that is over go on as the gate lets them.
  return 'reopened';
}

/** The key most items wait at; on a tie the one waited at first (the book keeps that order). */
function topKey(book: GateWaitBook): KeyWaits | undefined {
  let top: KeyWaits | undefined;
  for (const at of book.keys().values()) if (top === undefined || at.waiting > top.waiting) top = at;
  return top;
}

/** The wall times the closings that items wait out end, those still ahead of `wallNow`: for countdowns. */
export function gateEndings(book: GateWaitBook, wallNow: number): number[] {
  const ends: number[] = [];
  for (const at of book.keys().values()) {
    const until = closedUntil(book, at);
    if (until > wallNow) ends.push(until);
  }
  return ends;
}

/**
 * The key most items wait at and why, without counts or countdown (`provider: Retry-After`): a plain line
 * is due when it changes. Undefined when no item waits at a gate.
 */
export function gateHeadline(book: GateWaitBook, wallNow: number): string | undefined {
  const top = topKey(book);
  return top === undefined ? undefined : `${top.key}: ${keyWhy(book, top, wallNow)}`;
}

/**
 * The phrase for the gate waits of `book` at wall time `wallNow`, or undefined when no item waits at a gate.
 * @example
 * gatePhrase(book, clock.wallNow()); // '12 items waiting at gate openai (Retry-After, 14 s left)'
 */
export function gatePhrase(book: GateWaitBook, wallNow: number): string | undefined {
  const top = topKey(book);
  if (top === undefined) return undefined;
  const count = top.waiting === 1 ? '1 item' : `${top.waiting} items`;
  const until = closedUntil(book, top);
  const left = until > wallNow ? `, ${countdown(until - wallNow)} left` : '';
  const phrase = `${count} waiting at gate ${top.key} (${keyWhy(book, top, wallNow)}${left})`;
  const others = book.keys().size - 1;
  if (others === 0) return phrase;
  let rest = 0;
  for (const at of book.keys().values()) rest += at === top ? 0 : at.waiting;
  return `${phrase}, ${rest} more at ${others === 1 ? '1 other gate' : `${others} other gates`}`;
}
