/**
 * Each item's timeline, from a run's events: the placements it ran, the routes it took, its retries with
 * their reasons, its back-off and Retry-After waits, deadlines that fired, salvage, and how it ended.
 */
import type { RunEvent } from '../runtime/events.ts';

/** What a timeline entry is about, for its marker on the page. */
export type EntryKind =
  | 'run'
  | 'placement'
  | 'route'
  | 'retry'
  | 'deadline'
  | 'exhausted'
  | 'salvage'
  | 'ended'
  | 'failed'
  | 'cancelled'
  | 'aborted'
  | 'warning';

/** One line of an item's timeline. */
export interface TimelineEntry {
  readonly seq: number;
  /** Milliseconds since the run started (its first event), on the run's clock. */
  readonly atMs: number;
  readonly kind: EntryKind;
  readonly placement?: string;
  readonly text: string;
  /** For a retry: how long the item waited before it, and why. */
  readonly waitMs?: number;
  readonly waitReason?: 'backoff' | 'retry-after';
}

/** Milliseconds as people read them: `240 ms`, `2.0 s`. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function because(reason: string | undefined): string {
  return reason === undefined || reason === '' ? '' : `: ${reason}`;
}

/** The entry an event adds to its item's timeline, or undefined for an event that adds none. */
function entryOf(event: RunEvent, atMs: number): TimelineEntry | undefined {
  const base = { seq: event.seq, atMs };
  switch (event.type) {
    case 'placement.start':
      return {
        ...base,
        kind: 'placement',
        placement: event.placement,
        text: `${event.placement} starts (visit ${event.visit})`,
      };
    case 'placement.end': {
      const error = event.error;
      if (error?.kind === 'timeout') {
        return {
          ...base,
          kind: 'deadline',
          placement: event.placement,
          text: `${event.placement}: deadline fired after ${formatMs(event.durationMs)} → ${event.output}${because(error.message)}`,
        };
      }
      const failed =
        error === undefined
          ? ''
          : ` after ${error.code}${error.status === undefined ? '' : ` (HTTP ${error.status})`}${because(error.message)}`;
      return {
        ...base,
        kind: 'placement',
        placement: event.placement,
        text: `${event.placement} → ${event.output} in ${formatMs(event.durationMs)}${failed}`,
      };
    }
    case 'route':
      // Retries and salvages get entries of their own, with the wait and the reason.
      if (event.kind !== 'next') return undefined;
      return {
        ...base,
        kind: 'route',
        placement: event.from,
        text: `${event.from} —${event.output}→ ${event.to}`,
      };
    case 'retry.scheduled': {
      const why = event.delaySource === 'retry-after' ? 'Retry-After' : 'back-off';
      return {
        ...base,
        kind: 'retry',
        placement: event.from,
        text: `retry ${event.to} (${event.budget} ${event.attempt}) after a ${why} wait of ${formatMs(event.delayMs)}${because(event.reason)}`,
        waitMs: event.delayMs,
        waitReason: event.delaySource,
      };
    }
    case 'budget.exhausted': {
      const why = event.why === 'deadline' ? "the wait would not fit the run's deadline" : 'spent';
      return {
        ...base,
        kind: 'exhausted',
        placement: event.from,
        text: `budget ${event.budget} exhausted (${why}) → ${event.to}${because(event.reason)}`,
      };
    }
    case 'salvage':
      return {
        ...base,
        kind: 'salvage',
        placement: event.from,
        text: `salvaged: ${event.from} → ${event.to}${because(event.reason)}`,
      };
    case 'item.end':
      return {
        ...base,
        kind: event.outcome === 'completed' ? 'ended' : 'failed',
        placement: event.terminal,
        text: `ended at ${event.terminal} (${event.outcome})`,
      };
    case 'item.failed':
      return {
        ...base,
        kind: 'failed',
        placement: event.placement,
        text: `failed at ${event.placement}: ${event.error.code}${because(event.error.message)}`,
      };
    case 'item.cancelled':
      return {
        ...base,
        kind: 'cancelled',
        placement: event.placement,
        text: `cancelled at ${event.placement} (its gather had decided)`,
      };
    case 'warning':
      return {
        ...base,
        kind: 'warning',
        placement: event.placement,
        text: `${event.code}: ${event.message}`,
      };
    default:
      return undefined;
  }
}

/**
 * The timeline of every item that has events, by item path, each in event order.
 * @example
 * const byItem = itemTimelines(events);
 * byItem.get('1')?.map((e) => e.text);
 */
export function itemTimelines(events: readonly RunEvent[]): Map<string, TimelineEntry[]> {
  const start = events[0]?.time ?? 0;
  const byItem = new Map<string, TimelineEntry[]>();
  for (const event of events) {
    if (!('item' in event)) continue;
    const entry = entryOf(event, Math.max(0, event.time - start));
    if (entry === undefined) continue;
    const list = byItem.get(event.item) ?? [];
    list.push(entry);
    byItem.set(event.item, list);
  }
  return byItem;
}
