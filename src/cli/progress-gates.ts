/**
 * What the progress line says of the items waiting at gates: the key most of them wait at, how many, why,
 * and the time left of the closing they wait out: `12 items waiting at gate openai (Retry-After, 14 s left)`.
 */
import type { GateWait, GateWaitBook } from '../gates/gate-waits.ts';
import { countdown } from './countdown.ts';

/** Why the items at one key wait: its closing (Retry-After or back-off), else its pace, else its concurrency. */
function keyWhy(book: GateWaitBook, key: string, waits: readonly GateWait[], wallNow: number): string {
  const closing = book.closing(key);
  // A closing just announced holds every waiter at once, before each is told so.
  if (closedUntil(book, key, waits) > wallNow) {
    return closing === undefined ? 'closed' : closing.hintMs === undefined ? 'back-off' : 'Retry-After';
  }
  if (waits.some((w) => w.why === 'rate')) return 'rate';
  if (waits.some((w) => w.why === 'concurrency')) return 'concurrency';
  // Waiters told of a closing that is over go on as the gate lets them.
  return 'reopened';
}

/** The wall time the closing the items at `key` wait out ends: 0 when none is known. */
function closedUntil(book: GateWaitBook, key: string, waits: readonly GateWait[]): number {
  return Math.max(book.closing(key)?.untilMs ?? 0, ...waits.map((w) => w.untilMs ?? 0));
}

/** The groups of waits by key, in the order the first wait at each began. */
function byKey(book: GateWaitBook): Map<string, GateWait[]> {
  const keys = new Map<string, GateWait[]>();
  for (const wait of book.waits()) {
    const list = keys.get(wait.key) ?? [];
    list.push(wait);
    keys.set(wait.key, list);
  }
  return keys;
}

/** The wall times the closings that items wait out end, those still ahead of `wallNow`: for countdowns. */
export function gateEndings(book: GateWaitBook, wallNow: number): number[] {
  const ends: number[] = [];
  for (const [key, waits] of byKey(book)) {
    const until = closedUntil(book, key, waits);
    if (until > wallNow) ends.push(until);
  }
  return ends;
}

/** The key most items wait at (on a tie, the one waited at first), with its waits. */
function topKey(keys: ReadonlyMap<string, GateWait[]>): [string, GateWait[]] | undefined {
  let top: [string, GateWait[]] | undefined;
  for (const entry of keys) if (top === undefined || entry[1].length > top[1].length) top = entry;
  return top;
}

/**
 * The key most items wait at and why, without counts or countdown (`provider: Retry-After`): a plain line
 * is due when it changes. Undefined when no item waits at a gate.
 */
export function gateHeadline(book: GateWaitBook, wallNow: number): string | undefined {
  const top = topKey(byKey(book));
  return top === undefined ? undefined : `${top[0]}: ${keyWhy(book, top[0], top[1], wallNow)}`;
}

/**
 * The phrase for the gate waits of `book` at wall time `wallNow`, or undefined when no item waits at a gate.
 * @example
 * gatePhrase(book, clock.wallNow()); // '12 items waiting at gate openai (Retry-After, 14 s left)'
 */
export function gatePhrase(book: GateWaitBook, wallNow: number): string | undefined {
  const keys = byKey(book);
  const top = topKey(keys);
  if (top === undefined) return undefined;
  const [key, waits] = top;
  const count = waits.length === 1 ? '1 item' : `${waits.length} items`;
  const until = closedUntil(book, key, waits);
  const left = until > wallNow ? `, ${countdown(until - wallNow)} left` : '';
  const phrase = `${count} waiting at gate ${key} (${keyWhy(book, key, waits, wallNow)}${left})`;
  const others = keys.size - 1;
  if (others === 0) return phrase;
  const rest = book.waits().length - waits.length;
  return `${phrase}, ${rest} more at ${others === 1 ? '1 other gate' : `${others} other gates`}`;
}
