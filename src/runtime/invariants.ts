import type { Bounds } from '../graph/bounds.ts';
import type { CompiledDag } from '../graph/compile.ts';
import type { ItemState } from './item-state.ts';
import type { RunResult } from './run.ts';

/**
 * The guarantees a finished run must satisfy, as a list of violations (empty when all hold):
 * every input id `1..inputCount` is in exactly one of items / failures / aborted; no budget is spent past
 * its max; with `bounds`, no placement is visited more often than its worst case.
 * @example
 * expect(runViolations(result, compiled, 10, computeBounds(compiled, library))).toEqual([]);
 */
export function runViolations(
  result: RunResult,
  compiled: CompiledDag,
  inputCount: number,
  bounds?: Bounds,
): string[] {
  const violations: string[] = [];
  const seen = new Map<string, number>();
  const states: ItemState[] = [];
  for (const entry of [
    ...result.items.map((i) => ({ id: i.id, state: i.state })),
    ...result.failures.map((f) => ({ id: f.id, state: f.state })),
    ...result.aborted.map((a) => ({ id: a.item, state: a.state })),
  ]) {
    seen.set(entry.id, (seen.get(entry.id) ?? 0) + 1);
    states.push(entry.state);
  }
  for (let i = 1; i <= inputCount; i++) {
    const count = seen.get(String(i)) ?? 0;
    if (count !== 1) violations.push(`item ${i} ended ${count} times; every item must end exactly once`);
  }
  if (seen.size !== inputCount) violations.push(`${seen.size} items ended for ${inputCount} inputs`);
  const max = new Map(compiled.budgets.map((b) => [b.name, b.max]));
  for (const state of states) {
    for (const [budget, spent] of Object.entries(state.budgets)) {
      const limit = max.get(budget);
      if (limit !== undefined && spent > limit)
        violations.push(`item ${state.id} spent '${budget}' ${spent} times, max ${limit}`);
    }
    if (bounds === undefined) continue;
    for (const [placement, visits] of Object.entries(state.visits)) {
      const bound = bounds.perPlacement.get(placement);
      // `null` is a placement without a bound; bounds are exact `bigint`s, compared with the count as is.
      if (bound !== undefined && bound !== null && visits > bound) {
        violations.push(`item ${state.id} visited '${placement}' ${visits} times, worst case ${bound}`);
      }
    }
  }
  return violations;
}
