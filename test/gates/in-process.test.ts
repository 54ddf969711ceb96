/**
 * Gates in one process, on the virtual clock: exact timelines of closings, paces, concurrency, deadlines
 * and release order, and the gates a dispatcher's runs share.
 */
import { describe, expect, it } from 'vitest';
import type { PolicyInput } from '../../src/policy/types.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { virtualClock } from '../runtime/helpers.ts';
import { callChain } from './call-chain.ts';

/** An entry that waits `/delay` ms, then a call placement with a retry budget of 3. */
const chain = callChain('urn:test:gates');

const rateLimited = (retryAfter: number | string) =>
  Object.assign(new Error('429 Too Many Requests'), { status: 429, retryAfter });

interface Call {
  readonly item: string;
  readonly at: number;
}

/** A call node that answers 429 to the calls `fail` picks, and records every call's item and time. */
function callNode(clock: { now(): number }, fail: (call: Call, n: number) => unknown, work = 0) {
  const calls: Call[] = [];
  let running = 0;
  let most = 0;
  const node = defineNode({
    id: 'urn:test:call',
    outputs: ['ok'],
    run: async (item) => {
      const call = { item: item.id, at: clock.now() };
      calls.push(call);
      running++;
      most = Math.max(most, running);
      try {
        if (work > 0) await clockSleep(clock, work);
        const error = fail(call, calls.length);
        if (error !== undefined) throw error;
        return 'ok';
      } finally {
        running--;
      }
    },
  });
  return { node, calls, most: () => most };
}

function clockSleep(clock: { now(): number }, ms: number): Promise<void> {
  return (clock as unknown as { sleep(ms: number): Promise<void> }).sleep(ms);
}

async function run(policy: PolicyInput, fail: (call: Call, n: number) => unknown, items: number, work = 0) {
  const clock = virtualClock();
  const { node, calls, most } = callNode(clock, fail, work);
  const events: RunEvent[] = [];
  const result = await createDispatcher({ nodes: [node], clock, policy }).run(
    chain,
    {},
    { items: Array.from({ length: items }, () => ({})), onEvent: (e) => events.push(e) },
  );
  return { result, calls, events, most: most() };
}

const gated = (gate: Record<string, unknown>): PolicyInput =>
  ({
    defaults: { backoff: { strategy: 'constant', baseMs: 100 } },
    gates: { api: { placements: ['call'], ...gate } },
  }) as PolicyInput;

describe('a gate in one process', () => {
  it('closes on a 429 with Retry-After: every item under it waits until the reopening, spending no budget', async () => {
    const { result, calls, events } = await run(
      gated({}),
      (_c, n) => (n === 1 ? rateLimited(2000) : undefined),
      4,
    );
    // Item 1's call at 0 got the 429; items 2-4 had gone through at 0 too (no pace), item 1 retries at 2000.
    expect(calls).toEqual([
      { item: '1', at: 0 },
      { item: '2', at: 0 },
      { item: '3', at: 0 },
      { item: '4', at: 0 },
      { item: '1', at: 2000 },
    ]);
    expect(result.items.map((i) => i.terminal)).toEqual(['done', 'done', 'done', 'done']);
    const closed = events.find((e) => e.type === 'gate.closed');
    expect(closed).toMatchObject({
      gate: 'api',
      key: 'api',
      untilMs: 2000,
      hintMs: 2000,
      item: '1',
      reason: 'HTTP 429',
    });
  });

  it('makes items that arrive while it is closed wait for the reopening, in arrival order, with no budget spent', async () => {
    // A concurrency of 1: item 1 fails at 0 (its call takes 10 ms), closing the gate until 10 + 1000.
    const { result, calls, events } = await run(
      gated({ concurrency: 1 }),
      (_c, n) => (n === 1 ? rateLimited(1000) : undefined),
      4,
      10,
    );
    expect(calls.map((c) => [c.item, c.at])).toEqual([
      ['1', 0],
      ['2', 1010],
      ['3', 1020],
      ['4', 1030],
      ['1', 1040],
    ]);
    expect(result.items.map((i) => [i.id, i.terminal, i.state.budgets.again ?? 0])).toEqual([
      ['1', 'done', 1],
      ['2', 'done', 0],
      ['3', 'done', 0],
      ['4', 'done', 0],
    ]);
    const waits = events
      .filter((e) => e.type === 'gate.wait' && e.why === 'closed')
      .map((e) => (e as { item: string }).item);
    expect(waits).toEqual(['2', '3', '4']);
    const opened = events.find((e) => e.type === 'gate.opened');
    expect(opened).toMatchObject({ key: 'api', closedMs: 1000, time: 1010 });
  });

  it('closes for the back-off when a 429 carries no Retry-After', async () => {
    const { calls } = await run(
      gated({ concurrency: 1 }),
      (_c, n) => (n === 1 ? Object.assign(new Error('429'), { status: 429 }) : undefined),
      2,
    );
    expect(calls.map((c) => [c.item, c.at])).toEqual([
      ['1', 0],
      ['2', 100],
      ['1', 100],
    ]);
  });

  it('does not close on a 503 without a Retry-After, nor when pauseOnRetryAfter is off', async () => {
    const unavailable = (_c: Call, n: number) =>
      n === 1 ? Object.assign(new Error('503'), { status: 503 }) : undefined;
    const a = await run(gated({}), unavailable, 2);
    expect(a.events.some((e) => e.type === 'gate.closed')).toBe(false);
    const b = await run(
      gated({ pauseOnRetryAfter: false }),
      (_c, n) => (n === 1 ? rateLimited(5000) : undefined),
      2,
    );
    expect(b.events.some((e) => e.type === 'gate.closed')).toBe(false);
  });

  it('paces starts by its rate: never more than the bucket allows in any window', async () => {
    const rate = { limit: 5, periodMs: 1000, burst: 2 };
    const { calls, result } = await run(gated({ rate }), () => undefined, 23);
    expect(result.items.every((i) => i.terminal === 'done')).toBe(true);
    const starts = calls.map((c) => c.at);
    // Brute force over every pair: i..j started within (s_j - s_i) ms, at most burst + that span / interval.
    const interval = rate.periodMs / rate.limit;
    for (let i = 0; i < starts.length; i++) {
      for (let j = i; j < starts.length; j++) {
        const span = (starts[j] as number) - (starts[i] as number);
        expect(j - i + 1).toBeLessThanOrEqual(rate.burst + Math.floor(span / interval + 1e-9));
      }
    }
    // And no slower than the pace: 2 at once, then one per 200 ms.
    expect(starts.slice(0, 5)).toEqual([0, 0, 200, 400, 600]);
    expect(starts.at(-1)).toBe(200 * 21);
  });

  it('never runs more than its concurrency at once', async () => {
    const { most, result } = await run(gated({ concurrency: 3 }), () => undefined, 20, 50);
    expect(most).toBe(3);
    expect(result.items.every((i) => i.terminal === 'done')).toBe(true);
  });

  it('counts a wait at the gate against the placement deadline: an item still waiting routes as a timeout', async () => {
    const policy = {
      defaults: { backoff: { strategy: 'constant', baseMs: 100 }, deadlineMs: 500 },
      classification: { retryTimeouts: false },
      gates: { api: { placements: ['call'], concurrency: 1 } },
    } as PolicyInput;
    const { result, calls, events } = await run(
      policy,
      (_c, n) => (n === 1 ? rateLimited(2000) : undefined),
      3,
      10,
    );
    expect(calls.map((c) => [c.item, c.at])).toEqual([
      ['1', 0],
      ['1', 2010],
    ]);
    // Items 2 and 3 waited from 0; at 500 their deadline passed at the gate.
    const ends = events.filter((e) => e.type === 'placement.end');
    expect(
      ends.map((e) => [
        (e as { item: string }).item,
        e.time,
        (e as { error?: { code: string } }).error?.code,
      ]),
    ).toEqual([
      ['1', 10, 'E_NODE_ERROR'],
      ['2', 500, 'E_DEADLINE'],
      ['3', 500, 'E_DEADLINE'],
      ['1', 2020, undefined],
    ]);
    expect(result.items.map((i) => [i.id, i.terminal])).toEqual([
      ['1', 'done'],
      ['2', 'failed'],
      ['3', 'failed'],
    ]);
  });

  it("ends the wait at the run's deadline: items still at the gate fail with E_RUN_DEADLINE", async () => {
    const policy = {
      defaults: { backoff: { strategy: 'constant', baseMs: 100 } },
      run: { deadlineMs: 1500 },
      gates: { api: { placements: ['call'], concurrency: 1 } },
    } as PolicyInput;
    const { result, calls, events } = await run(
      policy,
      (_c, n) => (n === 1 ? rateLimited(5000) : undefined),
      3,
      10,
    );
    expect(calls.map((c) => [c.item, c.at])).toEqual([['1', 0]]);
    // Item 1's Retry-After does not fit the run's remaining time: it takes its exhaustion route at once.
    expect(result.items.map((i) => [i.id, i.terminal])).toEqual([['1', 'failed']]);
    expect(result.failures.map((f) => [f.id, f.placement, f.error.code])).toEqual([
      ['2', 'call', 'E_RUN_DEADLINE'],
      ['3', 'call', 'E_RUN_DEADLINE'],
    ]);
    expect(events.find((e) => e.type === 'run.end')?.time).toBe(1500);
  });

  it('tells a long queue why it waits once per kind of reason, not at every start', async () => {
    const { events, result } = await run(
      gated({ rate: { limit: 10, periodMs: 1000 }, concurrency: 2 }),
      () => undefined,
      60,
      500,
    );
    expect(result.items.every((i) => i.terminal === 'done')).toBe(true);
    const waits = events.filter((e) => e.type === 'gate.wait');
    // Each of the 59 items that waited is told once: the pace and the concurrency take turns at the head.
    expect(waits.length).toBeLessThanOrEqual(2 * 59);
    expect(new Set(waits.map((e) => (e as { item: string }).item)).size).toBe(59);
  });
});
