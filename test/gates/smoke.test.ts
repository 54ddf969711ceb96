import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { virtualClock } from '../runtime/helpers.ts';

const chain = dag('urn:test:gate', { name: 'gate', version: '1' })
  .budget('again', 3)
  .entry('call')
  .task('call', 'urn:test:call')
  .route('ok', 'done')
  .retry('retry', 'call', { budget: 'again', exhausted: 'failed' })
  .route('error', 'failed')
  .terminal('done', 'completed')
  .terminal('failed', 'failed')
  .build();

describe('gates smoke', () => {
  it('a 429 closes the gate for every item', async () => {
    const clock = virtualClock();
    const calls: [string, number][] = [];
    let first = true;
    const call = defineNode({
      id: 'urn:test:call',
      outputs: ['ok'],
      run: async (item) => {
        calls.push([item.id, clock.now()]);
        if (first) {
          first = false;
          throw Object.assign(new Error('429'), { status: 429, retryAfter: 2000 });
        }
        return 'ok';
      },
    });
    const events: RunEvent[] = [];
    const result = await createDispatcher({
      nodes: [call],
      clock,
      policy: { gates: { api: { placements: ['call'], rate: { limit: 10, periodMs: 1000 } } } },
    }).run(chain, {}, { items: [{}, {}, {}, {}], onEvent: (e) => events.push(e) });
    console.log(
      calls,
      events
        .filter((e) => e.type.startsWith('gate'))
        .map((e) => [e.type, e.time, (e as { item?: string }).item, (e as { why?: string }).why]),
    );
    expect(result.items.map((i) => i.terminal)).toEqual(['done', 'done', 'done', 'done']);
  });
});
