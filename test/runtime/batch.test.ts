import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { virtualClock } from './helpers.ts';

const chain = dag('urn:test:batch', { name: 'batch', version: '1' })
  .budget('again', 1)
  .entry('embed')
  .task('embed', 'urn:test:embed')
  .route('ok', 'done')
  .retry('again', 'embed', { budget: 'again', exhausted: 'failed' })
  .route('error', 'failed')
  .terminal('done', 'completed')
  .terminal('failed', 'failed')
  .build();

describe('batch nodes', () => {
  it('receive the items waiting at the placement together, up to maxBatch, with per-item results', async () => {
    const sizes: number[] = [];
    const embed = defineNode({
      id: 'urn:test:embed',
      outputs: ['ok', 'again'],
      maxBatch: 4,
      batch: async (items, ctx) => {
        sizes.push(items.length);
        return items.map((item, i) => {
          item.data.vector = [Number(item.id)];
          return ctx.contexts[i]?.attempts('again') === 0 && item.id === '2' ? 'again' : 'ok';
        });
      },
    });
    const result = await createDispatcher({
      nodes: [embed],
      clock: virtualClock(),
      policy: { defaults: { backoff: { baseMs: 1 } } },
    }).run(chain, {}, { items: Array.from({ length: 6 }, () => ({})) });
    expect(sizes).toEqual([4, 2, 1]);
    expect(result.items.map((i) => [i.id, i.terminal, i.data.vector])).toEqual(
      Array.from({ length: 6 }, (_, i) => [String(i + 1), 'done', [i + 1]]),
    );
    expect(result.stats.executions).toBe(7);
  });

  it('a thrown batch error applies to each item of the batch', async () => {
    const embed = defineNode({
      id: 'urn:test:embed',
      outputs: ['ok', 'again'],
      batch: async () => {
        throw Object.assign(new Error('bad request'), { status: 400 });
      },
    });
    const result = await createDispatcher({ nodes: [embed], clock: virtualClock() }).run(
      chain,
      {},
      { items: [{}, {}, {}] },
    );
    expect(result.items.map((i) => i.terminal)).toEqual(['failed', 'failed', 'failed']);
  });

  it('a batch returning the wrong number of results fails each item with E_NODE_ERROR, routed', async () => {
    const embed = defineNode({ id: 'urn:test:embed', outputs: ['ok', 'again'], batch: async () => ['ok'] });
    const result = await createDispatcher({ nodes: [embed], clock: virtualClock() }).run(
      chain,
      {},
      { items: [{}, {}] },
    );
    expect(result.items.map((i) => i.terminal)).toEqual(['failed', 'failed']);
  });
});
