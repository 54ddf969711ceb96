/**
 * Worst-case executions per item. Without the budgeted retry edges the graph is acyclic, so an item's walk
 * splits into segments, each starting at an entrypoint or at the target of a budgeted retry, and visiting
 * each placement at most once. A placement's bound counts the segments that can reach it.
 */
import type { Dag, DagLibrary } from '../document/model.ts';
import { type CompiledDag, compile } from './compile.ts';
import { resetAdjacency } from './cycles.ts';
import {
  adjacency,
  type FlowEdge,
  type FlowGraph,
  flowGraph,
  isBudgetedRetry,
  reachable,
  reversed,
} from './flow.ts';
import { isCyclic, stronglyConnected } from './scc.ts';
import { type ReachWork, type SourceGroup, weightedReach } from './weighted-reach.ts';

/**
 * A worst-case count: exact at any size, or `null` where no bound exists. Counts are `bigint` because nested
 * budgets multiply: sixty nested budgets of max 2 already exceed 2^53.
 */
export type Count = bigint | null;

/** Worst-case execution counts of one document, per item; `null` where no bound exists. */
export interface Bounds {
  /** Most executions of each placement by one item (phases: once per run; terminals: at most once). */
  readonly perPlacement: ReadonlyMap<string, Count>;
  /** Every placement execution of one item, those inside embedded documents included; scatter children not. */
  readonly total: Count;
  /** Most times each budget can be spent by one item, resets included. */
  readonly spends: ReadonlyMap<string, Count>;
  /** For scatter keys: most executions per scattered child and per execution of the scatter (1 for a node body). */
  readonly children: ReadonlyMap<string, Count>;
  /** For embed keys: the embedded document's `total`, per execution of the embed. */
  readonly embedded: ReadonlyMap<string, Count>;
  /** Why some bound is `null`, when one is. */
  readonly unboundedBecause?: string;
  /**
   * Set when the graph is too wide for the exact sums within linear time: the counts are then upper bounds
   * that may exceed the exact ones (never fall below them).
   */
  readonly loose?: true;
}

/** The sum of two counts; unbounded when either is. */
export function addCounts(a: Count, b: Count): Count {
  return a === null || b === null ? null : a + b;
}

/** The product of two counts; unbounded when either is, unless the other is zero. */
export function multiplyCounts(a: Count, b: Count): Count {
  if (a === 0n || b === 0n) return 0n;
  return a === null || b === null ? null : a * b;
}

/** The smaller of two counts, `null` being the largest. */
export function minCount(a: Count, b: Count): Count {
  if (a === null) return b;
  if (b === null) return a;
  return a < b ? a : b;
}

/** The count of `key`, or `absent` when the map has none (a `null` count is kept: it means unbounded). */
export function countOf(counts: ReadonlyMap<string, Count>, key: string, absent: Count = 0n): Count {
  const count = counts.get(key);
  return count === undefined ? absent : count;
}

/** A count as text: its exact decimal digits, or `unbounded`. */
export function formatCount(count: Count): string {
  return count === null ? 'unbounded' : count.toString();
}

/**
 * Most spends of each budget: max × (1 + spends of every budget whose retry routes reset it), in topological
 * order of the resets relation; `null` for budgets on or after a reset cycle.
 */
export function budgetSpends(graph: FlowGraph): Count[] {
  const adj = resetAdjacency(graph);
  const spends: Count[] = graph.dag.budgets.map(() => 0n);
  const restarts: Count[] = graph.dag.budgets.map(() => 1n);
  // Tarjan lists components sinks first; the budgets that reset a budget must be done before it.
  for (const component of stronglyConnected(adj).reverse()) {
    const cyclic = isCyclic(component, adj);
    for (const b of component) {
      const max = BigInt(graph.dag.budgets[b]?.max ?? 0);
      // `restarts` holds `null` (no bound) after a reset cycle: test for a missing entry, never with `??`.
      const restart = restarts[b];
      const spend = cyclic
        ? null
        : max === 0n
          ? 0n
          : multiplyCounts(max, restart === undefined ? 1n : restart);
      spends[b] = spend;
      for (const reset of adj[b] ?? []) {
        const before = restarts[reset];
        restarts[reset] = addCounts(before === undefined ? 1n : before, spend);
      }
    }
  }
  return spends;
}

/** Memoised totals of library documents, guarding against documents that embed themselves. */
interface Context {
  readonly library: DagLibrary | undefined;
  readonly totals: Map<string, { total: Count; reason?: string }>;
  readonly visiting: Set<string>;
  readonly work: ReachWork | undefined;
}

/** The total of the document `iri` (per run of it), or `null` with a reason. */
function childTotal(iri: string, context: Context): { total: Count; reason?: string } {
  const known = context.totals.get(iri);
  if (known) return known;
  if (context.visiting.has(iri)) return { total: null, reason: `'${iri}' embeds itself` };
  const child = context.library?.get(iri);
  if (!child) {
    return { total: null, reason: `the document '${iri}' is not in the library` };
  }
  let compiled: CompiledDag;
  try {
    compiled = compile(child);
  } catch {
    return { total: null, reason: `the document '${iri}' does not compile` };
  }
  context.visiting.add(iri);
  const bounds = boundsOf(compiled.dag, context);
  context.visiting.delete(iri);
  const result =
    bounds.unboundedBecause === undefined
      ? { total: bounds.total }
      : { total: bounds.total, reason: bounds.unboundedBecause };
  context.totals.set(iri, result);
  return result;
}

/** Options of {@link computeBounds} beyond the document. */
export interface BoundsOptions {
  /** Counts the work of the reachability sweeps (for tests of the cost). */
  readonly work?: ReachWork;
}

function boundsOf(dag: Dag, context: Context): Bounds {
  const graph = flowGraph(dag);
  const acyclic = adjacency(graph, (e) => !isBudgetedRetry(e));
  const back = reversed(acyclic);
  const spends = budgetSpends(graph);
  const retries: FlowEdge[][] = dag.budgets.map(() => []);
  for (const edge of graph.edges) if (isBudgetedRetry(edge)) retries[edge.budget]?.push(edge);

  // A placement is visited at most once per segment of the walk that can reach it: one from the entrypoints,
  // and one per spend of each budget, starting at one of its retry targets.
  const segments: SourceGroup[] = [{ vertices: graph.entrypoints, weight: 1n }];
  // Every segment that visits a placement, but the item's last, ends with a retry taken from a placement
  // reachable from it. So a placement runs at most once more than the retries that can follow it: once for
  // a placement no retry can follow, once per plan for the check after an inner loop.
  const following: SourceGroup[] = [];
  const endless: number[] = [];
  const endlessFollow: number[] = [];
  spends.forEach((spend, b) => {
    const edges = retries[b] ?? [];
    if (spend === null) {
      for (const e of edges) endless.push(e.to);
      for (const e of edges) endlessFollow.push(e.from);
      return;
    }
    segments.push({ vertices: edges.map((e) => e.to), weight: spend });
    following.push({ vertices: edges.map((e) => e.from), weight: spend });
  });
  const reasons: string[] = [];
  const looping = stronglyConnected(acyclic).filter((c) => isCyclic(c, acyclic));
  if (looping.length > 0) {
    reasons.push(`placement '${graph.keys[looping[0]?.[0] ?? 0]}' is on a loop that no budget bounds`);
  }
  if (spends.some((s) => s === null)) reasons.push('some budgets reset each other');
  const work: ReachWork = { visited: 0, sweeps: 0, approximated: false };
  const reached = weightedReach(acyclic, segments, work);
  const unreachedBound = reachable(acyclic, [...endless, ...looping.flat()]);
  const followed = weightedReach(back, following, work);
  if (context.work) {
    context.work.visited += work.visited;
    context.work.sweeps += work.sweeps;
    context.work.approximated ||= work.approximated;
  }
  const unfollowedBound = reachable(back, endlessFollow);

  const perPlacement = new Map<string, Count>();
  const children = new Map<string, Count>();
  const embedded = new Map<string, Count>();
  let total: Count = 0n;
  let terminals: Count = 0n;
  dag.placements.forEach((placement, v) => {
    const visits: Count = unreachedBound[v] === 1 ? null : (reached[v] ?? 0n);
    // An item ends at the first terminal it reaches, so it reaches each terminal at most once.
    const cap: Count =
      placement.kind === 'terminal' ? 1n : unfollowedBound[v] === 1 ? null : 1n + (followed[v] ?? 0n);
    const count: Count = placement.kind === 'phase' ? 1n : visits === null ? null : minCount(visits, cap);
    perPlacement.set(placement.key, count);
    if (placement.kind === 'terminal') terminals = addCounts(terminals, count);
    else total = addCounts(total, count);
    if (placement.kind === 'embed' || (placement.kind === 'scatter' && placement.dag !== undefined)) {
      const child = childTotal(placement.dag as string, context);
      if (child.reason !== undefined && count !== 0n) reasons.push(child.reason);
      if (placement.kind === 'scatter') children.set(placement.key, child.total);
      else {
        embedded.set(placement.key, child.total);
        total = addCounts(total, multiplyCounts(count, child.total));
      }
    } else if (placement.kind === 'scatter') {
      children.set(placement.key, 1n);
    }
  });

  const spendsByName = new Map<string, Count>();
  dag.budgets.forEach((budget, b) => {
    if (!spendsByName.has(budget.name)) {
      const spend = spends[b];
      spendsByName.set(budget.name, spend === undefined ? 0n : spend);
    }
  });
  // One item ends at one terminal.
  total = addCounts(total, minCount(terminals, 1n));
  const exact = { perPlacement, total, spends: spendsByName, children, embedded };
  const bounds: Bounds = work.approximated ? { ...exact, loose: true } : exact;
  return reasons.length === 0 ? bounds : { ...bounds, unboundedBecause: reasons.join('; ') };
}

/**
 * Worst-case executions of every placement by one item, sound for any run the engine can take: no item
 * executes a placement more often than `perPlacement` says. Embedded documents are looked up in `library`;
 * one that is missing makes the total `null` and says why in `unboundedBecause`. Counts are exact `bigint`s.
 * @example
 * const bounds = computeBounds(compile(dag), library);
 * bounds.perPlacement.get('execute'); // 12n for dags/nested-retry.jsonld
 */
export function computeBounds(
  compiled: CompiledDag,
  library?: DagLibrary,
  options: BoundsOptions = {},
): Bounds {
  const context: Context = {
    library,
    totals: new Map(),
    visiting: new Set([compiled.dag.id]),
    work: options.work,
  };
  return boundsOf(compiled.dag, context);
}
