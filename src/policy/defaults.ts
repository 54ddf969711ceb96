/**
 * The default runtime policy: what every field is when a policy leaves it out.
 */
import type { ClassificationOptions, RuntimePolicy, TimingPolicy } from './types.ts';

/** Freezes an object and every object or array inside it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Default timing of every placement:
 * - `deadlineMs`: undefined (no per-execution deadline);
 * - `backoff`: exponential, base 100 ms, factor 2, cap 30 s (100, 200, 400, … 30 000 ms);
 * - `jitter`: full (a uniform delay between 0 and the computed one);
 * - `retryAfter`: honoured, capped at 60 s;
 * - `concurrency`: 16.
 */
export const defaultTiming: TimingPolicy = deepFreeze({
  deadlineMs: undefined,
  backoff: { strategy: 'exponential', baseMs: 100, factor: 2, capMs: 30_000 },
  jitter: 'full',
  retryAfter: { honour: true, capMs: 60_000 },
  concurrency: 16,
});

/**
 * Default error classification:
 * - `retryableStatuses`: 408, 409, 425, 429; `retry5xx`: true (every 5xx);
 * - `retryableStatusesWithHint`: 413 (retried when its response carries a usable Retry-After);
 * - `nonRetryableStatuses`: 400, 401, 403, 404, 422;
 * - `retryableCodes`: connection resets, refusals and timeouts, broken pipes, DNS and routing failures, undici
 *   socket and connect-timeout errors;
 * - `retryTimeouts`: true (a deadline that fires may be retried);
 * - `maxDepth`: 8 levels of `cause` / `errors`.
 */
export const defaultClassification: ClassificationOptions = deepFreeze({
  retryableStatuses: [408, 409, 425, 429],
  retryableStatusesWithHint: [413],
  nonRetryableStatuses: [400, 401, 403, 404, 422],
  retry5xx: true,
  retryableCodes: [
    'ECONNRESET',
    'ECONNREFUSED',
    'ECONNABORTED',
    'ETIMEDOUT',
    'EPIPE',
    'ENOTFOUND',
    'EAI_AGAIN',
    'ENETUNREACH',
    'ENETDOWN',
    'EHOSTUNREACH',
    'EHOSTDOWN',
    'UND_ERR_SOCKET',
    'UND_ERR_CONNECT_TIMEOUT',
    'UND_ERR_HEADERS_TIMEOUT',
    'UND_ERR_BODY_TIMEOUT',
  ],
  retryTimeouts: true,
  maxDepth: 8,
});

/**
 * The policy used when none is given (frozen): {@link defaultTiming} for every placement, no node or placement
 * overrides, no run deadline, {@link defaultClassification}.
 */
export const defaultPolicy: RuntimePolicy = deepFreeze({
  defaults: defaultTiming,
  nodes: {},
  placements: {},
  run: { deadlineMs: undefined },
  classification: defaultClassification,
  gates: {},
});
