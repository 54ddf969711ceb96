import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Dag, Placement, Route } from '../../src/document/model.ts';
import { analyse } from '../../src/graph/analyse.ts';
import { budgetSpends, computeBounds } from '../../src/graph/bounds.ts';
import { compile } from '../../src/graph/compile.ts';
import { flowGraph } from '../../src/graph/flow.ts';
import { explore } from './brute-force.ts';
import { libraryOf, sampleDags, sketch } from './helpers.ts';
import { graphSpec, randomDag } from './random-dag.ts';

const samples = sampleDags();
const library = libraryOf(samples.values());
const sample = (name: string): Dag => samples.get(name) as Dag;

describe('computeBounds on the sample documents', () => {
  it('multiplies nested loops: execute runs at most (2 + 1) × (3 + 1) = 12 times', () => {
    const bounds = computeBounds(compile(sample('nested-retry.jsonld')));
    expect(Object.fromEntries(bounds.perPlacement)).toEqual({
      plan: 3n,
      execute: 12n,
      check: 3n,
      done: 1n,
      gave_up: 1n,
    });
    expect(Object.fromEntries(bounds.spends)).toEqual({ replan: 2n, step: 9n });
    expect(bounds.total).toBe(19n);
    expect(bounds.unboundedBecause).toBeUndefined();
    const explored = explore(sample('nested-retry.jsonld'));
    expect(explored.perPlacement.get('execute')).toBe(12n);
    expect(explored.perPlacement.get('plan')).toBe(3n);
    // check follows the inner loop, so it runs once per plan: the bound is exact there too.
    expect(explored.perPlacement.get('check')).toBe(3n);
  });

  it('adds loops that share a placement: compose runs at most 1 + 3 + 2 = 6 times', () => {
    const bounds = computeBounds(compile(sample('compose-validate.jsonld')));
    expect(bounds.perPlacement.get('compose')).toBe(6n);
    expect(explore(sample('compose-validate.jsonld')).perPlacement.get('compose')).toBe(6n);
  });

  it('multiplies an embed by the embedded document total', () => {
    const child = computeBounds(compile(sample('compose-validate.jsonld'))).total;
    const bounds = computeBounds(compile(sample('review.jsonld')), library);
    expect(bounds.perPlacement.get('draft')).toBe(3n);
    expect(bounds.embedded.get('draft')).toBe(child);
    // draft and review 3 times each; escalate once (no retry can follow it); one terminal; and 3 runs of
    // compose-validate.
    expect(bounds.perPlacement.get('escalate')).toBe(1n);
    expect(bounds.total).toBe(3n + 3n + 1n + 1n + 3n * (child as bigint));
  });

  it('is unbounded, saying why, when an embedded document is unknown', () => {
    const bounds = computeBounds(compile(sample('review.jsonld')));
    expect(bounds.total).toBeNull();
    expect(bounds.perPlacement.get('draft')).toBe(3n);
    expect(bounds.unboundedBecause).toContain("'urn:switchyard:dag:compose-validate' is not in the library");
  });

  it('reports scatter children per child, apart from the total', () => {
    const bounds = computeBounds(compile(sample('scatter-gather.jsonld')));
    expect(bounds.children.get('search')).toBe(1n);
    expect(bounds.total).toBe(4n);
    const viaDag = sample('scatter-gather.jsonld');
    const placements = viaDag.placements.map((p): Placement => {
      if (p.kind !== 'scatter') return p;
      const { node: _node, ...rest } = p;
      return { ...rest, dag: 'urn:switchyard:dag:nested-retry' };
    });
    const scattered = computeBounds(compile({ ...viaDag, placements }), library);
    expect(scattered.children.get('search')).toBe(19n);
    expect(scattered.total).toBe(4n);
  });

  it('computes spends through chains of resets', () => {
    const retry = (budget: string, resets: string[]): Partial<Route> => ({
      output: `r-${budget}`,
      kind: 'retry',
      to: 'a',
      budget,
      exhausted: 'end',
      resets,
    });
    const dag = sketch({
      budgets: { x: 2, y: 3, z: 1 },
      nodes: { a: [{ to: 'end' }, retry('x', ['y', 'z']), retry('y', ['z']), retry('z', [])], end: [] },
    });
    // x = 2; y = 3 × (1 + 2) = 9; z = 1 × (1 + 2 + 9) = 12.
    expect(budgetSpends(flowGraph(dag))).toEqual([2n, 9n, 12n]);
    expect(computeBounds(compile(dag)).perPlacement.get('a')).toBe(1n + 2n + 9n + 12n);
    expect(explore(dag).perPlacement.get('a')).toBe(24n);
  });
});

const proved = (dag: Dag) =>
  !analyse(dag).some((p) => p.code === 'E_UNBOUNDED_LOOP' || p.code === 'E_RESET_CYCLE');

describe('computeBounds against brute force', () => {
  it('never bounds a placement below the most executions any walk makes', () => {
    let checked = 0;
    fc.assert(
      fc.property(graphSpec, (spec) => {
        const dag = randomDag(spec);
        if (!proved(dag)) return;
        checked++;
        const bounds = computeBounds(compile(dag));
        const explored = explore(dag);
        for (const [key, most] of explored.perPlacement) {
          expect(bounds.perPlacement.get(key), key).toBeGreaterThanOrEqual(most);
        }
        expect(bounds.total).toBeGreaterThanOrEqual(explored.total);
      }),
      { numRuns: 400, seed: 20_240_611 },
    );
    expect(checked).toBeGreaterThan(100);
  });

  it('is exact inside properly nested loops whose outer loops reset the inner ones', () => {
    const nested = fc.record({
      length: fc.integer({ min: 1, max: 5 }),
      maxes: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 3 }),
      ends: fc.array(fc.nat(99), { minLength: 6, maxLength: 6 }),
    });
    fc.assert(
      fc.property(nested, ({ length, maxes, ends }) => {
        const levels = maxes.length;
        const points = ends.slice(0, 2 * levels).map((e) => e % length);
        points.sort((a, b) => a - b);
        const loops = maxes.map((max, j) => ({
          max,
          to: points[j] as number,
          from: points[2 * levels - 1 - j] as number,
          resets: maxes.slice(j + 1).map((_, k) => `l${j + 1 + k}`),
        }));
        const key = (i: number) => (i < length ? `c${i}` : 'end');
        const nodes: Record<string, Partial<Route>[]> = {};
        for (let i = 0; i < length; i++) {
          nodes[key(i)] = [
            { output: 'next', to: key(i + 1) },
            ...loops.flatMap((loop, j) =>
              loop.from === i
                ? [
                    {
                      output: `r${j}`,
                      kind: 'retry',
                      to: key(loop.to),
                      budget: `l${j}`,
                      exhausted: 'end',
                      resets: loop.resets,
                    } as const,
                  ]
                : [],
            ),
          ];
        }
        nodes.end = [];
        const dag = sketch({
          entry: 'c0',
          budgets: Object.fromEntries(maxes.map((m, j) => [`l${j}`, m])),
          nodes,
        });
        expect(proved(dag)).toBe(true);
        const bounds = computeBounds(compile(dag));
        const explored = explore(dag);
        for (let i = 0; i < length; i++) {
          const most = explored.perPlacement.get(key(i)) as bigint;
          expect(bounds.perPlacement.get(key(i))).toBeGreaterThanOrEqual(most);
          const enclosed = loops.every((loop) => loop.to > i || i <= loop.from);
          if (enclosed) expect(bounds.perPlacement.get(key(i)), key(i)).toBe(most);
        }
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
