/**
 * Gates in one process, shared by every run of a dispatcher: a {@link KeyGate} per key in use.
 */
import type { Clock } from '../policy/types.ts';
import type { GateClosing, GateEntry, GateKeyView, GateLate, GatePass, Gates } from './gates.ts';
import { KeyGate } from './key-gate.ts';
import type { GatePolicy, GateRef } from './types.ts';

/** How many keys a dispatcher keeps before it forgets the idle ones. */
const SWEEP_FROM = 1024;

/** The gates of one dispatcher, in this process. */
export class LocalGates implements Gates {
  private readonly keys = new Map<string, KeyGate>();
  /** By gate name, the wall time from which every key of the gate owes a whole burst (see restorePace). */
  private readonly owed = new Map<string, number>();
  /** The number of keys at which idle ones are next forgotten. */
  private sweepAt = SWEEP_FROM;

  constructor(private readonly clock: Clock) {}

  enter(ref: GateRef, entry: GateEntry): GatePass | GateLate | Promise<GatePass | GateLate> {
    return this.keyOf(ref).enter(entry);
  }

  close(ref: GateRef, closing: GateClosing): void {
    this.keyOf(ref).close(closing);
  }

  /**
   * Restores a closing a durable run recorded before it stopped (its `gate.closed` event), so that the
   * resumed run honours a gate still closed. A closing already over changes nothing.
   */
  restore(ref: GateRef, untilMs: number): void {
    if (untilMs <= this.clock.wallNow()) return;
    this.keyOf(ref).restore(untilMs);
  }

  /**
   * Paces every key of `gate` (those in use and those made later) as if a whole burst had started at wall
   * time `fromMs`: the next execution under a key starts one emission interval after it, then one per
   * interval. For a durable run resumed after a crash: the starts of the stopped process's last moments are
   * not recorded, so the resumed run assumes they spent every token. A gate without a rate is not changed.
   */
  restorePace(gate: GatePolicy, fromMs: number): void {
    if (gate.rate === undefined) return;
    this.owed.set(gate.name, Math.max(fromMs, this.owed.get(gate.name) ?? fromMs));
    for (const key of this.keys.values()) if (key.gate.name === gate.name) key.owe(fromMs);
  }

  view(): readonly GateKeyView[] {
    return [...this.keys.values()].map((key) => key.view());
  }

  private keyOf(ref: GateRef): KeyGate {
    let key = this.keys.get(ref.key);
    if (key === undefined || key.gate !== ref.gate) {
      // Finer keys (one per user or API key) come and go: idle ones are forgotten as the map grows.
      if (this.keys.size >= this.sweepAt) this.sweep();
      key = new KeyGate(ref.gate, ref.key, this.clock);
      const owed = this.owed.get(ref.gate.name);
      if (owed !== undefined) key.owe(owed);
      this.keys.set(ref.key, key);
    }
    return key;
  }

  /** Forgets idle keys; the next sweep comes when the map has doubled what is left. */
  private sweep(): void {
    const now = this.clock.wallNow();
    for (const [name, key] of this.keys) if (key.idle(now)) this.keys.delete(name);
    this.sweepAt = Math.max(SWEEP_FROM, 2 * this.keys.size);
  }
}
