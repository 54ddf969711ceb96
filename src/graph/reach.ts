/**
 * Reachability checks: every placement but a phase is reachable from an entrypoint, and every one can reach
 * a terminal. Exhaustion edges count as edges.
 */
import { type Problem, problem } from '../errors.ts';
import { adjacency, type FlowGraph, pointerTo, reachable, reversed } from './flow.ts';

/** E_UNREACHABLE and E_NO_TERMINAL_PATH; a duplicate key is reported once, by its first placement. */
export function checkReachability(graph: FlowGraph): Problem[] {
  const { dag } = graph;
  const adj = adjacency(graph);
  const fromEntry = reachable(adj, graph.entrypoints);
  const terminals = dag.placements.flatMap((p, i) => (p.kind === 'terminal' ? [i] : []));
  const toTerminal = reachable(reversed(adj), terminals);
  const problems: Problem[] = [];
  dag.placements.forEach((placement, p) => {
    if (placement.kind === 'phase' || graph.indexOf.get(placement.key) !== p) return;
    const where = { placement: placement.key, pointer: pointerTo.placement(p) };
    if (fromEntry[p] === 0) {
      problems.push(
        problem(
          'E_UNREACHABLE',
          `placement '${placement.key}' cannot be reached from any entrypoint; route to it or remove it`,
          where,
        ),
      );
    }
    if (toTerminal[p] === 0) {
      problems.push(
        problem(
          'E_NO_TERMINAL_PATH',
          `no path leads from placement '${placement.key}' to a terminal, so its items never end; route one of its outputs towards a terminal`,
          where,
        ),
      );
    }
  });
  return problems;
}
