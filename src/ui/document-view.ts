/**
 * What the viewer shows of one DAG document: its problems at their line and column, its placements with
 * worst-case executions and its loops with their budgets (as `inspect` computes them), and its diagram as the
 * Mermaid text `switchyard render` writes, in both colour schemes.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import { loadPolicyFor } from '../cli/policy-file.ts';
import { loadDagFile } from '../document/load.ts';
import type { Dag, DagLibrary, Placement } from '../document/model.ts';
import { isSwitchyardError, type Problem } from '../errors.ts';
import { computeBounds, countOf, formatCount } from '../graph/bounds.ts';
import { compile } from '../graph/compile.ts';
import { findCycles } from '../graph/cycles.ts';
import { worstCaseTime } from '../graph/worst-time.ts';
import { toMermaid } from '../render/mermaid.ts';
import { mermaidId } from '../render/mermaid-text.ts';
import { type DiagramTooLarge, diagramTooLarge } from './diagram-size.ts';

/** A problem as the page lists it: no absolute paths, with its line and column. */
export interface ProblemView {
  readonly code: string;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
  readonly pointer?: string;
  readonly placement?: string;
  /** The placements of a loop no budget bounds, in order. */
  readonly cycle?: readonly string[];
}

/** One placement with the most times one item can run it. */
export interface PlacementView {
  readonly key: string;
  readonly kind: string;
  readonly label?: string;
  /** What it runs: a node IRI, a document IRI, or a terminal's outcome. */
  readonly runs?: string;
  /** A whole number as text, or `unbounded`. */
  readonly worstCase: string;
}

/** A retry route of a loop. */
export interface LoopRouteView {
  readonly from: string;
  readonly output: string;
  readonly to: string;
  readonly exhausted?: string;
}

/** One budget with the retry routes that spend it and the placements of the loop they close. */
export interface LoopView {
  readonly budget: string;
  readonly max: number;
  readonly placements: readonly string[];
  readonly routes: readonly LoopRouteView[];
}

/** The worst-case time per item with the policy beside the document. */
export interface TimeView {
  /** The policy file, relative to the served folder. */
  readonly policy: string;
  readonly ms?: number;
  readonly unboundedBecause?: string;
}

/** Everything the page shows of one document. */
export interface DocumentView {
  /** Relative to the served folder, with `/` separators. */
  readonly path: string;
  readonly valid: boolean;
  readonly problems: readonly ProblemView[];
  readonly id?: string;
  readonly name?: string;
  readonly version?: string;
  readonly description?: string;
  readonly placements?: readonly PlacementView[];
  readonly loops?: readonly LoopView[];
  /** Most placement executions per item, or `unbounded`. */
  readonly worstCasePerItem?: string;
  readonly worstCaseTime?: TimeView;
  /** Mermaid text of the diagram, per colour scheme: the text `switchyard render` draws. */
  readonly mermaid?: { readonly light: string; readonly dark: string };
  /** Instead of {@link DocumentView.mermaid}: the diagram is too large to draw in the page. */
  readonly diagramTooLarge?: DiagramTooLarge;
}

/** The diagram of `dag` in both colour schemes, or why the page does not draw it. */
function diagramOf(
  dag: Dag,
  draw: (theme: 'light' | 'dark') => string,
): Pick<DocumentView, 'mermaid' | 'diagramTooLarge'> {
  const tooLarge = diagramTooLarge(dag);
  return tooLarge === undefined
    ? { mermaid: { light: draw('light'), dark: draw('dark') } }
    : { diagramTooLarge: tooLarge };
}

/** `file` relative to `root`, with `/` separators. */
export function slashedPath(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}

/** A problem without absolute paths: the page names files relative to the served folder. */
export function problemView(p: Problem, root: string): ProblemView {
  const message = p.message.replaceAll(`${root}${sep}`, '').replaceAll(root, '.');
  return {
    code: p.code,
    severity: p.severity,
    message,
    ...(p.line === undefined ? {} : { line: p.line }),
    ...(p.column === undefined ? {} : { column: p.column }),
    ...(p.pointer === undefined ? {} : { pointer: p.pointer }),
    ...(p.placement === undefined ? {} : { placement: p.placement }),
    ...(p.cycle === undefined ? {} : { cycle: p.cycle }),
  };
}

function runsOf(placement: Placement): string | undefined {
  if ('node' in placement && placement.node) return placement.node;
  if ('dag' in placement && placement.dag) return placement.dag;
  return placement.kind === 'terminal' ? placement.outcome : undefined;
}

/** The worst-case time with `<stem>.policy.json` beside the document, when that file exists. */
async function timeWithPolicy(
  file: string,
  dag: Dag,
  library: DagLibrary,
  root: string,
): Promise<TimeView | undefined> {
  const policyFile = join(dirname(file), `${basename(file, extname(file))}.policy.json`);
  if (!existsSync(policyFile)) return undefined;
  const policyPath = slashedPath(root, policyFile);
  try {
    const policy = await loadPolicyFor(policyFile, root, { dag, library });
    const compiled = compile(dag);
    const time = worstCaseTime(compiled, computeBounds(compiled, library), policy, library);
    return {
      policy: policyPath,
      ...(time.totalMs === undefined ? {} : { ms: Number(time.totalMs) }),
      ...(time.unboundedBecause === undefined ? {} : { unboundedBecause: time.unboundedBecause }),
    };
  } catch (error) {
    if (!isSwitchyardError(error)) throw error;
    return { policy: policyPath, unboundedBecause: `the policy does not load: ${error.message}` };
  }
}

/**
 * The view of a valid document: its analysis and both diagrams.
 * @example
 * const view = await validDocumentView('review.jsonld', file, dag, library, [], root);
 */
export async function validDocumentView(
  path: string,
  file: string,
  dag: Dag,
  library: DagLibrary,
  problems: readonly ProblemView[],
  root: string,
): Promise<DocumentView> {
  const compiled = compile(dag);
  const bounds = computeBounds(compiled, library);
  const loops = findCycles(compiled).filter((l) => l.routes.length > 0);
  const time = await timeWithPolicy(file, dag, library, root);
  const draw = (theme: 'light' | 'dark') => toMermaid(dag, { theme, library });
  return {
    path,
    valid: true,
    problems,
    id: dag.id,
    name: dag.name,
    version: dag.version,
    ...(dag.description === undefined ? {} : { description: dag.description }),
    placements: dag.placements.map((p) => {
      const runs = runsOf(p);
      return {
        key: p.key,
        kind: p.kind,
        ...(p.label === undefined ? {} : { label: p.label }),
        ...(runs === undefined ? {} : { runs }),
        worstCase: formatCount(countOf(bounds.perPlacement, p.key)),
      };
    }),
    loops: loops.map((l) => ({
      budget: l.budget,
      max: l.max,
      placements: l.placements,
      routes: l.routes.map((r) => ({
        from: r.from,
        output: r.output,
        to: r.to,
        ...(r.exhausted === undefined ? {} : { exhausted: r.exhausted }),
      })),
    })),
    worstCasePerItem: formatCount(bounds.total),
    ...(time === undefined ? {} : { worstCaseTime: time }),
    ...diagramOf(dag, draw),
  };
}

// Drawn over the placements of a loop no budget bounds, in the colour of failure in both themes.
const CYCLE_STYLE = 'stroke:#dc2626,stroke-width:4px,stroke-dasharray:6 3';

/** `text` with the placements of each unbounded cycle outlined, so the page shows where the loop is. */
function withCycles(text: string, problems: readonly ProblemView[]): string {
  const keys = [...new Set(problems.flatMap((p) => (p.code === 'E_UNBOUNDED_LOOP' ? (p.cycle ?? []) : [])))];
  if (keys.length === 0) return text;
  const ids = keys.map((key) => mermaidId([key])).join(',');
  return `${text}  classDef cycle ${CYCLE_STYLE}\n  class ${ids} cycle\n`;
}

/**
 * The view of a document that fails: its problems, and, when it still loads as a model (analysis found the
 * problem, not the loader), its diagram with the placements of an unbounded loop outlined.
 * @example
 * const view = await invalidDocumentView('loop.jsonld', file, library, problems);
 */
export async function invalidDocumentView(
  path: string,
  file: string,
  library: DagLibrary,
  problems: readonly ProblemView[],
): Promise<DocumentView> {
  const { dag } = await loadDagFile(file);
  if (dag === undefined) return { path, valid: false, problems };
  const draw = (theme: 'light' | 'dark') => withCycles(toMermaid(dag, { theme, library }), problems);
  return {
    path,
    valid: false,
    problems,
    id: dag.id,
    name: dag.name,
    version: dag.version,
    ...(dag.description === undefined ? {} : { description: dag.description }),
    ...diagramOf(dag, draw),
  };
}
