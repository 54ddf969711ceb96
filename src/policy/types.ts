import type { GatePolicy, GatePolicyInput } from '../gates/types.ts';

/**
 * Runtime policy: the timing of a run, kept out of the DAG document. Changing a policy never changes the
 * topology, and changing the topology never needs a policy change.
 */

export type BackoffStrategy = 'exponential' | 'constant' | 'decorrelated';
export type JitterMode = 'none' | 'full' | 'equal';

/** How long to wait before a retry target runs. */
export interface BackoffOptions {
  readonly strategy: BackoffStrategy;
  /** First delay (exponential), the delay (constant), or the floor (decorrelated). */
  readonly baseMs: number;
  /** Growth per attempt for `exponential` (and the upper multiplier for `decorrelated`). */
  readonly factor: number;
  /** No computed delay exceeds this. */
  readonly capMs: number;
}

/** How a Retry-After attached by a node (ms, seconds or HTTP-date) is treated. */
export interface RetryAfterOptions {
  /** When false, Retry-After hints are ignored and the back-off applies. */
  readonly honour: boolean;
  /** A hint longer than this is cut to it. */
  readonly capMs: number;
}

/** Timing for one placement, after defaults, node and placement overrides are merged. */
export interface TimingPolicy {
  /** How long one execution may take before it is cut and routed as a timeout; undefined = no deadline. */
  readonly deadlineMs: number | undefined;
  readonly backoff: BackoffOptions;
  readonly jitter: JitterMode;
  readonly retryAfter: RetryAfterOptions;
  /**
   * Most items of one run executing this placement at once. For a scatter: most of its children in flight at
   * once across the whole run, the children of every item that reaches it counted together.
   */
  readonly concurrency: number;
}

/** Which thrown errors count as retryable (the rest take the `error` route). */
export interface ClassificationOptions {
  readonly retryableStatuses: readonly number[];
  /**
   * Statuses retried only when the error carries a usable Retry-After (RFC 9110 lets a server say so of a 413
   * whose condition is temporary).
   */
  readonly retryableStatusesWithHint: readonly number[];
  /** Statuses never retried even when in a retryable range. */
  readonly nonRetryableStatuses: readonly number[];
  /** Any status >= 500 is retryable unless listed as non-retryable. */
  readonly retry5xx: boolean;
  readonly retryableCodes: readonly string[];
  /** Deadline errors are retryable when true. */
  readonly retryTimeouts: boolean;
  /** How deep `cause` / `errors` chains are walked. */
  readonly maxDepth: number;
}

/** A timing override: any subset of the fields. */
export type TimingOverride = {
  readonly [K in keyof TimingPolicy]?: K extends 'backoff' | 'retryAfter'
    ? Partial<TimingPolicy[K]>
    : TimingPolicy[K];
};

/** A whole runtime policy, with every default filled. */
export interface RuntimePolicy {
  readonly defaults: TimingPolicy;
  /** Overrides by node IRI. */
  readonly nodes: Readonly<Record<string, TimingOverride>>;
  /** Overrides by placement key, or `<dag IRI>#<key>` to name a placement of one document only. */
  readonly placements: Readonly<Record<string, TimingOverride>>;
  readonly run: {
    /** The whole run's deadline; undefined = none. */
    readonly deadlineMs: number | undefined;
  };
  readonly classification: ClassificationOptions;
  /** Gates by name (see `gates/types.ts`); empty when the policy declares none. */
  readonly gates: Readonly<Record<string, GatePolicy>>;
}

/** A policy as written in a file or passed by a caller: any part may be left out. */
export interface PolicyInput {
  readonly defaults?: TimingOverride;
  readonly nodes?: Readonly<Record<string, TimingOverride>>;
  readonly placements?: Readonly<Record<string, TimingOverride>>;
  readonly run?: { readonly deadlineMs?: number };
  readonly classification?: Partial<ClassificationOptions>;
  readonly gates?: Readonly<Record<string, GatePolicyInput>>;
}

/** The time source and wait primitive a dispatcher uses; never the global timers. */
export interface Clock {
  /** Milliseconds on this clock's own monotonic time line: for measuring durations and scheduling waits. */
  now(): number;
  /**
   * Wall-clock time in milliseconds since the Unix epoch: what absolute instants (a Retry-After HTTP-date)
   * are measured against. It may jump when the system time is set; never use it for durations.
   */
  wallNow(): number;
  /** Resolves after `ms` on this clock, or rejects with an AbortError at once when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A source of uniform numbers in [0, 1). */
export type Random = () => number;
