import type { Dag, DagLibrary } from '../document/model.ts';
import { type Problem, SwitchyardError } from '../errors.ts';
import { analyse } from '../graph/analyse.ts';
import type { CompiledDag } from '../graph/compile.ts';
import type { NodeRegistry } from './node.ts';
import { missingParts } from './prepare.ts';

/** The documents a run of `dag` may enter: itself and, transitively, the library documents it embeds or scatters over. */
function reachableDags(dag: Dag, library: DagLibrary | undefined): Dag[] {
  const found = new Map<string, Dag>([[dag.id, dag]]);
  const queue = [dag];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const p of next.placements) {
      if ((p.kind !== 'embed' && p.kind !== 'scatter') || p.dag === undefined) continue;
      const child = library?.get(p.dag);
      if (child === undefined || found.has(child.id)) continue;
      found.set(child.id, child);
      queue.push(child);
    }
  }
  return [...found.values()];
}

/**
 * Refuses to run a DAG whose nodes or library documents are missing, or in which analysis (termination
 * proof, references, structure) finds an error, in the DAG itself or in a document it embeds or scatters
 * over. Throws a {@link SwitchyardError} with the code of the first problem and every problem attached.
 * @example
 * admit(compiled, registry, library); // throws E_UNBOUNDED_LOOP for a loop without a budget
 */
export function admit(compiled: CompiledDag, registry: NodeRegistry, library: DagLibrary | undefined): void {
  const missing = missingParts(compiled, registry, library);
  if (missing.nodes.length > 0) {
    throw new SwitchyardError(
      'E_NODE_NOT_REGISTERED',
      `DAG '${compiled.dag.id}' needs nodes that are not registered: ${missing.nodes.join(', ')}; pass them in createDispatcher({ nodes })`,
    );
  }
  if (missing.dags.length > 0) {
    throw new SwitchyardError(
      'E_UNKNOWN_DAG',
      `DAG '${compiled.dag.id}' embeds documents missing from the library: ${missing.dags.join(', ')}; pass them in createDispatcher({ library })`,
    );
  }
  const options = library === undefined ? { nodes: registry } : { nodes: registry, library };
  const problems: Problem[] = [];
  for (const dag of reachableDags(compiled.dag, library)) {
    for (const found of analyse(dag, options)) {
      if (found.severity === 'error') problems.push(found);
    }
  }
  const first = problems[0];
  if (first === undefined) return;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : '';
  throw new SwitchyardError(
    first.code,
    `DAG '${compiled.dag.id}' cannot run: ${first.message}${more}; run 'switchyard check' on the document to see every problem`,
    { problems },
  );
}
