/**
 * Each item's timeline, from a run's events: the placements it ran, the routes it took, its retries with
 * their reasons, its back-off and Retry-After waits, its waits at gates and for answers at awaits, deadlines that fired, salvage, and
 * how it ended. And each gate key's timeline: its closings (when, until when, why, the Retry-After it
 * honours) and reopenings.
 */
import type { GateClosedEvent, GateWaitEvent, RunEvent } from '../runtime/events.ts';

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
  | 'warning'
  | 'gate'
  | 'await'
  | 'closed'
  | 'opened';

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
  /** For a gate's entries: the gate key, and for a closing the wall time (ms since the epoch) it ends. */
  readonly gate?: string;
  readonly untilMs?: number;
  /** For a closing: the Retry-After it honours, ms; absent when it lasts the back-off. */
  readonly hintMs?: number;
}

/** Milliseconds as people read them: `240 ms`, `2.0 s`. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function because(reason: string | undefined): string {
  return reason === undefined || reason === '' ? '' : `: ${reason}`;
}

/** A wall time (ms since the epoch) as the page and `runs events` say times: ISO 8601, UTC. */
function wall(ms: number): string {
  return new Date(ms).toISOString();
}

/** Why a closing lasts as long as it does: the answer, and its Retry-After or the back-off. */
function closingWhy(event: GateClosedEvent): string {
  const lasts = event.hintMs === undefined ? 'back-off' : `Retry-After ${formatMs(event.hintMs)}`;
  return `${event.reason}, ${lasts}`;
}

/** What the gate key's timeline says of a closing or a reopening; undefined for other events. */
function gateEntryOf(event: RunEvent, atMs: number): TimelineEntry | undefined {
  const base = { seq: event.seq, atMs };
  if (event.type === 'gate.closed') {
    const by =
      event.item === undefined ? 'an execution of another run' : `item ${event.item} at ${event.placement}`;
    return {
      ...base,
      kind: 'closed',
      gate: event.key,
      untilMs: event.untilMs,
      ...(event.hintMs === undefined ? {} : { hintMs: event.hintMs }),
      text: `closed until ${wall(event.untilMs)} (${closingWhy(event)}) by ${by}`,
    };
  }
  if (event.type === 'gate.opened') {
    return {
      ...base,
      kind: 'opened',
      gate: event.key,
      text: `reopened after ${formatMs(event.closedMs)} closed`,
    };
  }
  return undefined;
}

/** What an item's wait at a gate says: the key and why, with the closing's end when it waits one out. */
function gateWaitText(event: GateWaitEvent): string {
  if (event.why === 'closed') {
    const until = event.untilMs === undefined ? '' : ` until ${wall(event.untilMs)}`;
    return `waits at gate ${event.key}: closed${until}`;
  }
  return `waits at gate ${event.key}: ${event.why === 'rate' ? 'its rate is used up' : 'its concurrency is full'}`;
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
    case 'gate.wait':
      return {
        ...base,
        kind: 'gate',
        placement: event.placement,
        gate: event.key,
        ...(event.untilMs === undefined ? {} : { untilMs: event.untilMs }),
        text: gateWaitText(event),
      };
    case 'gate.passed':
      return {
        ...base,
        kind: 'gate',
        placement: event.placement,
        gate: event.key,
        text: `through gate ${event.key} after ${formatMs(event.waitedMs)}`,
      };
    case 'gate.closed':
      // The item whose call got the rate-limit answer: it closed the gate for everyone.
      return {
        ...base,
        kind: 'closed',
        ...(event.placement === undefined ? {} : { placement: event.placement }),
        gate: event.key,
        untilMs: event.untilMs,
        ...(event.hintMs === undefined ? {} : { hintMs: event.hintMs }),
        text: `closed gate ${event.key} until ${wall(event.untilMs)} (${closingWhy(event)})`,
      };
    case 'await.parked':
      return {
        ...base,
        kind: 'await',
        placement: event.placement,
        untilMs: event.deadlineAt,
        text: `${event.resumed === true ? 'still waits' : 'waits'} for an answer at ${event.placement} (${event.answers.join(' | ')}, token ${event.token}) until ${wall(event.deadlineAt)}`,
      };
    case 'await.answered':
      return {
        ...base,
        kind: 'await',
        placement: event.placement,
        text: `answered ${event.output} at ${event.placement} after ${formatMs(event.waitedMs)}${event.early === true ? ' (answer given before it parked)' : ''}`,
      };
    case 'await.expired':
      return {
        ...base,
        kind: 'deadline',
        placement: event.placement,
        text: `no answer at ${event.placement} within ${formatMs(event.waitedMs)}: its deadline routes it`,
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

/**
 * The timeline of every gate key the run's events mention a closing or reopening of, by key, in event
 * order.
 * @example
 * gateTimelines(events).get('openai')?.map((e) => e.text); // ['closed until 2026-… (HTTP 429, Retry-After 20.0 s) by item 3 at call', …]
 */
export function gateTimelines(events: readonly RunEvent[]): Map<string, TimelineEntry[]> {
  const start = events[0]?.time ?? 0;
  const byKey = new Map<string, TimelineEntry[]>();
  for (const event of events) {
    const entry = gateEntryOf(event, Math.max(0, event.time - start));
    if (entry?.gate === undefined) continue;
    const list = byKey.get(entry.gate) ?? [];
    list.push(entry);
    byKey.set(entry.gate, list);
  }
  return byKey;
}
