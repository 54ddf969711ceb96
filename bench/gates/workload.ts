/**
 * The gates benchmark's workload: a DAG whose `call` placement calls the rate-limited service
 * (rate-server.ts) with `fetch`, retried on a budget of 3 and sent to the `exhausted` terminal once the
 * budget is spent; the node that calls it; and the two policies it runs under, without a gate and with one.
 */
import { dag } from '../../src/document/builder.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';

/** The node's IRI. */
export const CALL_NODE = 'urn:bench:gates:call';

/** Retries of the call per item: four requests at most. */
export const CALL_BUDGET = 3;

/** What the node is given as `ctx.services`: where the service listens. */
export interface CallServices {
  readonly url: string;
}

/**
 * `call` → `done` on a 2xx; a retryable error (a 429 among them) takes `retry` back to `call`, spending the
 * `call` budget, and `exhausted` once it is spent; any other error ends at `failed`.
 */
export const gatesDag = dag('urn:bench:gates', { name: 'gates benchmark', version: '1' })
  .budget('call', CALL_BUDGET)
  .entry('call')
  .task('call', CALL_NODE)
  .route('ok', 'done')
  .retry('retry', 'call', { budget: 'call', exhausted: 'exhausted' })
  .route('error', 'failed')
  .terminal('done', 'completed')
  .terminal('exhausted', 'failed')
  .terminal('failed', 'failed')
  .build();

/**
 * Calls the service once, as a program calling an HTTP API does: a non-2xx answer is thrown as an error
 * carrying its status and the response's headers, where the engine reads the status and Retry-After.
 */
export const callNode = defineNode({
  id: CALL_NODE,
  outputs: ['ok'],
  run: async (item, ctx) => {
    const { url } = ctx.services as CallServices;
    const response = await fetch(`${url}/call?item=${encodeURIComponent(item.id)}`, { signal: ctx.signal });
    await response.arrayBuffer();
    if (!response.ok) {
      throw Object.assign(new Error(`the service answered HTTP ${response.status}`), {
        status: response.status,
        headers: response.headers,
      });
    }
    return 'ok';
  },
}) as NodeDefinition<string, never>;

/** The service's pace: 20 requests in any second. */
export const SERVICE_RATE = { limit: 20, periodMs: 1000 } as const;

/**
 * Timing as a user would write it for an HTTP API: exponential back-off from 250 ms, doubling, capped at
 * 8 s, full jitter, Retry-After honoured (capped at 30 s), 16 calls at once.
 */
const timing = {
  backoff: { strategy: 'exponential', baseMs: 250, factor: 2, capMs: 8000 },
  jitter: 'full',
  retryAfter: { honour: true, capMs: 30_000 },
  concurrency: 16,
} as const;

/** The policy without a gate: each item meets the rate limit on its own. */
export const ungatedPolicy: PolicyInput = { defaults: timing };

/** The same policy with a gate paced at the service's rate in front of `call`. */
export const gatedPolicy: PolicyInput = {
  defaults: timing,
  gates: { api: { placements: ['call'], rate: SERVICE_RATE } },
};
