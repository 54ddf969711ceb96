import type { Dag, Placement, Route } from '../../src/document/model.ts';

/** The most executions any single item can make, per placement and in total, found by exploring every path. */
export interface Explored {
  readonly perPlacement: Map<string, bigint>;
  readonly total: bigint;
}

/**
 * Explores every walk of one item through a document the way the engine routes it: any route may be taken,
 * a retry route spends its budget (and resets others) or, when the budget is spent, takes its exhaustion
 * route. The state (placement, budget counters) determines the future, so maxima are memoised per state.
 * Throws when a state repeats on one path: the walk would not end. Every name is a key of a `Map` or an index
 * of a list, so budgets and placements named like `Object.prototype` members are explored as written.
 */
export function explore(dag: Dag): Explored {
  const index = new Map(dag.placements.map((p, i) => [p.key, i]));
  const budgets = dag.budgets.map((b) => b.name);
  const max = dag.budgets.map((b) => b.max);
  const n = dag.placements.length;
  const memo = new Map<string, number[]>();
  const onPath = new Set<string>();

  // Returns, per placement, the most executions from this state on; index n holds the longest walk.
  const visit = (at: number, counters: readonly number[]): number[] => {
    const state = `${at}:${counters.join(',')}`;
    const known = memo.get(state);
    if (known) return known;
    if (onPath.has(state)) throw new Error(`the walk repeats state ${state}: it does not terminate`);
    onPath.add(state);
    const best = new Array<number>(n + 1).fill(0);
    const placement = dag.placements[at];
    const take = (next: number | undefined, nextCounters: readonly number[]): void => {
      if (next === undefined) return;
      const future = visit(next, nextCounters);
      future.forEach((v, i) => {
        if (v > (best[i] ?? 0)) best[i] = v;
      });
    };
    if (placement && placement.kind !== 'terminal') {
      for (const route of placement.routes) {
        const b = route.kind === 'retry' && route.budget !== undefined ? budgets.indexOf(route.budget) : -1;
        if (b < 0) {
          take(index.get(route.to), counters);
          continue;
        }
        if ((counters[b] ?? 0) < (max[b] ?? 0)) {
          const next = [...counters];
          next[b] = (next[b] ?? 0) + 1;
          for (const name of route.resets ?? []) {
            const r = budgets.indexOf(name);
            if (r >= 0) next[r] = 0;
          }
          take(index.get(route.to), next);
        } else if (route.exhausted !== undefined) {
          take(index.get(route.exhausted), counters);
        }
      }
    }
    best[at] = (best[at] ?? 0) + 1;
    best[n] = (best[n] ?? 0) + 1;
    onPath.delete(state);
    memo.set(state, best);
    return best;
  };

  const perPlacement = new Map(dag.placements.map((p) => [p.key, 0]));
  let total = 0;
  for (const key of dag.entrypoints) {
    const start = index.get(key);
    if (start === undefined) continue;
    const best = visit(
      start,
      budgets.map(() => 0),
    );
    dag.placements.forEach((p, i) => {
      perPlacement.set(p.key, Math.max(perPlacement.get(p.key) ?? 0, best[i] ?? 0));
    });
    total = Math.max(total, best[n] ?? 0);
  }
  const exact = new Map<string, bigint>();
  for (const [key, most] of perPlacement) exact.set(key, BigInt(most));
  return { perPlacement: exact, total: BigInt(total) };
}

/** What one walk of an item costs, step by step, for {@link exploreTime}. */
export interface WalkCosts {
  /** The longest one execution of the placement takes (0 for a terminal). */
  readonly execution: (placement: Placement) => bigint;
  /** The longest wait before a retry along `route` from `from`. */
  readonly retry: (from: Placement, route: Route) => bigint;
}

/**
 * The longest time any single walk of one item takes, found by exploring every walk as {@link explore}
 * does: the sum of its executions' and retry waits' longest times. Memoised per state (placement, budget
 * counters), whose future does not depend on the path that reached it.
 */
export function exploreTime(dag: Dag, costs: WalkCosts): bigint {
  const index = new Map(dag.placements.map((p, i) => [p.key, i]));
  const budgets = dag.budgets.map((b) => b.name);
  const max = dag.budgets.map((b) => b.max);
  const memo = new Map<string, bigint>();
  const visit = (at: number, counters: readonly number[]): bigint => {
    const state = `${at}:${counters.join(',')}`;
    const known = memo.get(state);
    if (known !== undefined) return known;
    const placement = dag.placements[at] as Placement;
    let best = 0n;
    const take = (next: number | undefined, nextCounters: readonly number[], wait: bigint): void => {
      if (next === undefined) return;
      const future = wait + visit(next, nextCounters);
      if (future > best) best = future;
    };
    if (placement.kind !== 'terminal') {
      for (const route of placement.routes) {
        const b = route.kind === 'retry' && route.budget !== undefined ? budgets.indexOf(route.budget) : -1;
        if (b < 0) {
          take(index.get(route.to), counters, 0n);
        } else if ((counters[b] ?? 0) < (max[b] ?? 0)) {
          const next = [...counters];
          next[b] = (next[b] ?? 0) + 1;
          for (const name of route.resets ?? []) {
            const r = budgets.indexOf(name);
            if (r >= 0) next[r] = 0;
          }
          take(index.get(route.to), next, costs.retry(placement, route));
        } else if (route.exhausted !== undefined) {
          take(index.get(route.exhausted), counters, 0n);
        }
      }
    }
    const total = costs.execution(placement) + best;
    memo.set(state, total);
    return total;
  };
  let longest = 0n;
  for (const key of dag.entrypoints) {
    const start = index.get(key);
    if (start === undefined) continue;
    const time = visit(
      start,
      budgets.map(() => 0),
    );
    if (time > longest) longest = time;
  }
  return longest;
}
