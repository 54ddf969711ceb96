import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { httpError, loadDag, recorder, virtualClock } from './helpers.ts';

describe('journaled steps', () => {
  it('charges once and notifies three times when notify fails twice with 503', async () => {
    let charges = 0;
    let notifies = 0;
    const checkout = defineNode({
      id: 'urn:switchyard:node:checkout',
      outputs: ['done'],
      run: async (item, ctx) => {
        item.data.receipt = await ctx.step('charge', () => ({ receipt: `r-${++charges}` }));
        await ctx.step('notify', () => {
          notifies++;
          if (notifies <= 2) throw httpError(503);
          return true;
        });
        return 'done';
      },
    });
    const rec = recorder();
    const result = await createDispatcher({ nodes: [checkout], clock: virtualClock() }).run(
      await loadDag('checkout'),
      { amount: 5 },
      { onEvent: rec.onEvent },
    );
    expect(charges).toBe(1);
    expect(notifies).toBe(3);
    expect(result.items).toMatchObject([{ terminal: 'paid', data: { receipt: { receipt: 'r-1' } } }]);
    expect(rec.of('retry.scheduled')).toHaveLength(2);
    expect(result.items[0]?.state.journal).toEqual({
      charge: { value: { receipt: 'r-1' } },
      notify: { value: true },
    });
  });

  it('a resumed item replays its recorded steps', async () => {
    let calls = 0;
    const checkout = defineNode({
      id: 'urn:switchyard:node:checkout',
      outputs: ['done'],
      run: async (item, ctx) => {
        item.data.value = await ctx.step('charge', () => ++calls);
        return 'done';
      },
    });
    const dispatcher = createDispatcher({ nodes: [checkout], clock: virtualClock() });
    const d = await loadDag('checkout');
    const first = await dispatcher.run(d, {});
    const saved = JSON.parse(JSON.stringify(first.items[0]?.state));
    const second = await dispatcher.run(d, {}, { resume: [saved] });
    expect(calls).toBe(1);
    expect(second.items[0]?.data.value).toBe(1);
  });
});
