/**
 * The gates of a run as its page shows them, from the run's events: each gate key its items waited at or
 * saw close, how many of its items wait there now, the closing in force, and the key's timeline of
 * closings and reopenings; and the wait at a gate each item is in.
 */
import { type GateWait, GateWaitBook } from '../gates/gate-waits.ts';
import type { RunEvent } from '../runtime/events.ts';
import { gateTimelines, type TimelineEntry } from './timeline.ts';

/** One gate key as the run page shows it. */
export interface GateShown {
  readonly key: string;
  /** The gate's name in the policy (the key is `<name>` or `<name>:<finer key>`). */
  readonly gate: string;
  /** The run's items waiting at the key now (0 once the run stopped). */
  readonly waiting: number;
  /** The closing in force, while the run goes on: until when (ISO 8601), why, its Retry-After (ms). */
  readonly closed?: { readonly until: string; readonly reason: string; readonly hintMs?: number };
  /** Times the key closed during the run. */
  readonly closings: number;
  readonly timeline: readonly TimelineEntry[];
}

/** What {@link gatesShown} reads from a run's events. */
export interface GatesOfRun {
  readonly keys: readonly GateShown[];
  /** Item path → the wait at a gate the events leave it in. */
  readonly waits: ReadonlyMap<string, GateWait>;
  /** Item path → the visit of the placement its wait at a gate is part of (from its `placement.start`). */
  readonly visits: ReadonlyMap<string, number>;
}

/**
 * The gates of a run from its `events`; `live` when the run goes on (its waits and closings are in force),
 * `now` the wall time a closing in force must end after.
 * @example
 * const { keys, waits } = gatesShown(events, true, Date.now());
 */
export function gatesShown(events: readonly RunEvent[], live: boolean, now: number): GatesOfRun {
  const book = new GateWaitBook();
  // Keys in the order the run met them, with the gate each belongs to.
  const met = new Map<string, string>();
  const visits = new Map<string, number>();
  for (const event of events) {
    book.see(event);
    if (event.type === 'placement.start') visits.set(event.item, event.visit);
    if (event.type === 'gate.wait' || event.type === 'gate.closed' || event.type === 'gate.opened') {
      if (!met.has(event.key)) met.set(event.key, event.gate);
    }
  }
  const timelines = gateTimelines(events);
  const waits = new Map(book.waits().map((w) => [w.item, w]));
  const keys = [...met].map(([key, gate]): GateShown => {
    const timeline = timelines.get(key) ?? [];
    const closing = live ? book.closing(key) : undefined;
    return {
      key,
      gate,
      waiting: live ? (book.keys().get(key)?.waiting ?? 0) : 0,
      ...(closing === undefined || closing.untilMs <= now
        ? {}
        : {
            closed: {
              until: new Date(closing.untilMs).toISOString(),
              reason: closing.reason,
              ...(closing.hintMs === undefined ? {} : { hintMs: closing.hintMs }),
            },
          }),
      closings: timeline.filter((e) => e.kind === 'closed').length,
      timeline,
    };
  });
  return { keys, waits, visits };
}
