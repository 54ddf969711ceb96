import { describe, expect, it } from 'vitest';
import type { Dag, Placement } from '../../src/document/model.ts';
import { analyse } from '../../src/graph/analyse.ts';
import { computeBounds } from '../../src/graph/bounds.ts';
import { compile } from '../../src/graph/compile.ts';
import { findCycles, proveTermination } from '../../src/graph/cycles.ts';
import { cycleWithin, stronglyConnected } from '../../src/graph/scc.ts';
import { sampleDags, sketch } from './helpers.ts';

const samples = sampleDags();

/** A chain of `size` tasks; the last one loops back to the first, by a budgeted retry unless `unbounded`. */
function longChain(size: number, unbounded = false): Dag {
  const key = (i: number) => `p${String(i).padStart(5, '0')}`;
  const placements: Placement[] = [{ key: 'end', kind: 'terminal', outcome: 'completed', routes: [] }];
  for (let i = 0; i < size; i++) {
    const routes: Placement['routes'][number][] = [
      { output: 'next', to: i + 1 < size ? key(i + 1) : 'end', kind: 'next' },
    ];
    if (i === size - 1) {
      routes.push(
        unbounded
          ? { output: 'again', to: key(0), kind: 'next' }
          : { output: 'again', to: key(0), kind: 'retry', budget: 'laps', exhausted: 'end' },
      );
    }
    placements.push({ key: key(i), kind: 'task', node: 'urn:test:node:step', routes });
  }
  return {
    id: 'urn:test:long',
    name: 'long',
    version: '1',
    entrypoints: [key(0)],
    budgets: [{ name: 'laps', max: 4 }],
    placements: placements.sort((a, b) => (a.key < b.key ? -1 : 1)),
  };
}

describe('strongly connected components', () => {
  it('lists components sinks first and finds a shortest cycle', () => {
    const adj = [[1], [2, 0], [3], [2], [4]];
    expect(stronglyConnected(adj)).toEqual([[2, 3], [0, 1], [4]]);
    expect(cycleWithin([0, 1], adj)).toEqual([0, 1]);
    expect(cycleWithin([4], adj)).toEqual([4]);
    expect(cycleWithin([0], [[1], []])).toEqual([]);
  });

  it('handles a 200,000-vertex chain without overflowing the stack', () => {
    const n = 200_000;
    const adj = Array.from({ length: n }, (_, i) => (i + 1 < n ? [i + 1] : [0]));
    const components = stronglyConnected(adj);
    expect(components).toHaveLength(1);
    expect(components[0]).toHaveLength(n);
    expect(cycleWithin(components[0] as number[], adj)).toHaveLength(n);
  });
});

describe('termination proof', () => {
  it('accepts every sample document', () => {
    for (const dag of samples.values()) expect(proveTermination(dag)).toEqual([]);
  });

  it('rejects a next route looping to its own placement', () => {
    const dag = sketch({ nodes: { a: [{ to: 'a' }, { to: 'end' }], end: [] } });
    expect(proveTermination(dag)).toMatchObject([
      { code: 'E_UNBOUNDED_LOOP', cycle: ['a'], placement: 'a', pointer: '/placements/0/routes/0/to' },
    ]);
  });

  it('names one cycle per loop that no budget bounds', () => {
    const dag = sketch({
      budgets: { tries: 1 },
      nodes: {
        a: [{ to: 'b' }],
        b: [{ to: 'c' }, { output: 'retry', kind: 'retry', to: 'a', budget: 'tries', exhausted: 'end' }],
        c: [{ to: 'd' }, { to: 'end' }],
        d: [{ to: 'c' }],
        end: [],
      },
    });
    const problems = proveTermination(dag);
    expect(problems.map((p) => p.cycle)).toEqual([['c', 'd']]);
    expect(problems[0]?.message).toContain('c → d → c');
  });

  it('rejects a route resetting the budget it spends', () => {
    const dag = sketch({
      budgets: { tries: 2 },
      nodes: {
        a: [
          { to: 'end' },
          { output: 'retry', kind: 'retry', to: 'a', budget: 'tries', exhausted: 'end', resets: ['tries'] },
        ],
        end: [],
      },
    });
    expect(proveTermination(dag)).toMatchObject([
      { code: 'E_RESET_CYCLE', cycle: ['tries'], pointer: '/placements/0/routes/1/resets/0' },
    ]);
  });

  it('rejects budgets resetting each other through several routes', () => {
    const retry = (budget: string, resets: string) =>
      ({
        output: `retry-${budget}`,
        kind: 'retry',
        to: 'a',
        budget,
        exhausted: 'end',
        resets: [resets],
      }) as const;
    const dag = sketch({
      budgets: { x: 1, y: 1, z: 1 },
      nodes: { a: [{ to: 'end' }, retry('x', 'y'), retry('y', 'z'), retry('z', 'x')], end: [] },
    });
    const [reset] = proveTermination(dag);
    expect(reset).toMatchObject({ code: 'E_RESET_CYCLE', cycle: ['x', 'y', 'z'] });
    expect(reset?.message).toContain('x → y → z → x');
  });

  it('analyses a 1,000-placement document with a loop', () => {
    const dag = longChain(1000);
    expect(analyse(dag)).toEqual([]);
    const bounds = computeBounds(compile(dag));
    expect(bounds.perPlacement.get('p00999')).toBe(5n);
    const problems = analyse(longChain(1000, true));
    expect(problems.map((p) => p.code)).toEqual(['E_UNBOUNDED_LOOP', 'W_UNUSED_BUDGET']);
    expect(problems[0]?.cycle).toHaveLength(1000);
  });
});

describe('findCycles', () => {
  it('lists each budget with the loop its retry routes close', () => {
    const loops = findCycles(compile(samples.get('nested-retry.jsonld') as Dag));
    expect(loops).toEqual([
      {
        budget: 'replan',
        max: 2,
        routes: [
          {
            from: 'check',
            output: 'rejected',
            to: 'plan',
            exhausted: 'gave_up',
            loop: ['check', 'execute', 'plan'],
          },
        ],
        placements: ['check', 'execute', 'plan'],
        resets: ['step'],
      },
      {
        budget: 'step',
        max: 3,
        routes: [
          { from: 'execute', output: 'retry', to: 'execute', exhausted: 'gave_up', loop: ['execute'] },
        ],
        placements: ['execute'],
        resets: [],
      },
    ]);
  });

  it('gives a retry route that closes no loop an empty loop', () => {
    const dag = sketch({
      budgets: { hop: 1, spare: 2 },
      nodes: {
        a: [{ output: 'retry', kind: 'retry', to: 'b', budget: 'hop', exhausted: 'end' }],
        b: [{ to: 'end' }],
        end: [],
      },
    });
    expect(findCycles(compile(dag))).toMatchObject([
      { budget: 'hop', routes: [{ from: 'a', to: 'b', loop: [] }], placements: [] },
      { budget: 'spare', routes: [], placements: [] },
    ]);
  });
});
