/**
 * Worst-case executions per item. Without the budgeted retry edges the graph is acyclic, so an item's walk
 * splits into segments, each starting at an entrypoint or at the target of a budgeted retry, and visiting
 * each placement at most once. A placement's bound counts the segments that can reach it.
 */
import type { Dag, DagLibrary } from '../document/model.ts';
import { type CompiledDag, compile } from './compile.ts';
import { resetAdjacency } from './cycles.ts';
import { adjacency, type FlowGraph, flowGraph, isBudgetedRetry, reachable, reversed } from './flow.ts';
import { isCyclic, stronglyConnected } from './scc.ts';

/** Worst-case execution counts of one document, per item; `Infinity` where no bound exists. */
export interface Bounds {
  /** Most executions of each placement by one item (phases: once per run; terminals: at most once). */
  readonly perPlacement: ReadonlyMap<string, number>;
  /** Every placement execution of one item, those inside embedded documents included; scatter children not. */
  readonly total: number;
  /** Most times each budget can be spent by one item, resets included. */
  readonly spends: ReadonlyMap<string, number>;
  /** For scatter keys: most executions per scattered child and per execution of the scatter (1 for a node body). */
  readonly children: ReadonlyMap<string, number>;
  /** For embed keys: the embedded document's `total`, per execution of the embed. */
  readonly embedded: ReadonlyMap<string, number>;
  /** Why some bound is `Infinity`, when one is. */
  readonly unboundedBecause?: string;
}

/**
 * Most spends of each budget: max × (1 + spends of every budget whose retry routes reset it), in topological
 * order of the resets relation; `Infinity` for budgets on or after a reset cycle.
 */
export function budgetSpends(graph: FlowGraph): number[] {
  const adj = resetAdjacency(graph);
  const spends = graph.dag.budgets.map(() => 0);
  const restarts = graph.dag.budgets.map(() => 1);
  // Tarjan lists components sinks first; the budgets that reset a budget must be done before it.
  for (const component of stronglyConnected(adj).reverse()) {
    const cyclic = isCyclic(component, adj);
    for (const b of component) {
      const max = graph.dag.budgets[b]?.max ?? 0;
      const spend = cyclic ? Number.POSITIVE_INFINITY : max === 0 ? 0 : max * (restarts[b] ?? 1);
      spends[b] = spend;
      for (const reset of adj[b] ?? []) restarts[reset] = (restarts[reset] ?? 1) + spend;
    }
  }
  return spends;
}

/** Memoised totals of library documents, guarding against documents that embed themselves. */
interface Context {
  readonly library: DagLibrary | undefined;
  readonly totals: Map<string, { total: number; reason?: string }>;
  readonly visiting: Set<string>;
}

/** The total of the document `iri` (per run of it), or Infinity with a reason. */
function childTotal(iri: string, context: Context): { total: number; reason?: string } {
  const known = context.totals.get(iri);
  if (known) return known;
  if (context.visiting.has(iri)) return { total: Number.POSITIVE_INFINITY, reason: `'${iri}' embeds itself` };
  const child = context.library?.get(iri);
  if (!child) {
    return { total: Number.POSITIVE_INFINITY, reason: `the document '${iri}' is not in the library` };
  }
  let compiled: CompiledDag;
  try {
    compiled = compile(child);
  } catch {
    return { total: Number.POSITIVE_INFINITY, reason: `the document '${iri}' does not compile` };
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

function boundsOf(dag: Dag, context: Context): Bounds {
  const graph = flowGraph(dag);
  const acyclic = adjacency(graph, (e) => !isBudgetedRetry(e));
  const spends = budgetSpends(graph);
  const counts = dag.placements.map(() => 0);
  const addSegment = (starts: Iterable<number>, times: number): void => {
    if (times === 0) return;
    const seen = reachable(acyclic, starts);
    seen.forEach((hit, v) => {
      if (hit === 1) counts[v] = (counts[v] ?? 0) + times;
    });
  };
  addSegment(graph.entrypoints, 1);
  spends.forEach((spend, b) => {
    addSegment(
      graph.edges.filter((e) => isBudgetedRetry(e) && e.budget === b).map((e) => e.to),
      spend,
    );
  });

  const reasons: string[] = [];
  const looping = stronglyConnected(acyclic).filter((c) => isCyclic(c, acyclic));
  if (looping.length > 0) {
    const unbounded = reachable(acyclic, looping.flat());
    unbounded.forEach((hit, v) => {
      if (hit === 1) counts[v] = Number.POSITIVE_INFINITY;
    });
    reasons.push(`placement '${graph.keys[looping[0]?.[0] ?? 0]}' is on a loop that no budget bounds`);
  }
  if (spends.some((s) => s === Number.POSITIVE_INFINITY)) reasons.push('some budgets reset each other');

  // Every segment that visits a placement, but the item's last, ends with a retry taken from a placement
  // reachable from it. So a placement runs at most once more than the retries that can follow it: once for
  // a placement no retry can follow, once per plan for the check after an inner loop.
  const back = reversed(acyclic);
  const followed = dag.placements.map(() => 1);
  spends.forEach((spend, b) => {
    const sources = graph.edges.filter((e) => isBudgetedRetry(e) && e.budget === b).map((e) => e.from);
    reachable(back, sources).forEach((hit, v) => {
      if (hit === 1) followed[v] = (followed[v] ?? 1) + spend;
    });
  });

  const perPlacement = new Map<string, number>();
  const children = new Map<string, number>();
  const embedded = new Map<string, number>();
  let total = 0;
  let terminals = 0;
  dag.placements.forEach((placement, v) => {
    // An item ends at the first terminal it reaches, so it reaches each terminal at most once.
    const reached = counts[v] ?? 0;
    const cap = placement.kind === 'terminal' ? 1 : (followed[v] ?? Number.POSITIVE_INFINITY);
    const count =
      placement.kind === 'phase' ? 1 : Number.isFinite(reached) ? Math.min(reached, cap) : reached;
    perPlacement.set(placement.key, count);
    if (placement.kind === 'terminal') terminals += count;
    else total += count;
    if (placement.kind === 'embed' || (placement.kind === 'scatter' && placement.dag !== undefined)) {
      const child = childTotal(placement.dag as string, context);
      if (child.reason !== undefined && count > 0) reasons.push(child.reason);
      if (placement.kind === 'scatter') children.set(placement.key, child.total);
      else {
        embedded.set(placement.key, child.total);
        if (count > 0) total += count * child.total;
      }
    } else if (placement.kind === 'scatter') {
      children.set(placement.key, 1);
    }
  });

  const spendsByName = new Map<string, number>();
  dag.budgets.forEach((budget, b) => {
    if (!spendsByName.has(budget.name)) spendsByName.set(budget.name, spends[b] ?? 0);
  });
  // One item ends at one terminal.
  total += Math.min(terminals, 1);
  const bounds = { perPlacement, total, spends: spendsByName, children, embedded };
  return reasons.length === 0 ? bounds : { ...bounds, unboundedBecause: reasons.join('; ') };
}

/**
 * Worst-case executions of every placement by one item, sound for any run the engine can take: no item
 * executes a placement more often than `perPlacement` says. Embedded documents are looked up in `library`;
 * one that is missing makes the total `Infinity` and says why in `unboundedBecause`.
 * @example
 * const bounds = computeBounds(compile(dag), library);
 * bounds.perPlacement.get('execute'); // 12 for dags/nested-retry.jsonld
 */
export function computeBounds(compiled: CompiledDag, library?: DagLibrary): Bounds {
  const context: Context = { library, totals: new Map(), visiting: new Set([compiled.dag.id]) };
  return boundsOf(compiled.dag, context);
}
