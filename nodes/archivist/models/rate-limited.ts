import type { ChatModel } from '../types.ts';
import { ProviderError } from './provider-error.ts';

/** Options of the simulated shared rate limit. */
export interface RateLimitOptions {
  /** Requests let through per window. */
  readonly limit: number;
  /** The window's length, ms. */
  readonly windowMs: number;
  /** The clock the window is kept on (the dispatcher's, so that a virtual clock drives it too). */
  readonly now: () => number;
  /** Told of each request refused, in call order, with the time left in the window (ms). */
  readonly onLimited?: (call: number, retryAfterMs: number) => void;
}

/** The part of a model's name saying it is rate-limited, e.g. `+limit(2/1s)`. */
export function limitTag(limit: number, windowMs: number): string {
  return `+limit(${limit}/${windowMs / 1000}s)`;
}

/**
 * Wraps a model in a provider's shared rate limit, as real providers keep one per API key: every call of
 * every item and run counts in one window of `windowMs`, which starts with the first call after the last
 * window ended; past `limit` calls in it, a call is refused at once with HTTP 429 and a `retry-after` of
 * the time left in the window, rounded up to whole seconds as most providers send it. The window is kept
 * on the injected clock, and a rounded hint does not depend on how long the calls took, so the same seed
 * prints the same trace.
 * @example
 * const model = createRateLimitedModel(createOfflineModel(catalog), {
 *   limit: 2,
 *   windowMs: 1000,
 *   now: () => clock.now(),
 * });
 */
export function createRateLimitedModel(inner: ChatModel, options: RateLimitOptions): ChatModel {
  let windowEnd = Number.NEGATIVE_INFINITY;
  let used = 0;
  let calls = 0;
  return {
    name: `${inner.name}${limitTag(options.limit, options.windowMs)}`,
    local: inner.local,
    async complete(messages, callOptions) {
      calls += 1;
      const now = options.now();
      if (now >= windowEnd) {
        windowEnd = now + options.windowMs;
        used = 0;
      }
      if (used >= options.limit) {
        const retryAfterMs = windowEnd - now;
        options.onLimited?.(calls, retryAfterMs);
        throw new ProviderError(
          `HTTP 429 Too Many Requests (simulated limit: ${options.limit} per ${options.windowMs / 1000} s)`,
          {
            status: 429,
            headers: { 'retry-after': String(Math.ceil(retryAfterMs / 1000)) },
          },
        );
      }
      used += 1;
      return inner.complete(messages, callOptions);
    },
  };
}
