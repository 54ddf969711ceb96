/**
 * Admission: a dispatcher runs only documents that passed the same analysis as `validate`, and only in the
 * form that was analysed. Each document is copied and deep-frozen before it is analysed; the frozen copy is
 * what gets compiled and run, so changing the caller's object afterwards (a budget's `max`, a route) has no
 * effect on any run, and a library that later returns another object for an IRI gets that object admitted
 * before it runs.
 */

import { awaitDeadlineProblems } from '../awaits/check.ts';
import type { Dag, DagLibrary } from '../document/model.ts';
import { type Problem, SwitchyardError } from '../errors.ts';
import { analyse } from '../graph/analyse.ts';
import { type CompiledDag, compile } from '../graph/compile.ts';
import { deepFreeze } from '../policy/defaults.ts';
import type { RuntimePolicy } from '../policy/types.ts';
import type { NodeRegistry } from './node.ts';
import { isCompiled, missingParts, type Prepared, prepare, reachOf } from './prepare.ts';

/** A frozen deep copy of a model: the form that is analysed, compiled and run. */
function snapshot(dag: Dag): Dag {
  let copy: Dag;
  try {
    copy = structuredClone(dag);
  } catch (error) {
    throw new SwitchyardError(
      'E_INPUT',
      `DAG '${String(dag.id)}' is not plain data and cannot be admitted (${(error as Error).message}); pass a model from loadDagFile or the builder`,
      { cause: error },
    );
  }
  return deepFreeze(copy);
}

/**
 * The documents one dispatcher has admitted, by the object the caller or the library handed over. An
 * object is admitted once: what runs is the frozen copy taken then, whatever happens to the object later.
 * Before each run the library is asked again for the documents the run may enter, and one that is now
 * another object is admitted (or refused) before the run starts. A document that is refused is not
 * remembered, so it is analysed again on its next run.
 */
export class Admissions {
  private readonly admitted = new WeakMap<Dag, Prepared>();
  /** By admitted root: the library IRIs its runs may enter, checked again before each run. */
  private readonly needs = new WeakMap<Prepared, readonly string[]>();

  constructor(
    private readonly registry: NodeRegistry,
    private readonly library: DagLibrary | undefined,
    private readonly policy: RuntimePolicy,
  ) {}

  /**
   * The prepared form of `dag` (a model, or a compiled DAG whose model is taken and compiled again) after
   * admitting it and every library document it embeds or scatters over. Throws a {@link SwitchyardError}
   * when one of them is refused: see {@link admit}.
   * @example
   * const prep = admissions.root(dag); // throws E_UNBOUNDED_LOOP for a loop without a budget
   */
  root(dag: Dag | CompiledDag): Prepared {
    const model = isCompiled(dag) ? dag.dag : dag;
    const prep = this.admitted.get(model);
    return prep !== undefined && this.current(prep) ? prep : this.admitFrom(model);
  }

  /** True when the library still returns an admitted object for every IRI the run of `prep` may enter. */
  private current(prep: Prepared): boolean {
    const iris = this.needs.get(prep);
    if (iris === undefined) return true;
    for (const iri of iris) {
      const dag = this.library?.get(iri);
      if (dag === undefined || !this.admitted.has(dag)) return false;
    }
    return true;
  }

  /**
   * The prepared form of the library document `iri` as the library returns it now, admitting it first when
   * it is an object not seen before; undefined when the library lacks it. Throws like {@link root}.
   */
  iri(iri: string): Prepared | undefined {
    const dag = this.library?.get(iri);
    if (dag === undefined) return undefined;
    return this.admitted.get(dag) ?? this.admitFrom(dag);
  }

  /** Snapshots `start` and the library documents it reaches, admits them together, then compiles each. */
  private admitFrom(start: Dag): Prepared {
    const copies = new Map<Dag, Dag>();
    const copyOf = (dag: Dag): Dag => {
      const known = this.admitted.get(dag)?.compiled.dag ?? copies.get(dag);
      if (known !== undefined) return known;
      const copy = snapshot(dag);
      copies.set(dag, copy);
      return copy;
    };
    const library = this.library;
    // Analysis and the checks below read library documents through this view, so they see the copies
    // that will run, not objects that may change between the check and the run.
    const view: DagLibrary | undefined =
      library === undefined
        ? undefined
        : {
            get: (id) => {
              const dag = library.get(id);
              return dag === undefined ? undefined : copyOf(dag);
            },
          };
    const root = copyOf(start);
    const reached = reachableDags(root, view);
    admit(root, reached, this.registry, view);
    refuseEndlessWaits(root, this.policy, view);
    // Only the copies that were analysed are remembered: a library that hands out a new object on every
    // call gets each one analysed when it is about to run.
    const analysed = new Set(reached);
    let rootPrep: Prepared | undefined;
    const reach = reachOf(reached);
    for (const [original, copy] of copies) {
      if (!analysed.has(copy)) continue;
      const prep = prepare(compile(copy), this.policy, this.registry, reach);
      this.admitted.set(original, prep);
      if (copy === root) rootPrep = prep;
    }
    const prep = rootPrep ?? (this.admitted.get(start) as Prepared);
    const iris = new Set<string>();
    for (const dag of reached) {
      for (const p of dag.placements) {
        if ((p.kind === 'embed' || p.kind === 'scatter') && p.dag !== undefined) iris.add(p.dag);
      }
    }
    if (iris.size > 0) this.needs.set(prep, [...iris]);
    return prep;
  }
}

/**
 * Refuses a run whose policy gives an await placement of its documents no deadline (`E_AWAIT_NO_DEADLINE`):
 * an item nobody answers would wait for ever.
 */
function refuseEndlessWaits(root: Dag, policy: RuntimePolicy, library: DagLibrary | undefined): void {
  const problems = awaitDeadlineProblems(root, policy, library === undefined ? {} : { library });
  const first = problems[0];
  if (first === undefined) return;
  throw new SwitchyardError(first.code, `DAG '${root.id}' cannot run with this policy: ${first.message}`, {
    problems,
  });
}

/** The documents a run of `dag` may enter: itself and, transitively, the library documents it embeds or scatters over. */
export function reachableDags(dag: Dag, library: DagLibrary | undefined): Dag[] {
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
 * Refuses to run `root` when its nodes or library documents are missing, or when analysis (termination
 * proof, references, structure) finds an error in it or in a document of `reached`. Throws a
 * {@link SwitchyardError} with the code of the first problem and every problem attached (`problems`).
 * Works on models, not compiled DAGs, so that a document that would not compile gets its full list.
 * @example
 * admit(dag, [dag], registry, undefined); // throws E_UNBOUNDED_LOOP for a loop without a budget
 */
export function admit(
  root: Dag,
  reached: readonly Dag[],
  registry: NodeRegistry,
  library: DagLibrary | undefined,
): void {
  const options = library === undefined ? { nodes: registry } : { nodes: registry, library };
  const problems: Problem[] = [];
  for (const dag of reached) {
    for (const found of analyse(dag, options)) {
      if (found.severity === 'error') problems.push(found);
    }
  }
  const missing = missingParts(root, registry, library);
  if (missing.nodes.length > 0) {
    throw new SwitchyardError(
      'E_NODE_NOT_REGISTERED',
      `DAG '${root.id}' needs nodes that are not registered: ${missing.nodes.join(', ')}; pass them in createDispatcher({ nodes })`,
      { problems },
    );
  }
  if (missing.dags.length > 0) {
    throw new SwitchyardError(
      'E_UNKNOWN_DAG',
      `DAG '${root.id}' embeds documents missing from the library: ${missing.dags.join(', ')}; pass them in createDispatcher({ library })`,
      { problems },
    );
  }
  const first = problems[0];
  if (first === undefined) return;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : '';
  throw new SwitchyardError(
    first.code,
    `DAG '${root.id}' cannot run: ${first.message}${more}; run 'switchyard validate' on the document's file to see every problem`,
    { problems },
  );
}
