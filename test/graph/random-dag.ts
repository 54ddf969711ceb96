/** Small random documents for checking the graph analyses against brute force. */
import fc from 'fast-check';
import type { Dag, Placement, Route } from '../../src/document/model.ts';
import { sketch, toDag } from './helpers.ts';

/** Raw material for one random route. */
const routeSpec = fc.record({
  kind: fc.constantFrom('next', 'next', 'salvage', 'retry', 'retry'),
  to: fc.nat(99),
  exhausted: fc.nat(99),
  wild: fc.nat(9),
  budget: fc.nat(9),
  resets: fc.array(fc.nat(9), { maxLength: 2 }),
});

export const graphSpec = fc.record({
  tasks: fc.integer({ min: 1, max: 5 }),
  budgets: fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 3 }),
  routes: fc.array(fc.array(routeSpec, { minLength: 1, maxLength: 3 }), { minLength: 5, maxLength: 5 }),
});

export type GraphSpec = typeof graphSpec extends fc.Arbitrary<infer T> ? T : never;

/** A small random document: next routes mostly forward, retry routes anywhere, some backward edges. */
export function randomDag(spec: GraphSpec): Dag {
  const tasks = Array.from({ length: spec.tasks }, (_, i) => `t${i}`);
  const everything = [...tasks, 'end', 'fail'];
  const nodes: Record<string, Partial<Route>[]> = {};
  tasks.forEach((key, i) => {
    const forward = [...tasks.slice(i + 1), 'end', 'fail'];
    const pick = (n: number, wild: boolean) =>
      wild ? everything[n % everything.length] : forward[n % forward.length];
    nodes[key] = (spec.routes[i] ?? []).map((r): Partial<Route> => {
      const budgets = spec.budgets.length;
      if (r.kind === 'retry' && budgets > 0) {
        const resets = [...new Set(r.resets.map((b) => `b${b % budgets}`))];
        return {
          kind: 'retry',
          to: tasks[r.to % tasks.length] as string,
          budget: `b${r.budget % budgets}`,
          exhausted: pick(r.exhausted, r.wild === 0) as string,
          ...(resets.length > 0 ? { resets } : {}),
        };
      }
      return { kind: r.kind === 'salvage' ? 'salvage' : 'next', to: pick(r.to, r.wild === 0) as string };
    });
  });
  nodes.end = [];
  const dag = sketch({ budgets: Object.fromEntries(spec.budgets.map((max, b) => [`b${b}`, max])), nodes });
  const fail = { key: 'fail', kind: 'terminal', outcome: 'failed', routes: [] } as Placement;
  return toDag({ ...dag, '@id': dag.id, placements: [...dag.placements, fail] });
}
