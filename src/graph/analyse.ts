/**
 * Static analysis of a DAG document: every problem at once, errors and warnings, each with its code,
 * placement, JSON pointer and a message that says how to fix it.
 */
import type { Dag, DagLibrary } from '../document/model.ts';
import type { Problem } from '../errors.ts';
import { proveTermination } from './cycles.ts';
import { flowGraph } from './flow.ts';
import { checkReachability } from './reach.ts';
import { checkLibrary, checkNodes, type NodeCatalog } from './references.ts';
import { checkStructure } from './structure.ts';

/** What `analyse` may check beyond the document itself. */
export interface AnalyseOptions {
  /** Node implementations: enables E_UNKNOWN_NODE, E_UNKNOWN_OUTPUT on tasks and W_UNROUTED_OUTPUT on tasks. */
  readonly nodes?: NodeCatalog;
  /** Other documents: enables E_UNKNOWN_DAG and E_EMBED_CYCLE. */
  readonly library?: DagLibrary;
  /** Set as `file` on every problem. */
  readonly file?: string;
}

/** Compares JSON pointers segment by segment, numeric segments as numbers. */
function comparePointers(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  const left = a.split('/');
  const right = b.split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const x = left[i] as string;
    const y = right[i] as string;
    if (x === y) continue;
    const numeric = /^\d+$/.test(x) && /^\d+$/.test(y);
    if (numeric) return Number(x) - Number(y);
    return x < y ? -1 : 1;
  }
  return left.length - right.length;
}

/** Errors before warnings, then in document order, then by code and message. */
function compareProblems(a: Problem, b: Problem): number {
  if (a.severity !== b.severity) return a.severity === 'error' ? -1 : 1;
  const byPointer = comparePointers(a.pointer, b.pointer);
  if (byPointer !== 0) return byPointer;
  if (a.code !== b.code) return a.code < b.code ? -1 : 1;
  return a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
}

/**
 * Checks a document and returns every problem found, sorted; an empty list (or warnings only) means the
 * document compiles and every item's walk through it ends.
 * @example
 * const problems = analyse(dag, { library, file: 'dags/review.jsonld' });
 * const errors = problems.filter((p) => p.severity === 'error');
 */
export function analyse(dag: Dag, options: AnalyseOptions = {}): Problem[] {
  const graph = flowGraph(dag);
  const problems = [
    ...checkStructure(dag, graph),
    ...checkReachability(graph),
    ...proveTermination(dag, graph),
    ...checkNodes(dag, options.nodes),
    ...(options.library ? checkLibrary(dag, options.library) : []),
  ];
  const { file } = options;
  const located = file === undefined ? problems : problems.map((p) => ({ ...p, file }));
  return located.sort(compareProblems);
}
