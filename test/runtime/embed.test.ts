import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { dagsLibrary, loadDag, recorder, virtualClock } from './helpers.ts';

const IRI = 'urn:switchyard:node:';

function nodes(validateSays: () => 'valid' | 'invalid', reviewSays: () => 'approved' | 'stale') {
  const calls = { compose: 0, validate: 0, review: 0, escalate: 0 };
  return {
    calls,
    list: [
      defineNode({
        id: `${IRI}compose`,
        outputs: ['drafted'],
        run: (item) => {
          calls.compose++;
          item.data.draft = `about ${String(item.data.topic)}`;
          return 'drafted';
        },
      }),
      defineNode({
        id: `${IRI}validate`,
        outputs: ['valid', 'invalid'],
        run: () => {
          calls.validate++;
          return validateSays();
        },
      }),
      defineNode({
        id: `${IRI}salvage`,
        outputs: ['salvaged'],
        run: (item) => {
          item.data.draft = 'salvaged draft';
          return 'salvaged';
        },
      }),
      defineNode({
        id: `${IRI}review`,
        outputs: ['approved', 'stale'],
        run: () => {
          calls.review++;
          return reviewSays();
        },
      }),
      defineNode({
        id: `${IRI}escalate`,
        outputs: ['queued'],
        run: () => {
          calls.escalate++;
          return 'queued';
        },
      }),
    ],
  };
}

describe('embedded DAGs', () => {
  it('maps input in and results out, and the child events carry the child DAG and item id', async () => {
    const n = nodes(
      () => 'valid',
      () => 'approved',
    );
    const rec = recorder();
    const result = await createDispatcher({
      nodes: n.list,
      library: await dagsLibrary(),
      clock: virtualClock(),
    }).run(await loadDag('review'), { topic: 'whales' }, { onEvent: rec.onEvent });
    expect(result.items).toMatchObject([
      { terminal: 'published', data: { topic: 'whales', answer: 'about whales' } },
    ]);
    expect(result.items[0]?.data).not.toHaveProperty('draft');
    expect(rec.of('item.end')).toMatchObject([
      { item: '1/draft', dag: 'urn:switchyard:dag:compose-validate', terminal: 'done' },
      { item: '1', dag: 'urn:switchyard:dag:review', terminal: 'published' },
    ]);
  });

  it('an outer retry gives the inner loop fresh budgets each time', async () => {
    const n = nodes(
      () => 'invalid',
      () => 'stale',
    );
    const rec = recorder();
    const policy = { defaults: { backoff: { strategy: 'constant' as const, baseMs: 1, capMs: 1 } } };
    const result = await createDispatcher({
      nodes: n.list,
      library: await dagsLibrary(),
      clock: virtualClock(),
      policy,
    }).run(await loadDag('review'), { topic: 'whales' }, { onEvent: rec.onEvent });
    expect(result.items).toMatchObject([
      { terminal: 'manual', outcome: 'failed', data: { answer: 'salvaged draft' } },
    ]);
    expect(n.calls).toEqual({ compose: 12, validate: 12, review: 3, escalate: 1 });
    const inner = rec.of('budget.exhausted').filter((e) => e.item === '1/draft');
    expect(inner).toHaveLength(3);
    expect(rec.of('budget.exhausted').filter((e) => e.item === '1')).toMatchObject([
      { budget: 'review', to: 'escalate', why: 'spent' },
    ]);
    expect(result.items[0]?.state.budgets).toEqual({ review: 2 });
    expect(result.status).toBe('failed');
  });
});
