import type { Dag, DagLibrary } from '../document/model.ts';
import { SwitchyardError } from '../errors.ts';
import { analyse } from '../graph/analyse.ts';
import { compile } from '../graph/compile.ts';
import type { RuntimePolicy } from '../policy/types.ts';
import type { NodeRegistry } from '../runtime/node.ts';
import { type Prepared, prepare } from '../runtime/prepare.ts';

/**
 * The documents of one run as a worker admits them. The submitter admitted the run against its own nodes;
 * a worker checks the documents again (structure, references between documents, the termination proof)
 * but not its nodes: a worker may register only some of the nodes a run needs, and a placement whose node
 * it lacks is handed back for another worker (see {@link lacksNode}) rather than refusing the whole run.
 */
export class WorkerAdmissions {
  private readonly prepared = new Map<string, Prepared>();

  constructor(
    private readonly registry: NodeRegistry,
    private readonly library: DagLibrary,
    private readonly policy: RuntimePolicy,
  ) {}

  /** The prepared run DAG; throws a {@link SwitchyardError} naming the first problem when analysis refuses it. */
  root(dag: Dag): Prepared {
    return this.admit(dag);
  }

  /** The prepared library document `iri`, or undefined when the run's spec lacks it. */
  iri(iri: string): Prepared | undefined {
    const dag = this.library.get(iri);
    return dag === undefined ? undefined : this.admit(dag);
  }

  private admit(dag: Dag): Prepared {
    const known = this.prepared.get(dag.id);
    if (known !== undefined) return known;
    const errors = analyse(dag, { library: this.library }).filter((p) => p.severity === 'error');
    const first = errors[0];
    if (first !== undefined) {
      throw new SwitchyardError(
        first.code,
        `DAG '${dag.id}' of the run cannot run on this worker: ${first.message}; submit a document that 'switchyard validate' accepts`,
        { problems: errors },
      );
    }
    const prep = prepare(compile(dag), this.policy, this.registry);
    this.prepared.set(dag.id, prep);
    return prep;
  }
}

/** The node IRI placement `index` of `prep` names when this worker's registry lacks it, else undefined. */
export function lacksNode(prep: Prepared, index: number): string | undefined {
  const iri = prep.nodeIris[index];
  return iri !== undefined && prep.nodes[index] === undefined ? iri : undefined;
}
