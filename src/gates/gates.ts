/**
 * What an executor asks of the gates a dispatcher shares between its runs: enter a key before an
 * execution starts, leave it when the execution ends, close it on a rate-limit answer. In one process (and
 * in a durable run) the gates are {@link LocalGates}; across workers they live in Redis. Both follow the
 * pure functions of `gcra.ts`.
 */
import type { EventStream } from '../runtime/event-stream.ts';
import type { GateRef } from './types.ts';

/** Who waits at a gate: the run's events and signal, the item, and the latest it may start. */
export interface GateEntry {
  readonly events: EventStream | undefined;
  readonly signal: AbortSignal;
  readonly item: string;
  readonly dag: string;
  readonly placement: string;
  /**
   * The wall time (ms) by which the execution must have started (its placement's deadline), Infinity when
   * nothing bounds it: an item still waiting then, or whose start would come then or later, is let go with
   * `late`.
   */
  readonly latest: number;
}

/** An execution let through a gate: it gives its place back with {@link GatePass.leave} once it ended. */
export interface GatePass {
  /** How long the item waited at the gate, ms of wall time (0: it went straight through). */
  readonly waitedMs: number;
  leave(): void;
}

/** The item's deadline passed while it waited at the gate: it did not start. */
export interface GateLate {
  readonly late: true;
  readonly waitedMs: number;
}

/** A rate-limit answer that closes a gate key, as its events report it. */
export interface GateClosing {
  /** The wall time the key reopens. */
  readonly untilMs: number;
  /** The wall time the answer closed it (`untilMs` less the closing), when the caller read it. */
  readonly fromMs?: number;
  readonly reason: string;
  readonly hintMs: number | undefined;
  readonly events: EventStream | undefined;
  readonly item: string;
  readonly dag: string;
  readonly placement: string;
}

/** A gate key as it stands, for progress and `runs show`. */
export interface GateKeyView {
  readonly gate: string;
  readonly key: string;
  /** Wall time the key reopens; 0 when open. */
  readonly closedUntil: number;
  readonly waiting: number;
  readonly running: number;
}

export interface Gates {
  /**
   * Waits at `ref` until the execution may start: the key is open, its pace allows one more, and fewer
   * than its concurrency run. Waiters go in arrival order. Rejects with the signal's reason when the
   * entry's signal aborts first.
   */
  enter(ref: GateRef, entry: GateEntry): GatePass | GateLate | Promise<GatePass | GateLate>;
  /**
   * Closes `ref` until `closing.untilMs` (never shortening a closing in force), for every waiter. Gates
   * kept elsewhere (in Redis) answer a promise: the execution gives its place back once it settled.
   */
  close(ref: GateRef, closing: GateClosing): void | Promise<void>;
  /** Every key with waiters, executions or a closing, for display. */
  view(): readonly GateKeyView[];
}

/** True when {@link Gates.enter} let the execution through. */
export function isPass(entered: GatePass | GateLate): entered is GatePass {
  return !('late' in entered);
}
