/**
 * What the progress of a run says, counted from its events: the input items ended, the retries, and each
 * item waiting out a back-off or a Retry-After (which placement it waits for, why, and until when on the
 * run's clock). Pure: the caller gives the clock's reading.
 */
import { clip } from '../document/limits.ts';
import type { RunEvent } from '../runtime/events.ts';

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
  readonly onEvent: (event: RunEvent, now: number) => void;
  /** One line: the run, its items ended and retries, and the wait that ends first with its time left. */
  readonly line: (now: number) => string;
  readonly waits: () => readonly Wait[];
  /** The input items ended so far. */
  readonly ended: () => number;
}

// Scatter children are `<parent>.<index>` and embedded runs `<parent>/<key>`: only input items count.
function isInputItem(id: string): boolean {
  return !/[./]/u.test(id);
}

/** Time left for people, in whole seconds rounded up: `12 s`, `2 min 5 s`, `0 s` once over. */
export function countdown(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const rest = seconds % 60;
  return `${Math.floor(seconds / 60)} min${rest === 0 ? '' : ` ${rest} s`}`;
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
 * state.onEvent(event, clock.now());
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
  return {
    onEvent: (event, now) => {
      if (event.type === 'run.end') waits.clear();
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
      const first = [...waits.values()].sort((a, b) => a.until - b.until)[0];
      if (first === undefined) return counted;
      const more = waits.size > 1 ? `, ${waits.size - 1} more waiting` : '';
      return `${counted}; item ${first.item} waits ${countdown(first.until - now)} before ${first.placement} (${why(first)})${more}`;
    },
    waits: () => [...waits.values()],
    ended: () => ended,
  };
}
