/**
 * The retry waits of a trace as they stand when it ends: a wait is over once its item does something
 * again (its retry starts, it ends), cut short when the run ends or the item is cancelled during it, and
 * still under way when the trace ends first (a run in progress). Only waits that are over count as waited.
 */
import type { RetryScheduledEvent, RunEvent } from '../runtime/events.ts';

/** The waits of one retry route, in the order they were scheduled. */
export interface RouteWaits {
  /** How long each wait that is over lasted: its delay, or less for a wait cut short. */
  readonly waitsMs: readonly number[];
  readonly totalMs: number;
  /** The delays of the waits still under way when the trace ends. */
  readonly pendingMs: readonly number[];
}

interface Slot {
  readonly delayMs: number;
  readonly scheduledAt: number;
  /** How long it lasted, once over. */
  lastedMs?: number;
}

/** Waits of every retry route of a trace, by the caller's route key, as the trace is read in order. */
export class WaitBook {
  private readonly byRoute = new Map<string, Slot[]>();
  /** The wait each item is in, by item path. */
  private readonly open = new Map<string, Slot>();

  /** A wait scheduled on the route `key`. */
  scheduled(key: string, event: RetryScheduledEvent): void {
    this.over(event.item);
    const slot: Slot = { delayMs: event.delayMs, scheduledAt: event.time };
    const slots = this.byRoute.get(key) ?? [];
    slots.push(slot);
    this.byRoute.set(key, slots);
    this.open.set(event.item, slot);
  }

  /** Reads one more event: the item's next step ends its wait; a cancellation or the run's end cuts it. */
  see(event: RunEvent): void {
    if (event.type === 'run.end') {
      for (const slot of this.open.values()) cut(slot, event.time);
      this.open.clear();
      return;
    }
    // The route event of a retry comes next to its `retry.scheduled`, before or after it: not a step.
    if (!('item' in event) || event.type === 'route' || event.type === 'retry.scheduled') return;
    if (event.type === 'item.cancelled') {
      const slot = this.open.get(event.item);
      if (slot !== undefined) cut(slot, event.time);
      this.open.delete(event.item);
      return;
    }
    this.over(event.item);
  }

  /** The waits of the route `key`. */
  waitsOf(key: string): RouteWaits {
    const waitsMs: number[] = [];
    const pendingMs: number[] = [];
    for (const slot of this.byRoute.get(key) ?? []) {
      if (slot.lastedMs === undefined) pendingMs.push(slot.delayMs);
      else waitsMs.push(slot.lastedMs);
    }
    return { waitsMs, totalMs: waitsMs.reduce((sum, ms) => sum + ms, 0), pendingMs };
  }

  private over(item: string): void {
    const slot = this.open.get(item);
    if (slot === undefined) return;
    slot.lastedMs = slot.delayMs;
    this.open.delete(item);
  }
}

/** Ends `slot` at `time` on the run's clock: no longer than its delay, never less than nothing. */
function cut(slot: Slot, time: number): void {
  slot.lastedMs = Math.min(slot.delayMs, Math.max(0, time - slot.scheduledAt));
}
