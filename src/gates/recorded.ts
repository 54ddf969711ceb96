/**
 * The gate keys a run's recorded events tell of, and how each stood when the events stop: what a resumed
 * durable run restores into its dispatcher's gates, and what `runs show` prints. Events are read as the
 * store returns them (plain JSON): a field of the wrong kind is skipped, never trusted.
 */

/** A gate key as the events of one run left it. */
export interface RecordedGateKey {
  readonly gate: string;
  readonly key: string;
  /**
   * The wall time (ms) the key's latest closing ends; 0 when the key was never closed, or a `gate.opened`
   * came after its latest closing. A time already past means open too.
   */
  readonly closedUntil: number;
  /** Why the latest closing came (`HTTP 429`); absent when the key was never closed. */
  readonly reason?: string;
  /** The Retry-After (ms) the latest closing's answer carried; absent without one. */
  readonly hintMs?: number;
  /** How long the key was closed, ms, by its latest `gate.opened`. */
  readonly closedMs?: number;
}

type Body = Readonly<Record<string, unknown>>;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const finite = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/**
 * Folds a run's events, in sequence order, into the state of each gate key they name (`gate.wait`,
 * `gate.closed`, `gate.opened`).
 * @example
 * const gates = new RecordedGates();
 * for await (const e of store.streamEvents(runId)) gates.add(e.type, e.body);
 * gates.list(); // [{ gate: 'api', key: 'api', closedUntil: 1767268860437, reason: 'HTTP 429', hintMs: 60000 }]
 */
export class RecordedGates {
  private readonly keys = new Map<string, RecordedGateKey>();

  /** Takes one event into account; events of other types are ignored. */
  add(type: string, body: unknown): void {
    if (type !== 'gate.wait' && type !== 'gate.closed' && type !== 'gate.opened') return;
    if (typeof body !== 'object' || body === null) return;
    const event = body as Body;
    const gate = text(event.gate);
    const key = text(event.key);
    if (gate === undefined || key === undefined) return;
    const known = this.keys.get(key) ?? { gate, key, closedUntil: 0 };
    if (type === 'gate.closed') {
      const until = finite(event.untilMs);
      if (until === undefined) return;
      const hintMs = finite(event.hintMs);
      const { closedMs } = known;
      this.keys.set(key, {
        gate,
        key,
        closedUntil: until,
        reason: text(event.reason) ?? 'closed',
        ...(hintMs === undefined ? {} : { hintMs }),
        ...(closedMs === undefined ? {} : { closedMs }),
      });
    } else if (type === 'gate.opened') {
      const closedMs = finite(event.closedMs);
      this.keys.set(key, { ...known, closedUntil: 0, ...(closedMs === undefined ? {} : { closedMs }) });
    } else if (!this.keys.has(key)) this.keys.set(key, known);
  }

  /** Every key the events named, in the order each first appeared. */
  list(): RecordedGateKey[] {
    return [...this.keys.values()];
  }
}

/** True when `key` is still closed at wall time `now`. */
export function closedAt(key: RecordedGateKey, now: number): boolean {
  return key.closedUntil > now;
}
