/**
 * What `runs show` says of a run's gates, from its recorded events: the items waiting at a gate (their last
 * event is a `gate.wait`) and how each gate key stood when the events stop.
 */
import { type RecordedGateKey, RecordedGates } from '../../gates/recorded.ts';
import type { GateWhy } from '../../gates/types.ts';

/** An item waiting at a gate. */
export interface GateWaitView {
  readonly gate: string;
  readonly key: string;
  readonly why: GateWhy;
  /** When the wait ends at the latest known (ISO 8601); absent for a concurrency wait. */
  readonly until?: string;
}

/** A gate key a run's events name, as it stands. */
export interface GateKeyStateView {
  readonly gate: string;
  readonly key: string;
  readonly state: 'closed' | 'open';
  /** While closed: when it reopens (ISO 8601). */
  readonly until?: string;
  /** Why its latest closing came (`HTTP 429`), and the Retry-After (ms) the answer carried. */
  readonly reason?: string;
  readonly hintMs?: number;
  /** How long it was closed, ms, as its latest `gate.opened` said. */
  readonly closedMs?: number;
  /** How many of the run's items wait at the key: their last event is a wait there. */
  readonly waiting: number;
  /** Those items' ids, in the order they last started waiting (items still at their first placement too). */
  readonly items: readonly string[];
}

const WHY: ReadonlySet<string> = new Set<GateWhy>(['closed', 'rate', 'concurrency']);

const iso = (ms: number): string => new Date(ms).toISOString();

/** Folds a run's events into its gate keys and the items whose last event is a wait at a gate. */
export class GateDigest {
  private readonly recorded = new RecordedGates();
  private readonly waits = new Map<string, GateWaitView>();

  /** Takes one event (as the store keeps it) into account. */
  add(type: string, body: Readonly<Record<string, unknown>>): void {
    this.recorded.add(type, body);
    const item = body.item;
    if (typeof item !== 'string') return;
    const { gate, key, why, untilMs } = body;
    if (type === 'gate.wait' && typeof gate === 'string' && typeof key === 'string' && WHY.has(String(why))) {
      this.waits.delete(item);
      this.waits.set(item, {
        gate,
        key,
        why: why as GateWhy,
        ...(typeof untilMs === 'number' && Number.isFinite(untilMs) ? { until: iso(untilMs) } : {}),
      });
    } else this.waits.delete(item);
  }

  /** The gate the item waits at, when its last event is a `gate.wait`. */
  waitOf(item: string): GateWaitView | undefined {
    return this.waits.get(item);
  }

  /**
   * Every gate key the events name, as it stands at wall time `now`, counting the waits of `waiting` (the
   * items that have not ended).
   */
  keys(now: number, waiting: (item: string) => boolean): GateKeyStateView[] {
    const items = new Map<string, string[]>();
    for (const [item, wait] of this.waits) {
      if (!waiting(item)) continue;
      const list = items.get(wait.key);
      if (list === undefined) items.set(wait.key, [item]);
      else list.push(item);
    }
    return this.recorded.list().map((key) => keyView(key, now, items.get(key.key) ?? []));
  }
}

function keyView(key: RecordedGateKey, now: number, items: readonly string[]): GateKeyStateView {
  const closed = key.closedUntil > now;
  return {
    gate: key.gate,
    key: key.key,
    state: closed ? 'closed' : 'open',
    ...(closed ? { until: iso(key.closedUntil) } : {}),
    ...(key.reason === undefined ? {} : { reason: key.reason }),
    ...(key.hintMs === undefined ? {} : { hintMs: key.hintMs }),
    ...(key.closedMs === undefined ? {} : { closedMs: key.closedMs }),
    waiting: items.length,
    items,
  };
}
