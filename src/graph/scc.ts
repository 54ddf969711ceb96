/**
 * Strongly connected components (Tarjan, iterative so that deep graphs cannot overflow the call stack) and a
 * shortest concrete cycle inside a component, for naming a loop in a message.
 */
import type { Adjacency } from './flow.ts';

/**
 * The strongly connected components of a graph, each sorted ascending. Components come out in reverse
 * topological order: when an edge leads from component A to component B, B is listed before A.
 * @example
 * stronglyConnected([[1], [0], []]); // [[0, 1], [2]]
 */
export function stronglyConnected(adj: Adjacency): number[][] {
  const n = adj.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const nextEdge = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const calls: number[] = [];
  const components: number[][] = [];
  let counter = 0;

  const enter = (v: number): void => {
    index[v] = counter;
    low[v] = counter;
    counter++;
    stack.push(v);
    onStack[v] = 1;
    calls.push(v);
  };

  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    enter(root);
    while (calls.length > 0) {
      const v = calls[calls.length - 1] as number;
      const targets = adj[v] ?? [];
      const e = nextEdge[v] as number;
      if (e < targets.length) {
        nextEdge[v] = e + 1;
        const w = targets[e] as number;
        if (index[w] === -1) enter(w);
        else if (onStack[w] === 1) low[v] = Math.min(low[v] as number, index[w] as number);
        continue;
      }
      calls.pop();
      const parent = calls[calls.length - 1];
      if (parent !== undefined) low[parent] = Math.min(low[parent] as number, low[v] as number);
      if (low[v] === index[v]) {
        const component: number[] = [];
        let w: number;
        do {
          w = stack.pop() as number;
          onStack[w] = 0;
          component.push(w);
        } while (w !== v);
        components.push(component.sort((a, b) => a - b));
      }
    }
  }
  return components;
}

/** True when a component holds a cycle: more than one vertex, or one vertex with an edge to itself. */
export function isCyclic(component: readonly number[], adj: Adjacency): boolean {
  const only = component[0];
  if (component.length !== 1 || only === undefined) return component.length > 1;
  return (adj[only] ?? []).includes(only);
}

/**
 * A shortest cycle through the component's smallest vertex, staying inside the component: the vertices in
 * order, the first not repeated at the end. Empty when the component has no cycle.
 */
export function cycleWithin(component: readonly number[], adj: Adjacency): number[] {
  const start = component[0];
  if (start === undefined || !isCyclic(component, adj)) return [];
  const inside = new Set(component);
  const parent = new Map<number, number>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head] as number;
    for (const w of adj[v] ?? []) {
      if (w === start) {
        const path = [v];
        for (let at = v; at !== start; ) {
          at = parent.get(at) as number;
          path.push(at);
        }
        return path.reverse();
      }
      if (inside.has(w) && !parent.has(w)) {
        parent.set(w, v);
        queue.push(w);
      }
    }
  }
  return [];
}
