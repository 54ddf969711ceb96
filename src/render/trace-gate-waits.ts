/**
 * The waits at gates of a trace, per placement, as they stand when it ends: a wait is over once its item
 * goes through the gate (or leaves it otherwise: a deadline, a cancellation), cut short when the run ends,
 * and still under way when the trace ends first (a run in progress).
 */
import { GateWaitBook } from '../gates/gate-waits.ts';
import type { RunEvent } from '../runtime/events.ts';

/** The waits at gates before the executions of one placement. */
export interface GateWaitTrace {
  readonly placement: string;
  /** The gate keys waited at, in the order first waited at. */
  readonly keys: readonly string[];
  /** How long each wait that is over lasted, on the run's clock. */
  readonly waitsMs: readonly number[];
  /** The sum of {@link GateWaitTrace.waitsMs}. */
  readonly totalMs: number;
  /** Items still waiting where the trace ends. */
  readonly pending: number;
}

interface Tally {
  readonly keys: string[];
  readonly waitsMs: number[];
}

/** Waits at gates by document and placement, as a trace is read in order. */
export class GateWaitTally {
  private readonly book = new GateWaitBook();
  private readonly byPlacement = new Map<string, Map<string, Tally>>();

  /** Reads one more event. */
  see(event: RunEvent): void {
    if (event.type === 'run.end') {
      for (const wait of this.book.waits())
        this.over(wait.dag, wait.placement, wait.key, event.time - wait.since);
      this.book.clear();
      return;
    }
    if (event.type === 'gate.wait' && this.book.waitOf(event.item) === undefined) {
      this.of(event.dag, event.placement, event.key);
    }
    const ended = this.book.see(event);
    if (ended !== undefined) this.over(ended.dag, ended.placement, ended.key, ended.endedAt - ended.since);
  }

  /** The waits at gates of the placements of document `dag`, by placement key. */
  waitsOf(dag: string): Map<string, GateWaitTrace> {
    const open = new Map<string, number>();
    for (const wait of this.book.waits()) {
      if (wait.dag !== dag) continue;
      open.set(wait.placement, (open.get(wait.placement) ?? 0) + 1);
    }
    const traces = new Map<string, GateWaitTrace>();
    for (const [placement, tally] of this.byPlacement.get(dag) ?? []) {
      const totalMs = tally.waitsMs.reduce((sum, ms) => sum + ms, 0);
      traces.set(placement, {
        placement,
        keys: tally.keys,
        waitsMs: tally.waitsMs,
        totalMs,
        pending: open.get(placement) ?? 0,
      });
    }
    return traces;
  }

  private of(dag: string, placement: string, key: string): Tally {
    let placements = this.byPlacement.get(dag);
    if (placements === undefined) {
      placements = new Map();
      this.byPlacement.set(dag, placements);
    }
    let tally = placements.get(placement);
    if (tally === undefined) {
      tally = { keys: [], waitsMs: [] };
      placements.set(placement, tally);
    }
    if (!tally.keys.includes(key)) tally.keys.push(key);
    return tally;
  }

  private over(dag: string, placement: string, key: string, ms: number): void {
    this.of(dag, placement, key).waitsMs.push(Math.max(0, ms));
  }
}
