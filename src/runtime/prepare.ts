import type { Dag, DagLibrary } from '../document/model.ts';
import { gateOfPlacement } from '../gates/resolve.ts';
import type { GatePolicy } from '../gates/types.ts';
import type { CompiledDag } from '../graph/compile.ts';
import { timingFor } from '../policy/resolve.ts';
import type { RuntimePolicy, TimingPolicy } from '../policy/types.ts';
import type { NodeDefinition, NodeRegistry } from './node.ts';

/** A compiled DAG with everything the hot path looks up resolved once: timing and node per placement. */
export interface Prepared {
  readonly compiled: CompiledDag;
  /** By placement index. */
  readonly timings: readonly TimingPolicy[];
  /** By placement index: the node of a task, phase or node-bodied scatter; undefined elsewhere or unregistered. */
  readonly nodes: readonly (NodeDefinition | undefined)[];
  /** By placement index: the node IRI the placement names, if any. */
  readonly nodeIris: readonly (string | undefined)[];
  /**
   * By placement index: the finite concurrency limit of the placement's items (a task's executions, a
   * scatter's children in flight), at least 1; undefined where there is none (a batch node's task, whose
   * `maxBatch` is its limit, and an unbounded placement).
   */
  readonly limits: readonly (number | undefined)[];
  /** By placement index: the gate of the policy a task's or node-bodied scatter's executions pass through. */
  readonly gates: readonly (GatePolicy | undefined)[];
  /**
   * True when an item of a run of this document may park at an await placement: this document or one it
   * embeds or scatters through has one. Only such a run is listed for answers given to its dispatcher.
   */
  readonly awaits: boolean;
  /**
   * True when an item of a run of this document may have children that run beside it and each other: this
   * document or one it embeds or scatters through has a scatter. In a run of a document without one, no
   * more items are ever at a placement at once than the run has input items (an embed's parent waits while
   * its one child runs), so a concurrency limit at least that high never holds anyone back.
   */
  readonly fans: boolean;
}

/** What a run of a document may reach through the documents it embeds or scatters over (see {@link Prepared}). */
export interface Reach {
  readonly awaits: boolean;
  readonly fans: boolean;
}

/** True when `value` is already a compiled DAG rather than a model. */
export function isCompiled(value: Dag | CompiledDag): value is CompiledDag {
  return 'byKey' in value && 'placements' in value && 'dag' in value;
}

/** Resolves timing and nodes of every placement of a compiled DAG for one dispatcher. */
export function prepare(
  compiled: CompiledDag,
  policy: RuntimePolicy,
  registry: NodeRegistry,
  reach: Reach = reachOf([compiled.dag]),
): Prepared {
  const nodeIris = compiled.placements.map(({ placement }) =>
    placement.kind === 'task' || placement.kind === 'phase' || placement.kind === 'scatter'
      ? placement.node
      : undefined,
  );
  const timings = compiled.placements.map((p, i) => timingFor(policy, compiled.dag.id, p.key, nodeIris[i]));
  const nodes = nodeIris.map((iri) => (iri === undefined ? undefined : registry.get(iri)));
  return {
    compiled,
    awaits: reach.awaits,
    fans: reach.fans,
    nodeIris,
    timings,
    nodes,
    limits: compiled.placements.map(({ placement }, i) => {
      const limit = timings[i]?.concurrency;
      if (placement.kind === 'task' && nodes[i]?.batch !== undefined) return undefined;
      return limit !== undefined && Number.isFinite(limit) ? Math.max(1, limit) : undefined;
    }),
    gates: compiled.placements.map((p, i) =>
      nodeIris[i] === undefined || p.placement.kind === 'phase'
        ? undefined
        : gateOfPlacement(policy.gates, compiled.dag.id, p, nodeIris[i]),
    ),
  };
}

/** What runs of `dags` (a document and those it reaches) may do: park at an await, fan out at a scatter. */
export function reachOf(dags: readonly Dag[]): Reach {
  const has = (kind: string) => dags.some((dag) => dag.placements.some((p) => p.kind === kind));
  return { awaits: has('await'), fans: has('scatter') };
}

/**
 * Node IRIs a DAG needs that the registry lacks, and DAG IRIs it embeds or scatters over that the library
 * lacks, following embedded documents.
 */
export function missingParts(
  root: Dag,
  registry: NodeRegistry,
  library: DagLibrary | undefined,
): { nodes: string[]; dags: string[] } {
  const nodes = new Set<string>();
  const dags = new Set<string>();
  const seen = new Set<string>();
  const walk = (dag: Dag) => {
    if (seen.has(dag.id)) return;
    seen.add(dag.id);
    for (const p of dag.placements) {
      if ((p.kind === 'task' || p.kind === 'phase' || p.kind === 'scatter') && p.node !== undefined) {
        if (registry.get(p.node) === undefined) nodes.add(p.node);
      }
      if ((p.kind === 'embed' || p.kind === 'scatter') && p.dag !== undefined) {
        const child = library?.get(p.dag);
        if (child === undefined) dags.add(p.dag);
        else walk(child);
      }
    }
  };
  walk(root);
  return { nodes: [...nodes].sort(), dags: [...dags].sort() };
}
