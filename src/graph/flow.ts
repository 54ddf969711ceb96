/**
 * The flow graph of a document as index-based adjacency, built from the model without trusting it: dangling
 * targets and unknown budgets are left out instead of throwing, so the analyses can run on any document.
 */
import type { Dag } from '../document/model.ts';

/** How an edge is taken: a route of that kind, or the exhaustion edge of a retry route. */
export type FlowEdgeKind = 'next' | 'retry' | 'salvage' | 'exhausted';

/** One edge between two placements (by index in `dag.placements`). */
export interface FlowEdge {
  readonly from: number;
  readonly to: number;
  readonly kind: FlowEdgeKind;
  /** For a retry route's edge to its target: the index of the declared budget it spends; otherwise -1. */
  readonly budget: number;
  /** Index of the route in `dag.placements[from].routes`. */
  readonly route: number;
}

/** A document's placements and edges, indexed for graph algorithms. */
export interface FlowGraph {
  readonly dag: Dag;
  /** Placement keys by index. */
  readonly keys: readonly string[];
  /** Index of the first placement with each key. */
  readonly indexOf: ReadonlyMap<string, number>;
  /** Index of the first budget with each name. */
  readonly budgetIndex: ReadonlyMap<string, number>;
  readonly edges: readonly FlowEdge[];
  /** Outgoing edges by placement index. */
  readonly out: readonly (readonly FlowEdge[])[];
  /** Entrypoints that name a placement. */
  readonly entrypoints: readonly number[];
}

/** Adjacency lists: `adj[v]` holds the targets of v's edges. */
export type Adjacency = readonly (readonly number[])[];

/** Builds the flow graph of a document; references that resolve to nothing are skipped. */
export function flowGraph(dag: Dag): FlowGraph {
  const indexOf = new Map<string, number>();
  dag.placements.forEach((p, i) => {
    if (!indexOf.has(p.key)) indexOf.set(p.key, i);
  });
  const budgetIndex = new Map<string, number>();
  dag.budgets.forEach((b, i) => {
    if (!budgetIndex.has(b.name)) budgetIndex.set(b.name, i);
  });

  const edges: FlowEdge[] = [];
  const out: FlowEdge[][] = dag.placements.map(() => []);
  const add = (edge: FlowEdge): void => {
    edges.push(edge);
    out[edge.from]?.push(edge);
  };
  dag.placements.forEach((placement, from) => {
    placement.routes.forEach((route, index) => {
      const to = indexOf.get(route.to);
      const budget =
        route.kind === 'retry' && route.budget !== undefined ? budgetIndex.get(route.budget) : undefined;
      if (to !== undefined) add({ from, to, kind: route.kind, budget: budget ?? -1, route: index });
      const exhausted =
        route.kind === 'retry' && route.exhausted !== undefined ? indexOf.get(route.exhausted) : undefined;
      if (exhausted !== undefined) add({ from, to: exhausted, kind: 'exhausted', budget: -1, route: index });
    });
  });

  const entrypoints = dag.entrypoints.flatMap((key) => {
    const index = indexOf.get(key);
    return index === undefined ? [] : [index];
  });
  return { dag, keys: dag.placements.map((p) => p.key), indexOf, budgetIndex, edges, out, entrypoints };
}

/** True for the edge of a retry route that spends a declared budget: the only edges allowed to close a loop. */
export function isBudgetedRetry(edge: FlowEdge): boolean {
  return edge.kind === 'retry' && edge.budget >= 0;
}

/** Adjacency lists of the edges `keep` accepts. */
export function adjacency(graph: FlowGraph, keep: (edge: FlowEdge) => boolean = () => true): number[][] {
  return graph.out.map((edges) => edges.filter(keep).map((e) => e.to));
}

/** The same graph with every edge turned around. */
export function reversed(adj: Adjacency): number[][] {
  const back: number[][] = adj.map(() => []);
  adj.forEach((targets, from) => {
    for (const to of targets) back[to]?.push(from);
  });
  return back;
}

/** Marks every vertex reachable from `sources` (sources included), breadth first. */
export function reachable(adj: Adjacency, sources: Iterable<number>): Uint8Array {
  const seen = new Uint8Array(adj.length);
  const queue: number[] = [];
  for (const s of sources) {
    if (seen[s] === 0) {
      seen[s] = 1;
      queue.push(s);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    for (const next of adj[queue[head] as number] ?? []) {
      if (seen[next] === 0) {
        seen[next] = 1;
        queue.push(next);
      }
    }
  }
  return seen;
}

/** RFC 6901 pointers into the canonical document, by position in the model's sorted lists. */
export const pointerTo = {
  placement: (p: number, field?: string): string =>
    `/placements/${p}${field === undefined ? '' : `/${field}`}`,
  route: (p: number, r: number, field?: string): string =>
    `/placements/${p}/routes/${r}${field === undefined ? '' : `/${field}`}`,
  budget: (b: number, field?: string): string => `/budgets/${b}${field === undefined ? '' : `/${field}`}`,
  entrypoint: (e: number): string => `/entrypoints/${e}`,
};
