/**
 * The gate waits of a run, read from its events in order: which items wait at which gate key, why, and
 * until when; and each key's closing in force. A wait starts at the item's first `gate.wait` and ends at its
 * `gate.passed`, or at any other event of the item (its placement ended at the gate: a deadline, or an
 * executor whose gates report no passing). Progress, the viewer and rendered traces all read waits so.
 */
import type { GateClosedEvent, GateWaitEvent, RunEvent } from '../runtime/events.ts';
import type { GateWhy } from './types.ts';

/** An item waiting at a gate key. */
export interface GateWait {
  readonly item: string;
  readonly dag: string;
  readonly placement: string;
  readonly gate: string;
  readonly key: string;
  /** Why, as the item's latest `gate.wait` says. */
  readonly why: GateWhy;
  /** The wall time (ms since the epoch) a `closed` wait ends at the latest; absent for a pace or concurrency. */
  readonly untilMs?: number;
  /** The run's clock time (event `time`) the wait began. */
  readonly since: number;
}

/** A gate wait that is over: the item went through, or left the gate otherwise, at `endedAt` (run clock). */
export interface EndedGateWait extends GateWait {
  readonly endedAt: number;
  /** True when a `gate.passed` ended it; false when the item left the gate some other way. */
  readonly passed: boolean;
}

/** The waits at one gate key, counted as they start, change reason and end. */
export interface KeyWaits {
  readonly gate: string;
  readonly key: string;
  /** Items waiting at the key. */
  readonly waiting: number;
  /** Of them, those whose latest `gate.wait` says `closed`, `rate`, `concurrency`. */
  readonly closed: number;
  readonly rate: number;
  readonly concurrency: number;
  /** The `untilMs` of the latest `closed` wait told at the key (wall ms); 0 before any. */
  readonly untilMs: number;
}

type Counts = { -readonly [K in keyof KeyWaits]: KeyWaits[K] };

/** A closing in force at a key, from its latest `gate.closed`. */
export interface GateClosingSeen {
  readonly gate: string;
  readonly key: string;
  /** Wall time it ends. */
  readonly untilMs: number;
  readonly reason: string;
  /** The Retry-After it honours; absent when it lasts the back-off. */
  readonly hintMs?: number;
  /** The run's clock time it closed. */
  readonly at: number;
}

/** The waits at gates as a run's events stand, fed one event at a time. */
export class GateWaitBook {
  private readonly byItem = new Map<string, GateWait>();
  private readonly closings = new Map<string, GateClosingSeen>();
  // Kept as waits come and go, so that a line about thousands of waiters costs no pass over them.
  private readonly byKey = new Map<string, Counts>();

  /** Reads the next event; returns the wait it ended, if it ended one. */
  see(event: RunEvent): EndedGateWait | undefined {
    switch (event.type) {
      case 'gate.wait': {
        const before = this.byItem.get(event.item);
        if (before !== undefined) this.count(before, -1);
        const wait = this.begin(event);
        this.byItem.set(event.item, wait);
        this.count(wait, 1);
        return undefined;
      }
      case 'gate.closed':
        this.closings.set(event.key, closingOf(event));
        return undefined;
      case 'gate.opened':
        this.closings.delete(event.key);
        return undefined;
      default:
        break;
    }
    if (!('item' in event)) return undefined;
    const wait = this.byItem.get(event.item);
    if (wait === undefined) return undefined;
    this.byItem.delete(event.item);
    this.count(wait, -1);
    return { ...wait, endedAt: event.time, passed: event.type === 'gate.passed' };
  }

  /** The items waiting at a gate, in the order their waits began. */
  waits(): readonly GateWait[] {
    return [...this.byItem.values()];
  }

  /** The keys items wait at, in the order the first wait at each began (since it last had none). */
  keys(): ReadonlyMap<string, KeyWaits> {
    return this.byKey;
  }

  /** The wait `item` is in, if any. */
  waitOf(item: string): GateWait | undefined {
    return this.byItem.get(item);
  }

  /** The closing in force at `key`, as far as the events told: from its `gate.closed` to its `gate.opened`. */
  closing(key: string): GateClosingSeen | undefined {
    return this.closings.get(key);
  }

  /** Forgets every wait and closing: the run ended, so none of them goes on in it. */
  clear(): void {
    this.byItem.clear();
    this.closings.clear();
    this.byKey.clear();
  }

  private count(wait: GateWait, by: 1 | -1): void {
    let counts = this.byKey.get(wait.key);
    if (counts === undefined) {
      counts = { gate: wait.gate, key: wait.key, waiting: 0, closed: 0, rate: 0, concurrency: 0, untilMs: 0 };
      this.byKey.set(wait.key, counts);
    }
    counts.waiting += by;
    counts[wait.why] += by;
    if (by === 1 && wait.untilMs !== undefined) counts.untilMs = wait.untilMs;
    if (counts.waiting === 0) this.byKey.delete(wait.key);
  }

  private begin(event: GateWaitEvent): GateWait {
    const before = this.byItem.get(event.item);
    // A new reason at the same key goes on with the same wait; it began with the first.
    const since = before !== undefined && before.key === event.key ? before.since : event.time;
    return {
      item: event.item,
      dag: event.dag,
      placement: event.placement,
      gate: event.gate,
      key: event.key,
      why: event.why,
      ...(event.untilMs === undefined ? {} : { untilMs: event.untilMs }),
      since,
    };
  }
}

function closingOf(event: GateClosedEvent): GateClosingSeen {
  return {
    gate: event.gate,
    key: event.key,
    untilMs: event.untilMs,
    reason: event.reason,
    ...(event.hintMs === undefined ? {} : { hintMs: event.hintMs }),
    at: event.time,
  };
}
