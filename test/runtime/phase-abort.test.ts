import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dag as buildDag } from '../../src/document/builder.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { httpError, virtualClock } from './helpers.ts';

// A run aborted before a pre phase starts: the phase's node must not be called, and whatever promise a node
// returns must be handled (an unhandled rejection ends a Node process).
const flow = buildDag('urn:prop:dag:phase-abort', { name: 'phase abort', version: '1' })
  .entry('work')
  .task('work', 'urn:prop:node:work')
  .route('ok', 'done')
  .terminal('done', 'completed')
  .phase('before', 'pre', 'urn:prop:node:before')
  .build();

describe('pre phases of an aborted run', () => {
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', record);
  });
  afterEach(() => {
    process.off('unhandledRejection', record);
  });

  it('do not call the phase node, and leave no rejected promise unhandled', async () => {
    let calls = 0;
    const dispatcher = createDispatcher({
      clock: virtualClock(),
      nodes: [
        defineNode({ id: 'urn:prop:node:work', outputs: ['ok'], run: () => 'ok' }),
        defineNode({
          id: 'urn:prop:node:before',
          outputs: [],
          run: async () => {
            calls++;
            throw httpError(503);
          },
        }),
      ],
    });
    const controller = new AbortController();
    controller.abort();
    const result = await dispatcher.run(flow, {}, { items: [{}, {}], signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    expect(result.status).toBe('aborted');
    expect(result.aborted.map((a) => a.item)).toEqual(['1', '2']);
    expect(unhandled).toEqual([]);
    expect(calls).toBe(0);
  });
});
