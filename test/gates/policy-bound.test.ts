/**
 * inspect's worst-case time against the engine itself: items run through a gated placement on the virtual
 * clock, over every combination of node behaviour, gate and crowd in a small grid, and no item may take
 * longer than the bound; an item alone may not wait longer at the gate than the bound per visit says.
 */
import { describe, expect, it } from 'vitest';
import type { GatePolicyInput } from '../../src/gates/types.ts';
import { computeBounds } from '../../src/graph/bounds.ts';
import { compile } from '../../src/graph/compile.ts';
import { worstCaseTime } from '../../src/graph/worst-time.ts';
import { resolvePolicy } from '../../src/policy/resolve.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { httpError, never, recorder, virtualClock } from '../runtime/helpers.ts';
import { callChain } from './call-chain.ts';

const chain = callChain('urn:test:gate-bound');

const DEADLINE = 500;

/** What the node does on each call: answer 429 (Retry-After 10 s), hang, or succeed. */
const behaviours = {
  limited: () => Promise.reject(httpError(429, { 'retry-after': '10' })),
  firstLimited: (n: number) => (n === 0 ? Promise.reject(httpError(429, { 'retry-after': '10' })) : 'ok'),
  hung: () => never<string>(),
  slowThenLimited: (n: number) =>
    n % 2 === 0 ? never<string>() : Promise.reject(httpError(429, { 'retry-after': '1' })),
} as const;

const gates: Record<string, GatePolicyInput> = {
  longClosing: { placements: ['call'], maxClosedMs: 2000 },
  shortClosingPaced: { placements: ['call'], maxClosedMs: 200, rate: { limit: 5, periodMs: 1000 } },
  oneAtATime: { placements: ['call'], concurrency: 1 },
  slowPace: { placements: ['call'], rate: { limit: 2, periodMs: 1000, burst: 2 } },
  noPause: { placements: ['call'], pauseOnRetryAfter: false, rate: { limit: 3, periodMs: 1000 } },
};

function policyWith(gate: GatePolicyInput): PolicyInput {
  return {
    defaults: {
      deadlineMs: DEADLINE,
      backoff: { strategy: 'constant', baseMs: 100, capMs: 100 },
      jitter: 'none',
      retryAfter: { honour: true, capMs: 1000 },
    },
    gates: { api: gate },
  };
}

describe('the worst-case time with gates, against the engine', () => {
  // What the grid made happen, so that the bound is seen to hold where gates did make items wait.
  const seen = { waits: 0, lateAtGate: 0 };
  for (const [behaviour, answer] of Object.entries(behaviours)) {
    for (const [gateName, gate] of Object.entries(gates)) {
      for (const crowd of [1, 6]) {
        it(`bounds every item: ${behaviour} node, ${gateName} gate, ${crowd} item(s)`, async () => {
          const policy = resolvePolicy(policyWith(gate));
          const compiled = compile(chain);
          const time = worstCaseTime(compiled, computeBounds(compiled), policy);
          const bound = Number(time.totalMs);
          const wait = time.gateWaits[0];
          expect(wait?.placement).toBe('call');
          const clock = virtualClock();
          const calls: { item: string; at: number }[] = [];
          const counts = new Map<string, number>();
          const call = defineNode({
            id: 'urn:test:call',
            outputs: ['ok'],
            run: async (item) => {
              const n = counts.get(item.id) ?? 0;
              counts.set(item.id, n + 1);
              calls.push({ item: item.id, at: clock.now() });
              return answer(n);
            },
          });
          const log = recorder();
          const result = await createDispatcher({ nodes: [call], clock, policy }).run(
            chain,
            {},
            { items: Array.from({ length: crowd }, () => ({})), onEvent: log.onEvent },
          );
          expect(result.items).toHaveLength(crowd);
          for (const item of result.items) {
            const mine = log.events.filter((e) => 'item' in e && e.item === item.id);
            const start = mine.find((e) => e.type === 'placement.start')?.time as number;
            const end = mine.find((e) => e.type === 'item.end' || e.type === 'item.failed')?.time as number;
            expect(end - start, item.id).toBeLessThanOrEqual(bound);
          }
          seen.waits += log.of('gate.wait').length;
          seen.lateAtGate += log
            .of('placement.end')
            .filter((e) => e.error?.message.includes('at gate') === true).length;
          if (crowd !== 1 || wait === undefined) return;
          // Alone: each visit either starts its node within the per-visit bound, or times out at the gate
          // only where that bound is past the deadline.
          const starts = log.of('placement.start');
          const ends = log.of('placement.end');
          starts.forEach((s, i) => {
            const ended = ends[i]?.time as number;
            const called = calls.find((c) => c.at >= s.time && c.at <= ended);
            if (called !== undefined) expect(called.at - s.time).toBeLessThanOrEqual(wait.aloneMs);
            else expect(wait.aloneMs).toBeGreaterThan(DEADLINE);
          });
        });
      }
    }
  }

  it('needs the 1 ms a node let through at the last moment of its deadline is given', async () => {
    // Hung nodes, one at a time: an item let through as its deadline ends still runs its node for 1 ms.
    const policy = resolvePolicy({
      ...policyWith(gates.oneAtATime as GatePolicyInput),
      defaults: { ...policyWith({}).defaults, retryAfter: { honour: false } },
    });
    const compiled = compile(chain);
    const time = worstCaseTime(compiled, computeBounds(compiled), policy);
    // 4 executions of 500 ms and 3 back-offs of 100 ms, and 1 ms for each gated execution.
    expect(time.totalMs).toBe(2304n);
    const clock = virtualClock();
    const hung = defineNode({ id: 'urn:test:call', outputs: ['ok'], run: () => never<string>() });
    const log = recorder();
    await createDispatcher({ nodes: [hung], clock, policy }).run(
      chain,
      {},
      { items: Array.from({ length: 6 }, () => ({})), onEvent: log.onEvent },
    );
    const took = log.of('item.end').map((end) => {
      const start = log.of('placement.start').find((s) => s.item === end.item)?.time as number;
      return end.time - start;
    });
    expect(Math.max(...took)).toBeGreaterThan(2300);
    expect(Math.max(...took)).toBeLessThanOrEqual(2304);
  });

  it('made items wait at gates and time out there', () => {
    expect(seen.waits).toBeGreaterThan(100);
    expect(seen.lateAtGate).toBeGreaterThan(50);
  });
});
