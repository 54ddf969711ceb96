/**
 * What a gate covers: every run of a dispatcher, a scatter's node-bodied children, and finer keys a node
 * names (one per model), each limited and closed on its own; keys outside the declared pattern are refused.
 */
import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { virtualClock } from '../runtime/helpers.ts';
import { callChain } from './call-chain.ts';

const chain = callChain('urn:test:gates-shared');

const rateLimited = (retryAfter: number) =>
  Object.assign(new Error('429 Too Many Requests'), { status: 429, retryAfter });

describe('a gate shared', () => {
  it('by every run of a dispatcher: a 429 in one run pauses the items of another', async () => {
    const clock = virtualClock();
    const calls: [string, string, number][] = [];
    let first = true;
    const call = defineNode({
      id: 'urn:test:call',
      outputs: ['ok'],
      run: async (item) => {
        calls.push([String(item.data.run), item.id, clock.now()]);
        await clock.sleep(10);
        if (first) {
          first = false;
          throw rateLimited(1000);
        }
        return 'ok';
      },
    });
    const dispatcher = createDispatcher({
      nodes: [call],
      clock,
      policy: {
        defaults: { backoff: { strategy: 'constant', baseMs: 100 } },
        gates: { api: { placements: ['call'], concurrency: 1 } },
      },
    });
    const bEvents: RunEvent[] = [];
    const [a, b] = await Promise.all([
      dispatcher.run(chain, {}, { items: [{ run: 'a' }] }),
      dispatcher.run(chain, {}, { items: [{ run: 'b' }, { run: 'b' }], onEvent: (e) => bEvents.push(e) }),
    ]);
    expect(calls).toEqual([
      ['a', '1', 0],
      ['b', '1', 1010],
      ['b', '2', 1020],
      ['a', '1', 1030],
    ]);
    expect(a.items.map((i) => i.state.budgets.again)).toEqual([1]);
    expect(b.items.map((i) => i.state.budgets.again ?? 0)).toEqual([0, 0]);
    // Run b hears of the closing its items wait for, and of the reopening.
    expect(bEvents.filter((e) => e.type.startsWith('gate.')).map((e) => e.type)).toEqual([
      'gate.wait',
      'gate.wait',
      'gate.closed',
      'gate.wait',
      'gate.wait',
      'gate.opened',
      // Item 1 goes through; item 2 now waits behind it for the concurrency, then goes through too.
      'gate.passed',
      'gate.wait',
      'gate.passed',
    ]);
  });

  it("by a scatter's node-bodied children", async () => {
    const clock = virtualClock();
    let running = 0;
    let most = 0;
    const body = defineNode({
      id: 'urn:test:body',
      outputs: ['ok'],
      run: async () => {
        running++;
        most = Math.max(most, running);
        await clock.sleep(5);
        running--;
        return 'ok';
      },
    });
    const fan = dag('urn:test:gates-fan', { name: 'gates-fan', version: '1' })
      .entry('fan')
      .scatter('fan', { items: '/xs', node: 'urn:test:body' })
      .route('done', 'join')
      .gather('join', { into: '/out', reducer: 'collect' })
      .route('completed', 'ok')
      .route('failed', 'ok')
      .terminal('ok', 'completed')
      .build();
    const result = await createDispatcher({
      nodes: [body],
      clock,
      policy: { gates: { api: { nodes: ['urn:test:body'], concurrency: 2 } } },
    }).run(fan, {}, { items: [{ xs: [1, 2, 3, 4, 5] }, { xs: [6, 7] }] });
    expect(result.status).toBe('completed');
    expect(most).toBe(2);
    // 7 children, two at a time, 5 ms each.
    expect(clock.now()).toBe(20);
  });

  it('per finer key a node names: a 429 on one model leaves the other open', async () => {
    const clock = virtualClock();
    const calls: [string, number][] = [];
    let first = true;
    const call = defineNode({
      id: 'urn:test:call',
      outputs: ['ok'],
      gateKey: (item) => String(item.data.model),
      run: async (item) => {
        calls.push([String(item.data.model), clock.now()]);
        if (first) {
          first = false;
          throw rateLimited(500);
        }
        return 'ok';
      },
    });
    const events: RunEvent[] = [];
    const result = await createDispatcher({
      nodes: [call],
      clock,
      policy: {
        defaults: { backoff: { strategy: 'constant', baseMs: 1 } },
        gates: { openai: { placements: ['call'], concurrency: 1, keys: 'gpt-[a-z0-9.-]+' } },
      },
    }).run(
      chain,
      {},
      {
        items: [{ model: 'gpt-4o' }, { model: 'gpt-4o' }, { model: 'gpt-4o-mini' }],
        onEvent: (e) => events.push(e),
      },
    );
    expect(result.status).toBe('completed');
    expect(calls).toEqual([
      ['gpt-4o', 0],
      ['gpt-4o-mini', 0],
      ['gpt-4o', 500],
      ['gpt-4o', 500],
    ]);
    expect(events.find((e) => e.type === 'gate.closed')).toMatchObject({
      gate: 'openai',
      key: 'openai:gpt-4o',
    });
  });

  it('refuses a finer key outside the pattern: the item takes its error route with E_GATE_KEY', async () => {
    const call = defineNode({
      id: 'urn:test:call',
      outputs: ['ok'],
      gateKey: (item) => String(item.data.model),
      run: () => 'ok',
    });
    const result = await createDispatcher({
      nodes: [call],
      clock: virtualClock(),
      policy: { gates: { openai: { placements: ['call'], keys: 'gpt-[a-z0-9.-]+' } } },
    }).run(chain, {}, { items: [{ model: 'claude' }, { model: 'gpt-4o' }] });
    expect(result.items.map((i) => [i.id, i.terminal])).toEqual([
      ['1', 'failed'],
      ['2', 'done'],
    ]);
    const events: RunEvent[] = [];
    await createDispatcher({
      nodes: [call],
      clock: virtualClock(),
      policy: { gates: { openai: { placements: ['call'], keys: 'gpt-[a-z0-9.-]+' } } },
    }).run(chain, {}, { items: [{ model: 'claude' }], onEvent: (e) => events.push(e) });
    const end = events.find((e) => e.type === 'placement.end') as {
      error?: { code: string; message: string };
    };
    expect(end.error?.code).toBe('E_GATE_KEY');
    expect(end.error?.message).toMatch(/"claude" of gate 'openai', which does not match its keys/u);
  });

  it('by the items of a batch node, each passing as an execution of its own', async () => {
    const clock = virtualClock();
    const batches: [number, string[]][] = [];
    const embed = defineNode({
      id: 'urn:test:call',
      outputs: ['ok'],
      maxBatch: 4,
      batch: async (items) => {
        batches.push([clock.now(), items.map((i) => i.id)]);
        return items.map(() => 'ok');
      },
    });
    const result = await createDispatcher({
      nodes: [embed],
      clock,
      policy: { gates: { api: { placements: ['call'], rate: { limit: 2, periodMs: 1000, burst: 2 } } } },
    }).run(chain, {}, { items: [{}, {}, {}, {}] });
    expect(result.status).toBe('completed');
    expect(batches).toEqual([
      [0, ['1', '2']],
      [500, ['3']],
      [1000, ['4']],
    ]);
  });

  it("counts a wait at the gate against a batch node's deadline too", async () => {
    const clock = virtualClock();
    const embed = defineNode({
      id: 'urn:test:call',
      outputs: ['ok'],
      batch: async (items) => {
        await clock.sleep(900);
        return items.map(() => 'ok');
      },
    });
    const events: RunEvent[] = [];
    await createDispatcher({
      nodes: [embed],
      clock,
      policy: {
        defaults: { deadlineMs: 1000 },
        classification: { retryTimeouts: false },
        gates: { api: { placements: ['call'], rate: { limit: 1, periodMs: 800 } } },
      },
    }).run(chain, {}, { items: [{}, {}], onEvent: (e) => events.push(e) });
    // Item 2 waited 800 ms at the gate: its batch has 200 ms left, and times out then.
    const ends = events.filter((e) => e.type === 'placement.end');
    expect(
      ends.map((e) => [
        (e as { item: string }).item,
        e.time,
        (e as { error?: { code: string } }).error?.code,
      ]),
    ).toEqual([
      ['1', 900, undefined],
      ['2', 1000, 'E_DEADLINE'],
    ]);
  });
});
