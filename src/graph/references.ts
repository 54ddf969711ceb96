/**
 * Checks of what a document names outside itself: node IRIs and their outputs, embedded documents and
 * embedding cycles. Outputs of placements without a node are checked against the engine's outputs always, and
 * an await's against its answers and the engine's `deadline`.
 */
import { type Dag, type DagLibrary, ENGINE_OUTPUTS, type Placement } from '../document/model.ts';
import { type Problem, problem } from '../errors.ts';
import { pointerTo } from './flow.ts';

/** What analysis needs to know about node implementations: the outputs declared under an IRI. */
export interface NodeCatalog {
  /** The outputs the node registered under `iri` declares, or undefined when no node has that IRI. */
  outputsOf(iri: string): readonly string[] | undefined;
}

/** The outputs a placement may route, or undefined when they cannot be known (a task whose node is unknown). */
function allowedOutputs(
  placement: Placement,
  nodes: NodeCatalog | undefined,
): ReadonlySet<string> | undefined {
  const engine = ENGINE_OUTPUTS[placement.kind];
  if (placement.kind === 'await') return new Set([...engine, ...placement.answers]);
  if (placement.kind !== 'task') return new Set(engine);
  const declared = nodes?.outputsOf(placement.node);
  return declared === undefined ? undefined : new Set([...engine, ...declared]);
}

/** The outputs a placement declares beyond the engine's, each of which wants a route: a task's node's, an await's answers. */
function declaredOutputs(placement: Placement, nodes: NodeCatalog | undefined): readonly string[] {
  if (placement.kind === 'await') return placement.answers;
  if (placement.kind === 'task') return nodes?.outputsOf(placement.node) ?? [];
  return [];
}

/** E_UNKNOWN_NODE, E_UNKNOWN_OUTPUT and W_UNROUTED_OUTPUT (an await's answers are checked without `nodes`). */
export function checkNodes(dag: Dag, nodes: NodeCatalog | undefined): Problem[] {
  const problems: Problem[] = [];
  dag.placements.forEach((placement, p) => {
    const node = placement.kind === 'task' || placement.kind === 'phase' ? placement.node : undefined;
    const bodyNode = placement.kind === 'scatter' ? placement.node : undefined;
    const iri = node ?? bodyNode;
    if (nodes && iri !== undefined && nodes.outputsOf(iri) === undefined) {
      problems.push(
        problem(
          'E_UNKNOWN_NODE',
          `placement '${placement.key}' names node '${iri}', which no loaded module registers; fix the IRI or register the node`,
          { placement: placement.key, pointer: pointerTo.placement(p, 'node') },
        ),
      );
    }
    const allowed = allowedOutputs(placement, nodes);
    if (allowed === undefined) return;
    placement.routes.forEach((route, r) => {
      if (allowed.has(route.output)) return;
      const choices = [...allowed].map((o) => `'${o}'`).join(', ') || 'none';
      problems.push(
        problem(
          'E_UNKNOWN_OUTPUT',
          `placement '${placement.key}' (${placement.kind}) has no output '${route.output}'; use one of: ${choices}`,
          { placement: placement.key, pointer: pointerTo.route(p, r, 'output') },
        ),
      );
    });
    const declared = declaredOutputs(placement, nodes);
    const routed = new Set(placement.routes.map((route) => route.output));
    for (const output of declared) {
      if (routed.has(output)) continue;
      problems.push(
        problem(
          'W_UNROUTED_OUTPUT',
          `output '${output}' of placement '${placement.key}' has no route, so items taking it fail; add a route for it`,
          { placement: placement.key, pointer: pointerTo.placement(p, 'routes') },
        ),
      );
    }
  });
  return problems;
}

/** The documents a document runs: embed placements and scatter sub-DAGs, with their positions. */
function embeddings(dag: Dag): { readonly index: number; readonly key: string; readonly iri: string }[] {
  return dag.placements.flatMap((placement, index) =>
    (placement.kind === 'embed' || placement.kind === 'scatter') && placement.dag !== undefined
      ? [{ index, key: placement.key, iri: placement.dag }]
      : [],
  );
}

/** A cycle of documents reachable from `start` through embeddings, as IRIs (first not repeated), or []. */
function embedCycle(start: string, getDag: (iri: string) => Dag | undefined): string[] {
  const path: string[] = [];
  const done = new Set<string>();
  const visit = (iri: string): string[] => {
    const at = path.indexOf(iri);
    if (at >= 0) return path.slice(at);
    if (done.has(iri)) return [];
    const dag = getDag(iri);
    if (!dag) return [];
    path.push(iri);
    for (const child of embeddings(dag)) {
      const cycle = visit(child.iri);
      if (cycle.length > 0) return cycle;
    }
    path.pop();
    done.add(iri);
    return [];
  };
  return visit(start);
}

/** E_UNKNOWN_DAG and E_EMBED_CYCLE, for the documents this one embeds. */
export function checkLibrary(dag: Dag, library: DagLibrary): Problem[] {
  const getDag = (iri: string): Dag | undefined => (iri === dag.id ? dag : library.get(iri));
  const problems: Problem[] = [];
  for (const { index, key, iri } of embeddings(dag)) {
    const where = { placement: key, pointer: pointerTo.placement(index, 'dag') };
    if (!getDag(iri)) {
      problems.push(
        problem(
          'E_UNKNOWN_DAG',
          `placement '${key}' runs the document '${iri}', which is not loaded; load it or fix the IRI`,
          where,
        ),
      );
      continue;
    }
    const cycle = embedCycle(iri, getDag);
    if (cycle.length > 0) {
      problems.push(
        problem(
          'E_EMBED_CYCLE',
          `placement '${key}' runs '${iri}', and documents ${[...cycle, cycle[0]].join(' → ')} embed each other without end; break the cycle`,
          { ...where, cycle },
        ),
      );
    }
  }
  return problems;
}
