/**
 * The termination proof: every cycle of the graph must pass through a budgeted retry route, and budgets may
 * not reset each other in a circle. Also lists, per budget, the loop its retry routes close.
 */
import type { Dag } from '../document/model.ts';
import { type Problem, problem } from '../errors.ts';
import type { CompiledDag } from './compile.ts';
import {
  adjacency,
  type FlowEdge,
  type FlowGraph,
  flowGraph,
  isBudgetedRetry,
  pointerTo,
  reversed,
} from './flow.ts';
import { cycleWithin, isCyclic, stronglyConnected } from './scc.ts';

/** A budget's edge in the resets relation: a route spending `from` resets `to`. */
interface ResetEdge {
  readonly from: number;
  readonly to: number;
  readonly placement: number;
  readonly route: number;
  /** Position of the reset budget in the route's `resets` list. */
  readonly position: number;
}

/** Every route that spends a declared budget and resets a declared budget, as budget-index edges. */
function resetEdges(graph: FlowGraph): ResetEdge[] {
  const edges: ResetEdge[] = [];
  graph.dag.placements.forEach((placement, p) => {
    placement.routes.forEach((route, r) => {
      const from =
        route.kind === 'retry' && route.budget !== undefined
          ? graph.budgetIndex.get(route.budget)
          : undefined;
      if (from === undefined) return;
      (route.resets ?? []).forEach((name, position) => {
        const to = graph.budgetIndex.get(name);
        if (to !== undefined) edges.push({ from, to, placement: p, route: r, position });
      });
    });
  });
  return edges;
}

/** The resets relation as adjacency over budget indices: `adj[b]` = budgets reset when `b` is spent. */
export function resetAdjacency(graph: FlowGraph): number[][] {
  const adj: number[][] = graph.dag.budgets.map(() => []);
  for (const edge of resetEdges(graph)) adj[edge.from]?.push(edge.to);
  return adj;
}

/** Loops that no budget bounds: cycles of the graph left when the budgeted retry edges are taken out. */
function unboundedLoops(graph: FlowGraph): Problem[] {
  const adj = adjacency(graph, (e) => !isBudgetedRetry(e));
  const problems: Problem[] = [];
  for (const component of stronglyConnected(adj)) {
    const cycle = cycleWithin(component, adj);
    const [first, second] = [cycle[0], cycle[1] ?? cycle[0]];
    if (first === undefined || second === undefined) continue;
    const keys = cycle.map((v) => graph.keys[v] ?? '');
    const edge = graph.out[first]?.find((e: FlowEdge) => e.to === second && !isBudgetedRetry(e));
    const field = edge?.kind === 'exhausted' ? 'exhausted' : 'to';
    problems.push(
      problem(
        'E_UNBOUNDED_LOOP',
        `placements ${[...keys, keys[0]].join(' → ')} form a loop that no budget bounds; make one of these routes kind 'retry' with a budget and an exhaustion target`,
        {
          placement: keys[0] as string,
          pointer: edge ? pointerTo.route(first, edge.route, field) : pointerTo.placement(first),
          cycle: keys,
        },
      ),
    );
  }
  return problems;
}

/** Budgets that reset themselves or each other in a circle, so that none of them is ever exhausted. */
function resetCycles(graph: FlowGraph): Problem[] {
  const edges = resetEdges(graph);
  const adj = resetAdjacency(graph);
  const names = graph.dag.budgets.map((b) => b.name);
  const problems: Problem[] = [];
  for (const component of stronglyConnected(adj)) {
    const cycle = cycleWithin(component, adj);
    const [first, second] = [cycle[0], cycle[1] ?? cycle[0]];
    if (first === undefined || second === undefined) continue;
    const budgets = cycle.map((b) => names[b] ?? '');
    const edge = edges.find((e) => e.from === first && e.to === second) as ResetEdge;
    const key = graph.keys[edge.placement] as string;
    const output = graph.dag.placements[edge.placement]?.routes[edge.route]?.output ?? '';
    const message =
      cycle.length === 1
        ? `route '${key}' → '${output}' spends budget '${budgets[0]}' and resets it, so it is never exhausted; remove '${budgets[0]}' from its resets`
        : `budgets ${[...budgets, budgets[0]].join(' → ')} reset each other, so none of them is ever exhausted; remove one of these resets (first at route '${key}' → '${output}')`;
    problems.push(
      problem('E_RESET_CYCLE', message, {
        placement: key,
        pointer: `${pointerTo.route(edge.placement, edge.route, 'resets')}/${edge.position}`,
        cycle: budgets,
      }),
    );
  }
  return problems;
}

/**
 * Checks that every item's walk through the document ends: E_UNBOUNDED_LOOP for each loop no budget bounds
 * (naming one concrete cycle), E_RESET_CYCLE for budgets that reset one another (or themselves).
 * @example
 * const problems = proveTermination(dag);
 * for (const p of problems) console.error(p.message);
 */
export function proveTermination(dag: Dag, graph: FlowGraph = flowGraph(dag)): Problem[] {
  return [...unboundedLoops(graph), ...resetCycles(graph)];
}

/** One retry route spending a budget, and the placements of the loop it closes. */
export interface RetryRouteLoop {
  readonly from: string;
  readonly output: string;
  readonly to: string;
  readonly exhausted: string | undefined;
  /** Placements an item can revisit through this route without any other retry; empty if it closes no loop. */
  readonly loop: readonly string[];
}

/** A budget, the retry routes that spend it, and the placements their loops cover. */
export interface BudgetLoop {
  readonly budget: string;
  readonly max: number;
  readonly routes: readonly RetryRouteLoop[];
  /** Union of the routes' loops, in key order. */
  readonly placements: readonly string[];
  /** Budgets set back to zero when one of these routes is taken. */
  readonly resets: readonly string[];
}

/**
 * Lists every budget with the retry routes spending it and the loop each closes: the strongly connected
 * component holding the route's source and target once this budget's retry edges are added to the graph
 * without budgeted retries. Budgets no route spends are listed with no routes.
 *
 * A cycle through a budget's edges runs from one of its targets to one of its sources in the graph without
 * budgeted retries, so only vertices between them in topological order can be on it: the search for each
 * budget stays inside that window, and a chain of self-retries costs linear time, not one whole-graph pass
 * per budget.
 * @example
 * for (const loop of findCycles(compile(dag))) console.log(loop.budget, loop.max, loop.placements.join(', '));
 */
export function findCycles(compiled: CompiledDag): BudgetLoop[] {
  const graph = flowGraph(compiled.dag);
  const base = adjacency(graph, (e) => !isBudgetedRetry(e));
  const back = reversed(base);
  // Topological position of each vertex's component (Tarjan lists components sinks first).
  const components = stronglyConnected(base);
  const position = new Int32Array(base.length);
  components.forEach((component, i) => {
    for (const v of component) position[v] = components.length - 1 - i;
  });
  const spendingOf: FlowEdge[][] = compiled.dag.budgets.map(() => []);
  for (const edge of graph.edges) if (isBudgetedRetry(edge)) spendingOf[edge.budget]?.push(edge);
  const mark = new Int32Array(base.length).fill(-1);
  const local = new Int32Array(base.length).fill(-1);

  return compiled.dag.budgets.map((budget, b) => {
    const spending = spendingOf[b] ?? [];
    // Vertices reachable from a target without passing the last source's position, then those of them that
    // reach a source: every vertex on a cycle through this budget's edges.
    let last = -1;
    for (const e of spending) last = Math.max(last, position[e.from] as number);
    const forward: number[] = [];
    for (const e of spending) {
      if (mark[e.to] !== b && (position[e.to] as number) <= last) {
        mark[e.to] = b;
        forward.push(e.to);
      }
    }
    for (let head = 0; head < forward.length; head++) {
      for (const w of base[forward[head] as number] ?? []) {
        if (mark[w] !== b && (position[w] as number) <= last) {
          mark[w] = b;
          forward.push(w);
        }
      }
    }
    const window: number[] = [];
    const inWindow = (v: number): boolean => local[v] !== -1;
    for (const e of spending) {
      if (mark[e.from] === b && !inWindow(e.from)) {
        local[e.from] = window.length;
        window.push(e.from);
      }
    }
    for (let head = 0; head < window.length; head++) {
      for (const u of back[window[head] as number] ?? []) {
        if (mark[u] === b && !inWindow(u)) {
          local[u] = window.length;
          window.push(u);
        }
      }
    }
    // The window's graph with this budget's edges, in local indices.
    const adj: number[][] = window.map((v) =>
      (base[v] ?? []).filter(inWindow).map((w) => local[w] as number),
    );
    for (const e of spending) {
      if (inWindow(e.from) && inWindow(e.to)) adj[local[e.from] as number]?.push(local[e.to] as number);
    }
    const componentOf = new Int32Array(window.length).fill(-1);
    const found = stronglyConnected(adj);
    found.forEach((component, c) => {
      for (const v of component) componentOf[v] = c;
    });
    const covered = new Set<number>();
    const resets = new Set<string>();
    const routes = spending.map((edge): RetryRouteLoop => {
      const route = graph.dag.placements[edge.from]?.routes[edge.route];
      for (const name of route?.resets ?? []) resets.add(name);
      const from = inWindow(edge.from) ? (local[edge.from] as number) : -1;
      const to = inWindow(edge.to) ? (local[edge.to] as number) : -1;
      const c = from === -1 ? -1 : (componentOf[from] as number);
      const component = found[c] ?? [];
      const closes = c !== -1 && to !== -1 && c === componentOf[to] && isCyclic(component, adj);
      if (closes) for (const v of component) covered.add(window[v] as number);
      return {
        from: graph.keys[edge.from] as string,
        output: route?.output ?? '',
        to: graph.keys[edge.to] as string,
        exhausted: route?.exhausted,
        loop: closes
          ? component
              .map((v) => window[v] as number)
              .sort((x, y) => x - y)
              .map((v) => graph.keys[v] as string)
          : [],
      };
    });
    for (const v of window) local[v] = -1;
    return {
      budget: budget.name,
      max: budget.max,
      routes,
      placements: [...covered].sort((x, y) => x - y).map((v) => graph.keys[v] as string),
      resets: [...resets].sort(),
    };
  });
}
