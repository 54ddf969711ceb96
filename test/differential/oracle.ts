/**
 * What the gathers of a case must give, worked out from the documented reducers without the engine: for a
 * gather of the root document whose scatter runs a node over `/fixed` (a list no node rewrites), each
 * child's ending is a pure function of its element, so the gathered value and the gather's output are known
 * beforehand. Every executor must give them; equal but wrong answers in all three are found here.
 */
import type { GatherPlacement, ScatterPlacement } from '../../src/document/model.ts';
import type { DiffCase } from './corpus.ts';
import type { Normal } from './normalise.ts';
import { type BodyPlan, bodyAction, type Element } from './plans.ts';

interface Child {
  readonly index: number;
  readonly completed: boolean;
  readonly value: string;
  readonly thrown: boolean;
}

/** The children a node body makes of `list`. */
function children(plan: BodyPlan, node: string, list: readonly Element[]): Child[] {
  return list.map((element, index) => {
    const action = bodyAction(plan, node, element.k);
    const value = action === 'same' ? 'same' : element.v;
    return {
      index,
      completed: action === 'ok' || action === 'same',
      value,
      thrown: action.startsWith('throw'),
    };
  });
}

/** The largest group of equal values among completed children; ties go to the value seen first in input order. */
function agreement(kids: readonly Child[]): { value: string | null; size: number } {
  const sizes = new Map<string, number>();
  for (const kid of kids) if (kid.completed) sizes.set(kid.value, (sizes.get(kid.value) ?? 0) + 1);
  let best: { value: string | null; size: number } = { value: null, size: 0 };
  // Map keys keep insertion order, which is input order of first appearance.
  for (const [value, size] of sizes) if (size > best.size) best = { value, size };
  return best;
}

/** The gathered value and output the documentation promises for these children. */
export function expectedGather(gather: GatherPlacement, kids: readonly Child[]) {
  const done = kids.filter((k) => k.completed);
  const largest = agreement(kids);
  const met =
    gather.require === 'all'
      ? done.length === kids.length
      : gather.require === 'any'
        ? done.length > 0
        : done.length > 0 && largest.size >= (gather.quorum ?? Math.floor(kids.length / 2) + 1);
  // One child at a time (the policy gives `first` scatters a concurrency of 1): the first to complete is
  // the first completed in input order.
  const value =
    gather.reducer === 'collect'
      ? done.map((k) => k.value)
      : gather.reducer === 'partition'
        ? {
            completed: done.map((k) => k.value),
            failed: kids.filter((k) => !k.completed).map((k) => k.index),
          }
        : gather.reducer === 'first'
          ? (done[0]?.value ?? null)
          : largest.value;
  return { output: met ? 'completed' : 'failed', value };
}

/** The gathers of the root document the oracle knows the answers of, with their scatter's node and plan. */
export function checkedGathers(c: DiffCase) {
  const byKey = new Map(c.root.placements.map((p) => [p.key, p]));
  return c.root.placements.flatMap((p) => {
    if (p.kind !== 'scatter' || p.node === undefined || p.items !== '/fixed') return [];
    const gather = byKey.get(p.routes.find((r) => r.output === 'done')?.to ?? '');
    if (gather?.kind !== 'gather') return [];
    return [
      { scatter: p as ScatterPlacement & { node: string }, gather, plan: c.plans.get(p.node) as BodyPlan },
    ];
  });
}

/** How many (item, quorum gather) pairs the oracle checks where a tie must go to the value seen first. */
export function checkedTies(c: DiffCase): number {
  let ties = 0;
  for (const { scatter, gather, plan } of checkedGathers(c)) {
    if (gather.reducer !== 'quorum') continue;
    for (const item of c.items) {
      const kids = children(plan, scatter.node, item.fixed as Element[]);
      const sizes = new Map<string, number>();
      for (const kid of kids) if (kid.completed) sizes.set(kid.value, (sizes.get(kid.value) ?? 0) + 1);
      const top = Math.max(0, ...sizes.values());
      if ([...sizes.values()].filter((n) => n === top).length > 1) ties++;
    }
  }
  return ties;
}

/** Lines saying where a run's gathered values or gather outputs differ from the oracle's. */
export function oracleProblems(c: DiffCase, run: Normal): string[] {
  const problems: string[] = [];
  for (const { scatter: p, gather, plan } of checkedGathers(c)) {
    for (const item of [...run.items, ...run.failures]) {
      const reached = item.state.trail.filter((t) => t.placement === gather.key);
      const last = reached.at(-1);
      if (last === undefined) continue;
      const input = c.items[Number(item.id) - 1]?.fixed as Element[];
      const expected = expectedGather(gather, children(plan, p.node, input));
      const gathered = (item.data.gathered as Record<string, unknown> | undefined)?.[gather.key];
      const actual =
        gather.reducer === 'partition' && gathered !== null && typeof gathered === 'object'
          ? {
              completed: (gathered as { completed: unknown }).completed,
              failed: ((gathered as { failed: { index: number }[] }).failed ?? []).map((f) => f.index),
            }
          : gathered;
      if (JSON.stringify(actual) !== JSON.stringify(expected.value)) {
        problems.push(
          `item ${item.id} gather '${gather.key}' (${gather.reducer}/${gather.require}) of ${JSON.stringify(input.map((e) => e.v))}: expected ${JSON.stringify(expected.value)}, got ${JSON.stringify(actual)}`,
        );
      }
      if (last.output !== expected.output) {
        problems.push(
          `item ${item.id} gather '${gather.key}' left on '${last.output}', expected '${expected.output}'`,
        );
      }
    }
  }
  return problems;
}
