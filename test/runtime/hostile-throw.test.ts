/**
 * A node that throws a hostile value (a Proxy whose traps throw, throwing getters, a symbol, …), or returns
 * one, makes an ordinary node error: the item takes the `error` route, a phase's error is in `phaseErrors`, the run's
 * promise resolves accounting for every item, and the events and the durable record hold plain JSON. A phase
 * returns nothing the run reads, so a hostile value it returns is not an error.
 */
import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { HOSTILE_THROWN } from '../fixtures/hostile-thrown.ts';

type Where =
  | 'task'
  | 'async task'
  | 'batch'
  | 'pre'
  | 'post'
  | 'returned'
  | 'resolved'
  | 'batch result'
  | 'pre returned';

const flow = (where: Where) => {
  let doc = dag(`urn:test:hostile:${where.replace(' ', '-')}`, { name: 'hostile', version: '1' })
    .entry('work')
    .task('work', where.startsWith('batch') ? 'urn:test:hostile:batch' : 'urn:test:hostile:work')
    .route('ok', 'done')
    .route('error', 'salvaged')
    .terminal('done', 'completed')
    .terminal('salvaged', 'failed');
  if (where === 'pre' || where === 'pre returned') doc = doc.phase('before', 'pre', 'urn:test:hostile:phase');
  if (where === 'post') doc = doc.phase('after', 'post', 'urn:test:hostile:phase');
  return doc.build();
};

function nodes(where: Where, make: () => unknown) {
  return [
    defineNode({
      id: 'urn:test:hostile:work',
      outputs: ['ok'],
      run: () => {
        if (where === 'task') throw make();
        if (where === 'async task') return Promise.reject(make());
        if (where === 'returned') return make() as never;
        if (where === 'resolved') return Promise.resolve(make() as never);
        return 'ok';
      },
    }),
    defineNode({
      id: 'urn:test:hostile:batch',
      outputs: ['ok'],
      batch: async (items) => {
        if (where === 'batch result') return items.map(() => make() as never);
        throw make();
      },
    }),
    defineNode({
      id: 'urn:test:hostile:phase',
      outputs: [],
      run: () => {
        if (where === 'pre returned') return make() as never;
        throw make();
      },
    }),
  ];
}

async function runWith(where: Where, make: () => unknown, durable: boolean) {
  const events: RunEvent[] = [];
  const store = durable ? createMemoryStore() : undefined;
  const dispatcher = createDispatcher({
    nodes: nodes(where, make),
    clock: createVirtualClock({ auto: true }),
    ...(store === undefined ? {} : { store }),
  });
  const result = await dispatcher.run(
    flow(where),
    {},
    { items: [{}, {}], onEvent: (e) => void events.push(e) },
  );
  // Every event, the result and the store's record are plain JSON.
  expect(JSON.parse(JSON.stringify(events))).toEqual(events);
  expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  if (store !== undefined) expect((await store.getRun(result.runId))?.status).toBe(result.status);
  return result;
}

const WHERE: readonly Where[] = [
  'task',
  'async task',
  'batch',
  'pre',
  'post',
  'returned',
  'resolved',
  'batch result',
  'pre returned',
];

for (const durable of [false, true]) {
  describe(`a hostile thrown value, ${durable ? 'durable run' : 'in process'}`, () => {
    for (const where of WHERE) {
      it.each(HOSTILE_THROWN)(`thrown by a ${where}: %s`, async (_what, make) => {
        const result = await runWith(where, make, durable);
        const ids = [...result.items.map((i) => i.id), ...result.failures.map((f) => f.id)].sort();
        expect(ids).toEqual(['1', '2']);
        if (where === 'pre') {
          expect(result.phaseErrors).toMatchObject([
            { placement: 'before', error: { code: 'E_NODE_ERROR' } },
          ]);
          expect(result.failures).toMatchObject([
            { id: '1', error: { code: 'E_NODE_ERROR' } },
            { id: '2', error: { code: 'E_NODE_ERROR' } },
          ]);
        } else if (where === 'pre returned') {
          expect(result.phaseErrors).toEqual([]);
          expect(result.items).toMatchObject([{ terminal: 'done' }, { terminal: 'done' }]);
        } else if (where === 'post') {
          expect(result.phaseErrors).toMatchObject([{ placement: 'after', error: { code: 'E_NODE_ERROR' } }]);
          expect(result.items).toMatchObject([{ terminal: 'done' }, { terminal: 'done' }]);
        } else {
          expect(result.failures).toEqual([]);
          expect(result.items).toMatchObject([{ terminal: 'salvaged' }, { terminal: 'salvaged' }]);
        }
      });
    }
  });
}
