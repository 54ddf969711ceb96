/**
 * What the run page adds to `runs show`'s gates (`cli/runs/gate-views.ts`), from the run's events: each
 * gate key's timeline of closings and reopenings, and where the items waiting at a gate before their first
 * checkpoint stand (a run writes an item's first checkpoint at its first transition, so items queued at a
 * gate from the start are known only by their events).
 */
import { type GateWait, GateWaitBook } from '../gates/gate-waits.ts';
import type { RunEvent } from '../runtime/events.ts';
import { gateTimelines, type TimelineEntry } from './timeline.ts';

/** An item waiting at a gate, with the visit of the placement whose execution waits. */
export interface GatePosition extends GateWait {
  readonly visit: number;
}

/** What {@link gatesOfRun} reads from a run's events. */
export interface GatesOfRun {
  /** Gate key → its closings and reopenings. */
  readonly timelines: ReadonlyMap<string, readonly TimelineEntry[]>;
  /** Item path → where it waits at a gate, for the items the events leave waiting at one. */
  readonly positions: ReadonlyMap<string, GatePosition>;
}

/**
 * The gate timelines of a run and the positions of its items waiting at gates, from its `events`.
 * @example
 * const { timelines, positions } = gatesOfRun(events);
 */
export function gatesOfRun(events: readonly RunEvent[]): GatesOfRun {
  const book = new GateWaitBook();
  const visits = new Map<string, number>();
  for (const event of events) {
    book.see(event);
    if (event.type === 'placement.start') visits.set(event.item, event.visit);
  }
  const positions = new Map<string, GatePosition>();
  for (const wait of book.waits()) {
    positions.set(wait.item, { ...wait, visit: visits.get(wait.item) ?? 1 });
  }
  return { timelines: gateTimelines(events), positions };
}
