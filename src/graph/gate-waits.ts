/**
 * How long an execution can wait at its gate, for the worst-case time. A gate wait counts against the
 * placement's deadline (`runtime/gated-task.ts`: the node gets what is left of it, an item still waiting
 * when it passes routes as a timeout), so an execution through a gate takes at most its deadline, however
 * long the queue: the waits are inside the executions' time, not added to it. What a document and a
 * policy can say of one wait is for an item alone at its gates: the gate's longest closing, then one
 * emission interval of its pace. Behind other items (every run of a dispatcher, every worker shares a
 * gate) a wait is longer, by as many intervals as there are starts ahead, and only the deadline ends it.
 */
import type { GatePolicy } from '../gates/types.ts';
import type { TimingPolicy } from '../policy/types.ts';
import type { Count } from './bounds.ts';

/**
 * The node of an execution let through its gate at the last moment of the deadline is still given 1 ms
 * (`gated-task.ts`), so a gated execution takes at most its deadline and this.
 */
export const GATE_FLOOR_MS = 1;

/** The executions of one placement through one gate, and the longest an item alone waits per visit. */
export interface GateWait {
  readonly gate: string;
  readonly dag: string;
  readonly placement: string;
  /** Executions of the placement per item (null: no bound). */
  readonly visits: Count;
  /** The placement's deadline, which also ends a wait at the gate; undefined: none. */
  readonly deadlineMs: number | undefined;
  /**
   * The longest the gate's key stays closed on one answer to an execution of the item: the gate's
   * `maxClosedMs`, else the Retry-After cap (or the back-off's base delay, when hints are not honoured) of
   * the placements under it; 0 when the gate does not pause on Retry-After.
   */
  readonly closedMs: number;
  /** The time between two starts at the gate's pace (0 without a rate). */
  readonly intervalMs: number;
  /**
   * `closedMs + intervalMs`: the longest one visit of an item alone waits at the gate (at most the largest
   * double, for policies that write numbers near it).
   */
  readonly aloneMs: number;
}

/**
 * The longest one answer to an execution of a placement with `timing` keeps `gate` closed: the closing
 * is the hint (when honoured) or the back-off's base delay, capped by `maxClosedMs` or the Retry-After cap.
 */
export function closingCeiling(gate: GatePolicy, timing: TimingPolicy): number {
  if (!gate.pauseOnRetryAfter) return 0;
  const cap = gate.maxClosedMs ?? timing.retryAfter.capMs;
  const unhinted = Math.min(timing.backoff.baseMs, timing.backoff.capMs);
  return Math.max(0, timing.retryAfter.honour ? cap : Math.min(cap, unhinted));
}

/** One gate's emission interval, 0 without a rate. */
export function intervalOf(gate: GatePolicy): number {
  return gate.rate === undefined ? 0 : gate.rate.periodMs / gate.rate.limit;
}

/** A gated placement met while summing a worst case: its gate, and the timing its answers close it with. */
export interface GatedPlacement {
  readonly gate: GatePolicy;
  readonly dag: string;
  readonly placement: string;
  readonly visits: Count;
  readonly timing: TimingPolicy;
}

/**
 * The waits of `gated` (every gated placement one item's run can reach): a closing may come from the
 * answer to any placement under the same gate, so each gate's closing is the longest of them all.
 */
export function gateWaits(gated: readonly GatedPlacement[]): GateWait[] {
  const closed = new Map<GatePolicy, number>();
  for (const g of gated) {
    closed.set(g.gate, Math.max(closed.get(g.gate) ?? 0, closingCeiling(g.gate, g.timing)));
  }
  return gated.map((g) => {
    const closedMs = closed.get(g.gate) ?? 0;
    const intervalMs = intervalOf(g.gate);
    return {
      gate: g.gate.name,
      dag: g.dag,
      placement: g.placement,
      visits: g.visits,
      deadlineMs: g.timing.deadlineMs,
      closedMs,
      intervalMs,
      aloneMs: Math.min(closedMs + intervalMs, Number.MAX_VALUE),
    };
  });
}
