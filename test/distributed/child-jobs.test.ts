/**
 * A scatter child's job (format 4) carries its list element and its gather record; the worker makes the
 * child's item job from the parent on the record. It must be the item job a format-3 scatter wrote for the
 * same child (whose jobs workers keep reading across a rolling upgrade), once each has been through JSON as
 * job data does. A child job that lacks its record or index is refused.
 */
import { describe, expect, it } from 'vitest';
import { childItemJob } from '../../src/distributed/child-jobs.ts';
import type { ParentAtScatter } from '../../src/distributed/gather-record.ts';
import { type ChildJob, type ItemJob, JOB_FORMAT, readJob } from '../../src/distributed/job-data.ts';
import { revive } from '../../src/distributed/job-scope.ts';
import { dag } from '../../src/document/builder.ts';
import { compile } from '../../src/graph/compile.ts';
import { resolvePolicy } from '../../src/policy/resolve.ts';
import { countVisit, createItemState, type ItemState } from '../../src/runtime/item-state.ts';
import { scatterChild } from '../../src/runtime/kinds/scatter.ts';
import { createRegistry } from '../../src/runtime/node.ts';
import { prepare } from '../../src/runtime/prepare.ts';

const body = dag('urn:test:child-jobs:body', { name: 'body', version: '1' })
  .entry('double')
  .task('double', 'urn:test:double')
  .route('ok', 'done')
  .terminal('done', 'completed')
  .build();

const parentDoc = dag('urn:test:child-jobs', { name: 'child-jobs', version: '1' })
  .entry('fan')
  .scatter('fan', { items: '/xs', dag: 'urn:test:child-jobs:body' })
  .route('done', 'join')
  .scatter('each', { items: '/xs', node: 'urn:test:double' })
  .route('done', 'join')
  .gather('join', { into: '/out', reducer: 'collect' })
  .route('completed', 'ok')
  .route('failed', 'ok')
  .terminal('ok', 'completed')
  .build();

const policy = resolvePolicy({});
const registry = createRegistry([]);
const prep = prepare(compile(parentDoc), policy, registry);
const bodyPrep = prepare(compile(body), policy, registry);

/** Through JSON, as job data and the gather record go. */
function wire<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** The parent as a scatter at `placement` leaves it, an item inside another scatter's child. */
function parentAt(placement: string): { state: ItemState; record: ParentAtScatter } {
  const base = createItemState('1.4', { xs: [{ n: 1 }, 'two', null] });
  const state: ItemState = {
    ...base,
    journal: { 'outer[4:x]/step': { value: 7 } } as unknown as ItemState['journal'],
    scope: 'outer[4:x]/',
    root: '1',
    frames: [{ kind: 'scatter', dag: 'urn:test:outer', placement: 'outer', visit: 1, index: 4 }],
  };
  countVisit(state, placement);
  countVisit(state, placement);
  return { state, record: wire({ at: placement, state, delays: [], startedWall: 0 }) };
}

describe('child jobs', () => {
  for (const [placement, kind] of [
    ['fan', 'dag'],
    ['each', 'node'],
  ] as const) {
    it(`make the item job a format-3 scatter wrote, for a ${kind} body`, () => {
      const { state, record } = parentAt(placement);
      const gather = 'sy:run:{r}:gather:x';
      const entry = { parent: state, placement, dag: prep.compiled.dag.id, visit: 2 };
      for (const [index, element] of [{ n: 1 }, 'two', null].entries()) {
        const old: ItemJob = {
          v: 3,
          kind: 'item',
          runId: 'r',
          at: kind === 'dag' ? 'double' : placement,
          ...(kind === 'dag' ? { dag: 'urn:test:child-jobs:body' } : {}),
          state: scatterChild(entry, index, element),
          delays: [],
          child: { gather, index, body: kind },
        };
        const job = wire<ChildJob>({
          v: JOB_FORMAT,
          kind: 'child',
          runId: 'r',
          gather,
          index,
          body: kind,
          item: element,
        });
        expect(readJob(job)).toBe(job);
        const made = childItemJob(job, record, prep, (iri) =>
          iri === 'urn:test:child-jobs:body' ? bodyPrep : undefined,
        );
        const { state: madeState, v: _v, ...madeRest } = wire(made);
        const { state: oldState, v: _old, ...oldRest } = wire(old);
        expect(madeRest).toEqual(oldRest);
        expect(revive(madeState)).toEqual(revive(oldState));
        expect(revive(madeState).scope).toBe(revive(oldState).scope);
      }
    });
  }

  it('refuses a child job without its gather record or index', () => {
    expect(() => readJob({ v: JOB_FORMAT, kind: 'child', runId: 'r', index: 1, body: 'dag' })).toThrow(
      "a child job of run 'r' lacks its gather record or index",
    );
    expect(() => readJob({ v: JOB_FORMAT, kind: 'child', runId: 'r', gather: 'g', body: 'node' })).toThrow(
      'lacks its gather record or index',
    );
  });
});
