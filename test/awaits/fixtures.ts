import type { Dag, Placement } from '../../src/document/model.ts';
import type { Clock } from '../../src/policy/types.ts';
import { defineNode } from '../../src/runtime/node.ts';

/** A review DAG: draft → review (await approved | rejected, data at /review) → publish | drop; deadline → escalate. */
export function reviewDag(id = 'urn:switchyard:test:review', extra: readonly Placement[] = []): Dag {
  return {
    id,
    name: 'review',
    version: '1',
    entrypoints: ['draft'],
    budgets: [],
    placements: [
      {
        key: 'draft',
        kind: 'task',
        node: 'urn:test:draft',
        routes: [{ output: 'done', to: 'review', kind: 'next' }],
      },
      { key: 'drop', kind: 'terminal', outcome: 'failed', routes: [] },
      { key: 'escalate', kind: 'terminal', outcome: 'failed', routes: [] },
      { key: 'publish', kind: 'terminal', outcome: 'completed', routes: [] },
      {
        key: 'review',
        kind: 'await',
        answers: ['approved', 'rejected'],
        into: '/review',
        routes: [
          { output: 'approved', to: 'publish', kind: 'next' },
          { output: 'deadline', to: 'escalate', kind: 'next' },
          { output: 'rejected', to: 'drop', kind: 'next' },
        ],
      },
      ...extra,
    ].sort((a, b) => (a.key < b.key ? -1 : 1)) as Placement[],
  };
}

/** The draft node: marks the item drafted. */
export const draft = defineNode({
  id: 'urn:test:draft',
  outputs: ['done'],
  run: (item) => {
    item.data.drafted = true;
    return 'done';
  },
});

/** A policy giving the review await a deadline of `ms`. */
export function reviewPolicy(ms = 60_000) {
  return { placements: { review: { deadlineMs: ms } } };
}

/** A draft node that takes `ms` on `clock`, as a model call would. */
export const slowDraft = (clock: Clock, ms: number) =>
  defineNode({
    id: 'urn:test:draft',
    outputs: ['done'],
    run: async (item, ctx) => {
      await clock.sleep(ms, ctx.signal);
      item.data.drafted = true;
      return 'done';
    },
  });
