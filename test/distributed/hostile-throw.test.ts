/**
 * Hostile thrown values in a distributed run, on a real Redis: a task's takes the item along its `error`
 * route, a phase's is in `phaseErrors`, and the run's promise resolves accounting for every item, as in one
 * process. Every key is removed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { HOSTILE_THROWN } from '../fixtures/hostile-thrown.ts';
import { removeScratchKeys } from '../store/redis-scratch.ts';
import { scratchCluster } from './fixtures/scratch-cluster.ts';

afterAll(removeScratchKeys);

/** Which hostile value a node throws: the one named by the item's `k`, or the run item's `phaseValue`. */
let phaseValue = 0;
const throwing = (k: unknown) => {
  throw (HOSTILE_THROWN[Number(k)]?.[1] ?? (() => undefined))();
};

const nodes = [
  defineNode({ id: 'urn:test:hostile:work', outputs: ['ok'], run: (item) => throwing(item.data.k) }),
  defineNode({ id: 'urn:test:hostile:fine', outputs: ['ok'], run: () => 'ok' }),
  defineNode({ id: 'urn:test:hostile:phase', outputs: [], run: () => throwing(phaseValue) }),
];

function flow(task: 'work' | 'fine', phase?: 'pre' | 'post') {
  let doc = dag(`urn:test:hostile:dist:${task}:${phase ?? 'none'}`, { name: 'hostile', version: '1' })
    .entry('work')
    .task('work', `urn:test:hostile:${task}`)
    .route('ok', 'done')
    .route('error', 'salvaged')
    .terminal('done', 'completed')
    .terminal('salvaged', 'failed');
  if (phase !== undefined) doc = doc.phase(phase, phase, 'urn:test:hostile:phase');
  return doc.build();
}

describe('hostile thrown values in a distributed run', () => {
  it('a task that throws one takes its error route; a pre or post phase that throws one is a phase error', {
    timeout: 60_000,
  }, async () => {
    const lab = await scratchCluster({ nodes });
    try {
      await lab.start();
      const items = HOSTILE_THROWN.map((_value, k) => ({ k }));
      const tasks = await lab.dispatcher.run(flow('work'), {}, { items });
      expect(tasks.failures).toEqual([]);
      expect(tasks.items.map((i) => i.terminal)).toEqual(items.map(() => 'salvaged'));

      for (const [k, [what]] of HOSTILE_THROWN.entries()) {
        phaseValue = k;
        const pre = await lab.dispatcher.run(flow('fine', 'pre'), {}, { items: [{}, {}] });
        expect(pre.phaseErrors, what).toMatchObject([{ placement: 'pre', error: { code: 'E_NODE_ERROR' } }]);
        expect(
          pre.failures.map((f) => [f.id, f.error.code]),
          what,
        ).toEqual([
          ['1', 'E_NODE_ERROR'],
          ['2', 'E_NODE_ERROR'],
        ]);
        const post = await lab.dispatcher.run(flow('fine', 'post'), {}, { items: [{}, {}] });
        expect(post.phaseErrors, what).toMatchObject([
          { placement: 'post', error: { code: 'E_NODE_ERROR' } },
        ]);
        expect(
          post.items.map((i) => i.terminal),
          what,
        ).toEqual(['done', 'done']);
      }
    } finally {
      await lab.close();
    }
  });
});
