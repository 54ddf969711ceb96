import { describe, expect, it } from 'vitest';
import { nodes as stdNodes } from '../../nodes/std/index.ts';
import { dag } from '../../src/document/builder.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { virtualClock } from './helpers.ts';

describe('std nodes', () => {
  it('echo fans a list out and back in unchanged; check-result retries an empty result', async () => {
    let fetches = 0;
    const fetch = defineNode({
      id: 'urn:test:fetch',
      outputs: ['ok'],
      run: (item) => {
        fetches++;
        item.data.result = fetches < 2 ? [] : ['hit'];
        return 'ok';
      },
    });
    const d = dag('urn:test:std', { name: 'std', version: '1' })
      .budget('refetch', 2)
      .entry('fan')
      .scatter('fan', { items: '/xs', node: 'urn:switchyard:node:std:echo' })
      .route('done', 'join')
      .gather('join', { into: '/ys' })
      .route('completed', 'fetch')
      .route('failed', 'bad')
      .task('fetch', 'urn:test:fetch')
      .route('ok', 'check')
      .task('check', 'urn:switchyard:node:std:check-result')
      .route('present', 'pass')
      .retry('empty', 'fetch', { budget: 'refetch', exhausted: 'bad' })
      .task('pass', 'urn:switchyard:node:std:pass')
      .route('ok', 'done')
      .terminal('done', 'completed')
      .terminal('bad', 'failed')
      .build();
    const result = await createDispatcher({ nodes: [...stdNodes, fetch], clock: virtualClock() }).run(d, {
      xs: [1, { a: 2 }, 'three'],
    });
    expect(result.items).toMatchObject([
      { terminal: 'done', data: { ys: [1, { a: 2 }, 'three'], result: ['hit'] } },
    ]);
    expect(result.stats.retries).toBe(1);
  });
});
