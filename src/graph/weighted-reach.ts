/**
 * Weighted reachability: for every vertex, the sum of the weights of the groups of sources that reach it, each
 * group counted once however many of its sources reach the vertex. This is what the bounds need (a segment of
 * an item's walk starting at any target of a budget's retry routes visits a placement at most once), and what
 * a breadth-first search per group computes in quadratic time.
 *
 * Here the condensation is covered by paths (greedily, in topological order). The sources on one path that
 * reach a vertex are a prefix of the path, so one sweep per path that holds a source finds, for each vertex,
 * the last such source, and a prefix sum of the path's weights gives their total. A group of several sources
 * becomes one extra vertex with an edge to each. Each sweep visits only the descendants of the path's first
 * source, so chains, lattices and trees cost linear time (times the lattice's width). Past a stated amount of
 * work the remaining paths are summed per path of the graph instead: a sound upper bound, never below the
 * exact one.
 */
import type { Adjacency } from './flow.ts';
import { stronglyConnected } from './scc.ts';

/** Sources counted together: a vertex reached from any of them gains `weight` once. */
export interface SourceGroup {
  readonly vertices: readonly number[];
  readonly weight: bigint;
}

/** Counters of the work done, for tests that check the cost grows linearly. */
export interface ReachWork {
  /** Vertices visited by the sweeps. */
  visited: number;
  /** Sweeps made (paths holding a source). */
  sweeps: number;
  /** True when the work limit was reached and the rest was over-approximated. */
  approximated: boolean;
}

/** Vertices visited across all sweeps (at least), beyond which the remaining paths are over-approximated. */
export const EXACT_WORK_FLOOR = 2_000_000;

/** Sweeps' work per vertex and edge allowed beyond the floor: the cost stays linear in the graph's size. */
export const EXACT_WORK_PER_ELEMENT = 32;

function edgeCount(adj: Adjacency): number {
  let count = 0;
  for (const targets of adj) count += targets.length;
  return count;
}

/**
 * Per vertex of `adj`, the total weight of the groups with a source that reaches it (a vertex reaches itself).
 * `adj` may have cycles: every vertex of a strongly connected component gets the same total.
 * @example
 * weightedReach([[1], [2], []], [{ vertices: [1], weight: 5n }]); // [0n, 5n, 5n]
 */
export function weightedReach(
  adj: Adjacency,
  groups: readonly SourceGroup[],
  work: ReachWork = { visited: 0, sweeps: 0, approximated: false },
  limit: number = Math.max(EXACT_WORK_FLOOR, EXACT_WORK_PER_ELEMENT * (adj.length + edgeCount(adj))),
): bigint[] {
  const n = adj.length;
  // Condensation: Tarjan lists components sinks first.
  const components = stronglyConnected(adj);
  const c0 = components.length;
  const compOf = new Int32Array(n);
  components.forEach((component, i) => {
    for (const v of component) compOf[v] = c0 - 1 - i;
  });
  const edgesOf: number[][] = [];
  const indegree = new Int32Array(c0);
  for (let c = 0; c < c0; c++) edgesOf.push([]);
  for (let v = 0; v < n; v++) {
    for (const w of adj[v] ?? []) {
      const from = compOf[v] as number;
      const to = compOf[w] as number;
      if (from !== to) {
        edgesOf[from]?.push(to);
        indegree[to] = (indegree[to] as number) + 1;
      }
    }
  }
  // Renumbered breadth first (Kahn's algorithm, first in first out), so that a layered graph is numbered
  // layer by layer and the greedy path cover below follows its layers.
  const rank = new Int32Array(c0);
  const queue: number[] = [];
  for (let c = 0; c < c0; c++) if (indegree[c] === 0) queue.push(c);
  for (let head = 0; head < queue.length; head++) {
    const c = queue[head] as number;
    rank[c] = head;
    for (const d of edgesOf[c] ?? []) {
      indegree[d] = (indegree[d] as number) - 1;
      if (indegree[d] === 0) queue.push(d);
    }
  }
  for (let v = 0; v < n; v++) compOf[v] = rank[compOf[v] as number] as number;
  const out: number[][] = [];
  for (let c = 0; c < c0; c++) out.push([]);
  edgesOf.forEach((targets, c) => {
    out[rank[c] as number] = targets.map((d) => rank[d] as number);
  });
  const weight: bigint[] = new Array<bigint>(c0).fill(0n);
  // Groups of several components become extra vertices placed before every other one, each swept on its
  // own. When those sweeps could pass the limit, each source of such a group gains the group's weight
  // instead: a vertex then counts the group once per source that reaches it (sound, no longer exact).
  const extra: { targets: number[]; weight: bigint }[] = [];
  const several: { targets: number[]; weight: bigint }[] = [];
  for (const group of groups) {
    if (group.weight === 0n) continue;
    const targets = [...new Set(group.vertices.map((v) => compOf[v] as number))];
    if (targets.length === 1) {
      weight[targets[0] as number] = (weight[targets[0] as number] ?? 0n) + group.weight;
    } else if (targets.length > 1) several.push({ targets, weight: group.weight });
  }
  if (several.length * (adj.length + edgeCount(adj)) <= limit / 2) for (const g of several) extra.push(g);
  else {
    work.approximated = true;
    for (const { targets, weight: w } of several) {
      for (const t of targets) weight[t] = (weight[t] ?? 0n) + w;
    }
  }
  // Vertex numbering of the extended graph: extras 0..e-1, then components shifted by e; ids are topological.
  const e = extra.length;
  const total = e + c0;
  const succ = (x: number): readonly number[] =>
    x < e ? (extra[x]?.targets.map((t) => t + e) ?? []) : (out[x - e]?.map((t) => t + e) ?? []);
  const weightOf = (x: number): bigint => (x < e ? (extra[x]?.weight ?? 0n) : (weight[x - e] ?? 0n));

  // Greedy path cover, in topological order: a vertex continues the path of a predecessor that still ends
  // the path (so a lattice needs about as many paths as it is wide).
  const preds: number[][] = [];
  for (let x = 0; x < total; x++) preds.push([]);
  for (let x = 0; x < total; x++) for (const y of succ(x)) preds[y]?.push(x);
  const pathOf = new Int32Array(total).fill(-1);
  const indexOnPath = new Int32Array(total);
  const paths: number[][] = [];
  for (let x = 0; x < total; x++) {
    for (const u of preds[x] ?? []) {
      const path = paths[pathOf[u] as number] as number[];
      if (path[path.length - 1] === u) {
        pathOf[x] = pathOf[u] as number;
        indexOnPath[x] = path.length;
        path.push(x);
        break;
      }
    }
    if (pathOf[x] === -1) {
      pathOf[x] = paths.length;
      paths.push([x]);
    }
  }

  const sum: bigint[] = new Array<bigint>(total).fill(0n);
  const best = new Int32Array(total).fill(-1);
  const approximate: number[] = [];
  for (let p = 0; p < paths.length; p++) {
    const path = paths[p] as number[];
    const first = path.findIndex((x) => weightOf(x) !== 0n);
    if (first === -1) continue;
    if (work.visited > limit) {
      approximate.push(p);
      continue;
    }
    work.sweeps++;
    const prefix: bigint[] = [];
    let running = 0n;
    for (const x of path) {
      running += weightOf(x);
      prefix.push(running);
    }
    // The descendants of the path's first source, in topological (id) order.
    const start = path[first] as number;
    const seen: number[] = [start];
    best[start] = first;
    for (let head = 0; head < seen.length; head++) {
      for (const y of succ(seen[head] as number)) {
        if (best[y] === -1) {
          best[y] = -2;
          seen.push(y);
        }
      }
    }
    work.visited += seen.length;
    seen.sort((a, b) => a - b);
    for (const x of seen) {
      if (pathOf[x] === p && (indexOnPath[x] as number) > (best[x] as number))
        best[x] = indexOnPath[x] as number;
      const at = best[x] as number;
      if (at >= 0) {
        sum[x] = (sum[x] ?? 0n) + (prefix[at] ?? 0n);
        for (const y of succ(x)) if (at > (best[y] as number)) best[y] = at;
      }
    }
    for (const x of seen) best[x] = -1;
  }
  if (approximate.length > 0) {
    work.approximated = true;
    // Each remaining source counted once per path of the graph from it: never less than once.
    const carried: bigint[] = new Array<bigint>(total).fill(0n);
    const counted = new Uint8Array(total);
    for (const p of approximate) for (const x of paths[p] as number[]) counted[x] = 1;
    for (let x = 0; x < total; x++) {
      const here = (carried[x] ?? 0n) + (counted[x] === 1 ? weightOf(x) : 0n);
      sum[x] = (sum[x] ?? 0n) + here;
      if (here !== 0n) for (const y of succ(x)) carried[y] = (carried[y] ?? 0n) + here;
    }
  }
  const result: bigint[] = [];
  for (let v = 0; v < n; v++) result.push(sum[(compOf[v] as number) + e] ?? 0n);
  return result;
}
