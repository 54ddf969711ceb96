/**
 * Gates: limits a runtime policy puts on executions that share an outside resource (a model provider, an
 * API key), across every item, run and worker that reaches them. A gate is never part of the DAG: the same
 * document runs with or without one.
 */

/** A gate's pace: at most `limit` executions start per `periodMs`, `burst` of them at once. */
export interface GateRate {
  readonly limit: number;
  readonly periodMs: number;
  readonly burst: number;
}

/** Which failed executions close a gate (see {@link GatePolicy.pauseOnRetryAfter}). */
export interface GateCloseOn {
  /** HTTP statuses that close the gate, with or without a Retry-After (429 by default). */
  readonly statuses: readonly number[];
  /** HTTP statuses that close the gate only when the error carries a usable Retry-After (503 by default). */
  readonly statusesWithHint: readonly number[];
}

/** One gate of a resolved policy. */
export interface GatePolicy {
  readonly name: string;
  /** Placement keys (any document) and `<dag IRI>#<key>` (one document) whose executions pass the gate. */
  readonly placements: readonly string[];
  /** Node IRIs: every placement of these nodes passes the gate. */
  readonly nodes: readonly string[];
  /** Most executions under one key of the gate at once; undefined: no limit. */
  readonly concurrency: number | undefined;
  /** Pace of executions under one key; undefined: no pace. */
  readonly rate: GateRate | undefined;
  /** A rate-limit answer under the gate closes it until its Retry-After (or for the back-off). */
  readonly pauseOnRetryAfter: boolean;
  /** The longest the gate stays closed on one answer; undefined: the placement's Retry-After cap. */
  readonly maxClosedMs: number | undefined;
  readonly closeOn: GateCloseOn;
  /**
   * A regular expression (whole match) the finer keys a node names must match; undefined: the gate has
   * only its own key, and a node naming one is refused.
   */
  readonly keys: string | undefined;
}

/** A gate as written in a policy file: every field but the members optional. */
export interface GatePolicyInput {
  readonly placements?: readonly string[];
  readonly nodes?: readonly string[];
  readonly concurrency?: number;
  readonly rate?: { readonly limit: number; readonly periodMs?: number; readonly burst?: number };
  readonly pauseOnRetryAfter?: boolean;
  readonly maxClosedMs?: number;
  readonly closeOn?: Partial<GateCloseOn>;
  readonly keys?: string;
}

/**
 * The key an execution passes: the gate's name, or `<name>:<finer key>` when its node names one. Limits
 * and closings hold per key.
 */
export interface GateRef {
  readonly gate: GatePolicy;
  readonly key: string;
}

/**
 * What a gate remembers of one key, on the wall clock (ms since the epoch), so that a closing survives a
 * restart: `tat`, the theoretical arrival time of the generic cell rate algorithm (the time the next
 * execution would start were the gate paced without bursts), and the time a closing ends (0: open).
 */
export interface GateKeyState {
  readonly tat: number;
  readonly closedUntil: number;
}

/** Why an item waits at a gate. */
export type GateWhy = 'closed' | 'rate' | 'concurrency';
