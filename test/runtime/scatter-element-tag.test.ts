/**
 * A scatter child's journal keys name its list element by a digest (see `journal-key.ts`): the element is
 * digested only when a child journals a step, and the key keeps its text.
 */
import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { elementTag } from '../../src/runtime/journal-key.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { virtualClock } from './helpers.ts';

/** A run whose list elements count every read of their field; answers the reads and the steps' keys. */
async function run(journals: boolean) {
  let reads = 0;
  const keys: string[] = [];
  const make = defineNode({
    id: 'urn:test:make',
    outputs: ['ok'],
    run: (item) => {
      // Made by a node, so the list reaches the scatter as this object, getter and all.
      item.data.xs = [0, 1].map((n) => ({
        get n() {
          reads += 1;
          return n;
        },
      }));
      return 'ok';
    },
  });
  const body = defineNode({
    id: 'urn:test:body',
    outputs: ['ok'],
    run: async (_item, ctx) => {
      if (journals) keys.push(await ctx.step('k', ({ idempotencyKey }) => idempotencyKey));
      return 'ok';
    },
  });
  const d = dag('urn:test:tag', { name: 'tag', version: '1' })
    .entry('make')
    .task('make', 'urn:test:make')
    .route('ok', 'fan')
    .scatter('fan', { items: '/xs', node: 'urn:test:body' })
    .route('done', 'join')
    .gather('join', { into: '/n', reducer: 'collect' })
    .route('completed', 'ok')
    .route('failed', 'ok')
    .terminal('ok', 'completed')
    .build();
  const result = await createDispatcher({ nodes: [make, body], clock: virtualClock() }).run(
    d,
    {},
    { runId: 'r' },
  );
  expect(result.items[0]?.terminal).toBe('ok');
  return { reads, keys };
}

describe('a scatter child’s element tag', () => {
  it('is not worked out for children that journal no step', async () => {
    // Each element is read twice: by the check of the data the node left, and to copy it into the child's data.
    expect((await run(false)).reads).toBe(4);
  });

  it('names the element in the key of a child’s step', async () => {
    const { reads, keys } = await run(true);
    expect(reads).toBeGreaterThan(4);
    expect(keys.sort()).toEqual([
      `r/1/fan[0:${elementTag({ n: 0 })}]/k`,
      `r/1/fan[1:${elementTag({ n: 1 })}]/k`,
    ]);
  });
});
