/**
 * The waits for answers at await placements of a trace, per placement: how long each parked item waited
 * (wall time, as its `await.answered` or `await.expired` event says), the outputs its answers took, the
 * deadlines that routed items, and the items still parked where the trace ends (a run waiting for answers).
 * A resume parks an item again under the same token: it is one wait.
 */
import type { RunEvent } from '../runtime/events.ts';

/** The waits for answers at one await placement. */
export interface AwaitWaitTrace {
  readonly placement: string;
  /** How long each wait that is over lasted, wall time. */
  readonly waitsMs: readonly number[];
  /** The sum of {@link AwaitWaitTrace.waitsMs}. */
  readonly totalMs: number;
  /** Output → how many answers took it. */
  readonly answered: ReadonlyMap<string, number>;
  /** Waits ended by the deadline. */
  readonly expired: number;
  /** Items still parked where the trace ends. */
  readonly pending: number;
}

interface Tally {
  readonly waitsMs: number[];
  readonly answered: Map<string, number>;
  expired: number;
}

/** Waits for answers by document and placement, as a trace is read in order. */
export class AwaitWaitTally {
  private readonly byPlacement = new Map<string, Map<string, Tally>>();
  /** Token → where its item is parked, while it is. */
  private readonly open = new Map<string, { readonly dag: string; readonly placement: string }>();

  /** Reads one more event. */
  see(event: RunEvent): void {
    if (event.type === 'await.parked') {
      this.of(event.dag, event.placement);
      this.open.set(event.token, { dag: event.dag, placement: event.placement });
    } else if (event.type === 'await.answered') {
      const tally = this.of(event.dag, event.placement);
      tally.waitsMs.push(Math.max(0, event.waitedMs));
      tally.answered.set(event.output, (tally.answered.get(event.output) ?? 0) + 1);
      this.open.delete(event.token);
    } else if (event.type === 'await.expired') {
      const tally = this.of(event.dag, event.placement);
      tally.waitsMs.push(Math.max(0, event.waitedMs));
      tally.expired += 1;
      this.open.delete(event.token);
    }
  }

  /** The waits for answers at the awaits of document `dag`, by placement key. */
  waitsOf(dag: string): Map<string, AwaitWaitTrace> {
    const pending = new Map<string, number>();
    for (const at of this.open.values()) {
      if (at.dag === dag) pending.set(at.placement, (pending.get(at.placement) ?? 0) + 1);
    }
    const traces = new Map<string, AwaitWaitTrace>();
    for (const [placement, tally] of this.byPlacement.get(dag) ?? []) {
      traces.set(placement, {
        placement,
        waitsMs: tally.waitsMs,
        totalMs: tally.waitsMs.reduce((sum, ms) => sum + ms, 0),
        answered: tally.answered,
        expired: tally.expired,
        pending: pending.get(placement) ?? 0,
      });
    }
    return traces;
  }

  private of(dag: string, placement: string): Tally {
    let placements = this.byPlacement.get(dag);
    if (placements === undefined) {
      placements = new Map();
      this.byPlacement.set(dag, placements);
    }
    let tally = placements.get(placement);
    if (tally === undefined) {
      tally = { waitsMs: [], answered: new Map(), expired: 0 };
      placements.set(placement, tally);
    }
    return tally;
  }
}

/**
 * The line an await's node gets for its waits, as a gated node says its gate waits:
 * `waited 59 min · approved ×1 · expired ×1 · 2 waiting`. Undefined when no item parked there.
 */
export function awaitLine(waits: AwaitWaitTrace, formatMs: (ms: number) => string): string | undefined {
  const notes: string[] = [];
  if (waits.totalMs > 0) notes.push(`waited ${formatMs(waits.totalMs)}`);
  for (const [output, count] of [...waits.answered].sort(([a], [b]) => (a < b ? -1 : 1))) {
    notes.push(`${output} ×${count}`);
  }
  if (waits.expired > 0) notes.push(`expired ×${waits.expired}`);
  if (waits.pending > 0) notes.push(`${waits.pending} waiting`);
  return notes.length === 0 ? undefined : notes.join(' · ');
}
