/**
 * What the progress of a run says, counted from its events: the input items ended, the retries, each
 * item waiting out a back-off or a Retry-After (which placement it waits for, why, and until when on the
 * run's clock), the items waiting at each gate key, and those waiting for an answer at an await. Pure: the caller gives the clock's readings.
 */
import { clip } from '../document/limits.ts';
import { GateWaitBook } from '../gates/gate-waits.ts';
import type { RunEvent } from '../runtime/events.ts';
import { countdown } from './countdown.ts';
import { AwaitWaits } from './progress-awaits.ts';
import { gateEndings, gateHeadline, gatePhrase } from './progress-gates.ts';

export { countdown } from './countdown.ts';

/** An item waiting before its next placement. */
export interface Wait {
  readonly item: string;
  /** The placement the item goes to once the wait is over. */
  readonly placement: string;
  readonly source: 'backoff' | 'retry-after';
  /** What made the item go round again (the error or the node's reason), when the event says. */
  readonly reason: string | undefined;
  readonly delayMs: number;
  /** When the wait ends, on the clock the progress reads. */
  readonly until: number;
}

/** The progress of one run: counters and the waits in progress. */
export interface ProgressState {
  /** Counts `event`, seen at `now` on the run's clock and `wallNow` on its wall clock. */
  readonly onEvent: (event: RunEvent, now: number, wallNow: number) => void;
  /**
   * One line: the run, its items ended and retries, the gate key most items wait at (how many, why, the
   * time left of its closing), and the retry wait that ends first with its time left.
   */
  readonly line: (now: number) => string;
  readonly waits: () => readonly Wait[];
  /**
   * What a plain line is due for when it changes: the gate key most items wait at and why, without counts
   * (see {@link gateHeadline}), and the number of items waiting for an answer.
   */
  readonly headline: () => string | undefined;
  /** When each wait that counts down ends, on the run's clock: retry waits, and closings items wait out. */
  readonly endings: (now: number) => readonly number[];
  /** The input items ended so far. */
  readonly ended: () => number;
}

// Scatter children are `<parent>.<index>` and embedded runs `<parent>/<key>`: only input items count.
function isInputItem(id: string): boolean {
  return !/[./]/u.test(id);
}

/** Why an item waits, as the progress line says it. */
export function why(wait: Wait): string {
  // A node's reason may be long or span lines: the line shows its start, on one line.
  const reason = wait.reason === undefined ? '' : clip(wait.reason.replace(/\s+/gu, ' ').trim());
  if (wait.source === 'retry-after') return reason === '' ? 'Retry-After' : `Retry-After from ${reason}`;
  return reason === '' ? 'back-off' : `back-off after ${reason}`;
}

/** The events after which an item no longer waits: it started a placement, ended, failed or was cancelled. */
const MOVED = new Set<RunEvent['type']>(['placement.start', 'item.end', 'item.failed', 'item.cancelled']);

/**
 * Progress counted from the events of a run of `total` input items (`alreadyEnded` of them ended before, on
 * a resume, and `waiting` the waits its items were in, which a resume goes on with without an event),
 * named `name` (`run <id>`).
 * @example
 * const state = progressState('run 3f2c…', 2);
 * state.onEvent(event, clock.now(), clock.wallNow());
 * state.line(clock.now()); // 'run 3f2c…: 0/2 items ended, 1 retry; item 1 waits 29 s before compose (Retry-After from 429 Too Many Requests)'
 */
export function progressState(
  name: string,
  total: number,
  alreadyEnded = 0,
  waiting: readonly Wait[] = [],
): ProgressState {
  let ended = alreadyEnded;
  let retries = 0;
  const waits = new Map<string, Wait>(waiting.map((w) => [w.item, w]));
  const gates = new GateWaitBook();
  const awaits = new AwaitWaits();
  // Gate closings end at a wall time: this turns one into the run's clock time, as of the latest event.
  let wallOffset = 0;
  let lastWall = 0;
  return {
    onEvent: (event, now, wallNow) => {
      wallOffset = wallNow - now;
      lastWall = wallNow;
      gates.see(event);
      awaits.see(event);
      if (event.type === 'run.end') {
        waits.clear();
        gates.clear();
      }
      if (!('item' in event)) return;
      if (event.type === 'retry.scheduled') {
        retries += 1;
        if (event.delayMs > 0) {
          waits.set(event.item, {
            item: event.item,
            placement: event.to,
            source: event.delaySource,
            reason: event.reason,
            delayMs: event.delayMs,
            until: now + event.delayMs,
          });
        }
        return;
      }
      if (MOVED.has(event.type)) waits.delete(event.item);
      if ((event.type === 'item.end' || event.type === 'item.failed') && isInputItem(event.item)) ended += 1;
    },
    line: (now) => {
      const retried = retries === 0 ? '' : retries === 1 ? ', 1 retry' : `, ${retries} retries`;
      const counted = `${name}: ${ended}/${total} items ended${retried}`;
      const gated = gatePhrase(gates, now + wallOffset);
      const answering = awaits.phrase(now + wallOffset);
      const head = [counted, gated, answering].filter((p) => p !== undefined).join('; ');
      const first = [...waits.values()].sort((a, b) => a.until - b.until)[0];
      if (first === undefined) return head;
      const more = waits.size > 1 ? `, ${waits.size - 1} more waiting` : '';
      return `${head}; item ${first.item} waits ${countdown(first.until - now)} before ${first.placement} (${why(first)})${more}`;
    },
    waits: () => [...waits.values()],
    headline: () => {
      const gate = gateHeadline(gates, lastWall);
      return awaits.size === 0 ? gate : `${gate ?? ''}; ${awaits.size} waiting for an answer`;
    },
    endings: (now) => [
      ...[...waits.values()].map((w) => w.until),
      ...gateEndings(gates, now + wallOffset).map((wall) => wall - wallOffset),
    ],
    ended: () => ended,
  };
}
