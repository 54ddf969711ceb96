import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateChain, generateDag, generateLattice } from '../../bench/generate.ts';
import { canonicalNQuads } from '../../src/document/hash.ts';
import { canonize } from '../../src/document/jsonld-api.ts';
import type { Budget, Dag, Placement, Route } from '../../src/document/model.ts';
import { toDocument } from '../../src/document/serialise.ts';
import { analyse } from '../../src/graph/analyse.ts';
import { computeBounds } from '../../src/graph/bounds.ts';
import { compile } from '../../src/graph/compile.ts';
import { findCycles } from '../../src/graph/cycles.ts';
import { type ReachWork, weightedReach } from '../../src/graph/weighted-reach.ts';
import { runCli } from '../cli/run-cli.ts';
import { explore } from '../graph/brute-force.ts';
import { sampleDags } from '../graph/helpers.ts';

const PROTOTYPE_NAMES = ['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__proto__'] as const;
const NODE = 'urn:test:node';

const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
const byName = (a: Budget, b: Budget) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const byOutput = (a: Route, b: Route) => (a.output < b.output ? -1 : a.output > b.output ? 1 : 0);

/** A model in canonical order, built from lists so that no name ever becomes an object key. */
function model(id: string, entry: string, budgets: Budget[], placements: Placement[]): Dag {
  return {
    id,
    name: id,
    version: '1',
    entrypoints: [entry],
    budgets: [...budgets].sort(byName),
    placements: placements.map((p) => ({ ...p, routes: [...p.routes].sort(byOutput) })).sort(byKey),
  } as Dag;
}

/**
 * A `start` task whose outputs, named after the prototype names, lead to a task of that name, which retries
 * itself on a budget of that name (max 2) and then goes to `end`.
 */
function prototypeDag(): Dag {
  const placements: Placement[] = PROTOTYPE_NAMES.map((name) => ({
    key: name,
    kind: 'task',
    node: NODE,
    routes: [
      { output: name, kind: 'next', to: 'end' },
      { output: `${name}-again`, kind: 'retry', to: name, budget: name, exhausted: 'end' },
    ],
  }));
  placements.push({
    key: 'start',
    kind: 'task',
    node: NODE,
    routes: PROTOTYPE_NAMES.map((name) => ({ output: name, kind: 'next', to: name })),
  });
  placements.push({ key: 'end', kind: 'terminal', outcome: 'completed', routes: [] });
  const budgets = PROTOTYPE_NAMES.map((name) => ({ name, max: 2 }));
  return model('urn:test:prototype-names', 'start', budgets, placements);
}

/**
 * One task `a` retrying itself through `levels` budgets of max `max`, each resetting every budget after it:
 * loops nested `levels` deep. Budget k is spent at most max × (max + 1)^k times, and `a` runs (max + 1)^levels
 * times.
 */
function nestedDag(levels: number, max: number): Dag {
  const names = Array.from({ length: levels }, (_, k) => `b${String(k).padStart(2, '0')}`);
  const routes: Route[] = names.map((name, k) => ({
    output: `r${String(k).padStart(2, '0')}`,
    kind: 'retry',
    to: 'a',
    budget: name,
    exhausted: 'end',
    resets: names.slice(k + 1),
  }));
  routes.push({ output: 'ok', kind: 'next', to: 'end' });
  return model(
    `urn:test:nested-${levels}`,
    'a',
    names.map((name) => ({ name, max })),
    [
      { key: 'a', kind: 'task', node: NODE, routes },
      { key: 'end', kind: 'terminal', outcome: 'completed', routes: [] },
    ],
  );
}

function writeDocument(dag: Dag): string {
  const folder = mkdtempSync(join(tmpdir(), 'switchyard-analysis-'));
  const file = join(folder, 'dag.jsonld');
  writeFileSync(file, JSON.stringify(toDocument(dag), null, 2));
  return file;
}

describe('names that are members of Object.prototype', () => {
  it('validate, and bound each retried placement by 1 + max, as the brute force finds', () => {
    const dag = prototypeDag();
    expect(analyse(dag).filter((p) => p.severity === 'error')).toEqual([]);
    const bounds = computeBounds(compile(dag));
    const explored = explore(dag);
    for (const name of PROTOTYPE_NAMES) {
      expect(bounds.perPlacement.get(name), name).toBe(3n);
      expect(explored.perPlacement.get(name), name).toBe(3n);
      expect(bounds.spends.get(name), name).toBe(2n);
    }
    expect(bounds.total).toBeGreaterThanOrEqual(explored.total);
    const loops = findCycles(compile(dag));
    expect(loops.map((l) => [l.budget, l.placements])).toEqual(
      [...PROTOTYPE_NAMES].sort().map((name) => [name, [name]]),
    );
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
  });

  it('are reported by inspect with their true bound, as text and as JSON', async () => {
    const file = writeDocument(prototypeDag());
    const text = await runCli(['inspect', file]);
    expect(text.err).toBe('');
    for (const name of PROTOTYPE_NAMES) {
      expect(text.out).toMatch(new RegExp(`^ {2}${name}\\s+task\\s+3 `, 'm'));
      expect(text.out).toContain(`budget ${name} ≤ 2: ${name}`);
    }
    const json = await runCli(['inspect', file, '--json']);
    const report = JSON.parse(json.out) as { placements: { key: string; worstCaseExecutions: unknown }[] };
    for (const name of PROTOTYPE_NAMES) {
      expect(report.placements.find((p) => p.key === name)?.worstCaseExecutions).toBe(3);
    }
  });
});

describe('bounds beyond 2^53', () => {
  it('are exact for loops nested 60 deep', () => {
    const max = 1_000_000;
    const dag = nestedDag(60, max);
    expect(analyse(dag).filter((p) => p.severity === 'error')).toEqual([]);
    const bounds = computeBounds(compile(dag));
    const expected = BigInt(max + 1) ** 60n;
    expect(bounds.perPlacement.get('a')).toBe(expected);
    expect(bounds.total).toBe(expected + 1n);
    expect(bounds.unboundedBecause).toBeUndefined();
    expect(bounds.spends.get('b59')).toBe(BigInt(max) * BigInt(max + 1) ** 59n);
  });

  it('match the brute force where it can explore (three levels)', () => {
    const dag = nestedDag(3, 2);
    expect(computeBounds(compile(dag)).perPlacement.get('a')).toBe(explore(dag).perPlacement.get('a'));
    expect(explore(dag).perPlacement.get('a')).toBe(27n);
  });

  it('are printed with every digit by inspect, and as JSON numbers', async () => {
    const dag = nestedDag(40, 2);
    const exact = 3n ** 40n; // 12157665459056928801, beyond 2^53
    expect(exact > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    const file = writeDocument(dag);
    const text = await runCli(['inspect', file]);
    expect(text.out).toMatch(new RegExp(`^ {2}a\\s+task\\s+${exact} `, 'm'));
    expect(text.out).toContain(`Worst case per item: ${exact + 1n} placement executions`);
    const json = await runCli(['inspect', file, '--json']);
    expect(json.out).toContain(`"worstCaseExecutionsPerItem": ${exact + 1n}`);
    expect(json.out).toContain(`"worstCaseExecutions": ${exact}`);
    const report = JSON.parse(json.out) as { placements: { key: string; worstCaseExecutions: unknown }[] };
    expect(typeof report.placements.find((p) => p.key === 'end')?.worstCaseExecutions).toBe('number');
  });
});

describe('unbounded counts', () => {
  it('stay unbounded through resets: a budget reset by one on a reset cycle has no bound either', () => {
    const retry = (budget: string, resets: string[]): Route => ({
      output: `r-${budget}`,
      kind: 'retry',
      to: 'a',
      budget,
      exhausted: 'end',
      resets,
    });
    const dag = model(
      'urn:test:reset-cycle',
      'a',
      [
        { name: 'x', max: 1 },
        { name: 'y', max: 2 },
      ],
      [
        {
          key: 'a',
          kind: 'task',
          node: NODE,
          routes: [{ output: 'ok', kind: 'next', to: 'end' }, retry('x', ['x', 'y']), retry('y', [])],
        },
        { key: 'end', kind: 'terminal', outcome: 'completed', routes: [] },
      ],
    );
    const bounds = computeBounds(compile(dag));
    expect(bounds.spends.get('x')).toBeNull();
    expect(bounds.spends.get('y')).toBeNull();
    expect(bounds.perPlacement.get('a')).toBeNull();
    expect(bounds.total).toBeNull();
    expect(bounds.unboundedBecause).toContain('reset each other');
  });
});

describe('cost of the analysis', () => {
  const workOn = (dag: Dag): ReachWork => {
    const work: ReachWork = { visited: 0, sweeps: 0, approximated: false };
    computeBounds(compile(dag), undefined, { work });
    return work;
  };

  it('visits a number of vertices linear in the placements of a chain', () => {
    const small = workOn(generateChain(1_000));
    const large = workOn(generateChain(10_000));
    expect(small.visited).toBeGreaterThan(0);
    expect(large.sweeps).toBe(small.sweeps);
    expect(large.visited / small.visited).toBeLessThanOrEqual(10 * 1.05);
    expect(large.approximated).toBe(false);
  });

  it('visits a number of vertices linear in the placements of a lattice', () => {
    const small = workOn(generateLattice(1_000));
    const large = workOn(generateLattice(10_000));
    expect(small.visited).toBeGreaterThan(0);
    expect(large.visited / 10_000).toBeLessThanOrEqual((2 * small.visited) / 1_000);
  });
});

describe('weighted reachability', () => {
  /** Sum over the groups of the weight of those with a source reaching each vertex, one search per group. */
  const bySearch = (adj: number[][], groups: { vertices: number[]; weight: bigint }[]): bigint[] =>
    adj.map((_, v) =>
      groups.reduce((sum, group) => {
        const seen = new Set(group.vertices);
        const queue = [...group.vertices];
        for (let head = 0; head < queue.length; head++) {
          for (const w of adj[queue[head] as number] ?? []) {
            if (!seen.has(w)) {
              seen.add(w);
              queue.push(w);
            }
          }
        }
        return seen.has(v) ? sum + group.weight : sum;
      }, 0n),
    );

  it('is exact within its work limit and never below the exact sums past it', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    let approximated = 0;
    for (let round = 0; round < 60; round++) {
      const n = 2 + random(30);
      // Mostly forward edges, a few backward ones for cycles.
      const adj = Array.from({ length: n }, (_, v) =>
        Array.from({ length: random(3) }, () => (random(8) === 0 ? random(n) : v + 1 + random(n - v))).filter(
          (w) => w < n,
        ),
      );
      const groups = Array.from({ length: 1 + random(5) }, () => ({
        vertices: Array.from({ length: 1 + random(3) }, () => random(n)),
        weight: BigInt(1 + random(4)),
      }));
      const exact = bySearch(adj, groups);
      expect(weightedReach(adj, groups)).toEqual(exact);
      const work: ReachWork = { visited: 0, sweeps: 0, approximated: false };
      const loose = weightedReach(adj, groups, work, 0);
      for (const [v, value] of loose.entries()) expect(value >= (exact[v] as bigint)).toBe(true);
      if (work.approximated) approximated++;
    }
    expect(approximated).toBeGreaterThan(10);
  });

  it('marks the bounds of a graph too wide for the exact sums as loose', () => {
    expect(computeBounds(compile(generateLattice(200))).loose).toBeUndefined();
    const wide = computeBounds(compile(generateLattice(10_000)));
    expect(wide.loose).toBe(true);
    expect(wide.unboundedBecause).toBeUndefined();
  });
});

describe('canonical N-Quads', () => {
  it('are those of jsonld.canonize for every shipped and generated document', async () => {
    const dags = [
      ...sampleDags().values(),
      prototypeDag(),
      nestedDag(3, 2),
      generateChain(40),
      generateLattice(40),
      generateDag(60),
      // Numbers JSON-LD writes as integers or as doubles.
      ...[0, 1e-7, 1.5, 2 ** 60, 1e21, Number.MAX_VALUE, -3].map((max) => {
        const chain = generateChain(3);
        return { ...chain, budgets: chain.budgets.map((b) => ({ ...b, max })) };
      }),
    ];
    for (const dag of dags) {
      expect(await canonicalNQuads(dag), dag.id).toBe(await canonize(toDocument(dag)));
    }
  });
});
