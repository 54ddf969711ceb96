/**
 * Mermaid flowchart text for a DAG document: shapes by placement kind (an await a hexagon), retry edges
 * dashed, exhaustion edges thick, salvage edges and an await's deadline edges in their own colour, and
 * optionally a run trace drawn over it (with the waits at gates before a placement on its node).
 */
import type { Dag, DagLibrary, Placement } from '../document/model.ts';
import { type Edge, edgeLabel, formatMs, mergeParallel, routeEdges } from './mermaid-edges.ts';
import { escapeComment, escapeEdgeLabel, escapeNodeLabel, labelLines, mermaidId } from './mermaid-text.ts';
import { edgeStyle, initDirective, palette, type Theme } from './theme.ts';
import type { DagTrace, GateWaitTrace, TraceSummary } from './trace.ts';
import { type AwaitWaitTrace, awaitLine } from './trace-await-waits.ts';

/** Options of {@link toMermaid}. */
export interface MermaidOptions {
  /** Colours; default `light`. */
  readonly theme?: Theme;
  /** Where embedded DAGs are looked up when `expandEmbedded` is set. */
  readonly library?: DagLibrary;
  /** Draw each embed placement as a subgraph holding the child DAG's placements; default false. */
  readonly expandEmbedded?: boolean;
  /** A run trace to draw over the graph: taken edges emphasised with counts, the rest dimmed. */
  readonly trace?: TraceSummary;
  /** Layout direction; default `TD` (top down). */
  readonly direction?: 'TD' | 'LR';
  /**
   * The layout engine; default `elk`: it keeps edge labels apart, routes edges around embedded subgraphs, and
   * stays fast on big documents, where dagre slows down sharply.
   */
  readonly layout?: 'dagre' | 'elk';
}

/** The defaults of {@link MermaidOptions}. */
export const defaultMermaidOptions = Object.freeze({
  theme: 'light' as Theme,
  expandEmbedded: false,
  direction: 'TD' as 'TD' | 'LR',
  layout: 'elk' as 'dagre' | 'elk',
});

// Fixed order of class statements, so the text never depends on map iteration.
const CLASS_ORDER = [
  'entry',
  'task',
  'scatter',
  'gather',
  'embed',
  'await',
  'completed',
  'failed',
  'phase',
  'visited',
  'dim',
];

interface Builder {
  readonly options: MermaidOptions;
  readonly lines: string[];
  readonly edges: Edge[];
  readonly classes: Map<string, string[]>;
}

/**
 * Generates deterministic Mermaid flowchart text: the same document and options always give the same bytes.
 * @example
 * const text = toMermaid(dag, { theme: 'dark', trace: summariseTrace(events) });
 */
export function toMermaid(dag: Dag, options: MermaidOptions = {}): string {
  const theme = options.theme ?? defaultMermaidOptions.theme;
  const builder: Builder = { options, lines: [], edges: [], classes: new Map() };
  emitDag(builder, dag, [], '  ', [dag.id]);

  const out = [
    initDirective(theme, options.layout ?? defaultMermaidOptions.layout),
    `flowchart ${options.direction ?? defaultMermaidOptions.direction}`,
    `  %% ${escapeComment(`${dag.name} ${dag.version} (${dag.id})`)}`,
    ...builder.lines,
  ];
  const edges = mergeParallel(builder.edges);
  for (const edge of edges) {
    const text = edgeLabel(edge);
    const label = text === undefined ? '' : `|"${text}"|`;
    out.push(`  ${edge.from} ${edge.arrow}${label} ${edge.to}`);
  }
  const styles = palette(theme).classes;
  for (const name of CLASS_ORDER) {
    const ids = builder.classes.get(name);
    if (ids && ids.length > 0) {
      out.push(`  classDef ${name} ${styles[name]}`);
    }
  }
  for (const name of CLASS_ORDER) {
    const ids = builder.classes.get(name);
    if (ids && ids.length > 0) {
      out.push(`  class ${ids.join(',')} ${name}`);
    }
  }
  edges.forEach((edge, index) => {
    if (edge.trace !== undefined || (edge.style !== 'next' && edge.style !== 'entry')) {
      out.push(`  linkStyle ${index} ${edgeStyle(theme, edge.style, edge.trace)}`);
    }
  });
  return `${out.join('\n')}\n`;
}

function emitDag(
  builder: Builder,
  dag: Dag,
  path: readonly string[],
  indent: string,
  stack: readonly string[],
): void {
  const { options } = builder;
  const direction = options.direction ?? defaultMermaidOptions.direction;
  const trace: DagTrace | undefined = options.trace?.dags.get(dag.id);
  const traced = options.trace !== undefined;
  const byKey = new Map(dag.placements.map((p) => [p.key, p]));
  const children = new Map<string, Dag>();
  if (options.expandEmbedded && options.library) {
    for (const placement of dag.placements) {
      if (placement.kind !== 'embed') continue;
      const child = options.library.get(placement.dag);
      if (child && !stack.includes(child.id)) children.set(placement.key, child);
    }
  }
  const ref = (key: string): string =>
    children.has(key) ? mermaidId([...path, key], 'g') : mermaidId([...path, key]);
  const mark = (name: string, id: string): void => {
    const ids = builder.classes.get(name) ?? [];
    ids.push(id);
    builder.classes.set(name, ids);
  };

  const ordered = flowOrder(dag, byKey);
  dag.entrypoints.forEach((key, i) => {
    const id = mermaidId([...path, `${i}`], 'e');
    builder.lines.push(`${indent}${id}(("start"))`);
    mark('entry', id);
    const taken = traced ? ((trace?.visits.get(key) ?? 0) > 0 ? 'taken' : 'untaken') : undefined;
    builder.edges.push({
      from: id,
      to: ref(key),
      arrow: '-->',
      parts: [],
      style: 'entry',
      trace: taken,
    });
  });

  const phases: Placement[] = [];
  for (const placement of ordered) {
    if (placement.kind === 'phase') {
      phases.push(placement);
      continue;
    }
    const child = children.get(placement.key);
    const visits = trace?.visits.get(placement.key) ?? 0;
    if (child) {
      const title = `${placement.label ?? placement.key} · embeds ${child.name}${visits > 0 ? ` · ×${visits}` : ''}`;
      builder.lines.push(`${indent}subgraph ${ref(placement.key)}["${escapeEdgeLabel(title)}"]`);
      // Mermaid turns a subgraph with no edges crossing its border sideways unless told its direction.
      builder.lines.push(`${indent}  direction ${direction === 'LR' ? 'LR' : 'TB'}`);
      emitDag(builder, child, [...path, placement.key], `${indent}  `, [...stack, child.id]);
      builder.lines.push(`${indent}end`);
    } else {
      emitNode(builder, placement, ref(placement.key), indent, visits, {
        gated: trace?.gateWaits.get(placement.key),
        answered: trace?.awaitWaits.get(placement.key),
      });
      mark(kindClass(placement), ref(placement.key));
    }
    if (traced) mark(visits > 0 ? 'visited' : 'dim', ref(placement.key));
    for (const route of placement.routes) {
      builder.edges.push(...routeEdges(dag, placement, route, ref, trace, traced));
    }
  }
  if (phases.length > 0) {
    builder.lines.push(`${indent}subgraph ${mermaidId([...path, 'phases'], 'p')}["run hooks"]`);
    for (const phase of phases) {
      const visits = trace?.visits.get(phase.key) ?? 0;
      emitNode(builder, phase, ref(phase.key), `${indent}  `, visits);
      mark('phase', ref(phase.key));
      if (traced) mark(visits > 0 ? 'visited' : 'dim', ref(phase.key));
    }
    builder.lines.push(`${indent}end`);
  }
}

function emitNode(
  builder: Builder,
  placement: Placement,
  id: string,
  indent: string,
  visits: number,
  waits: { readonly gated?: GateWaitTrace | undefined; readonly answered?: AwaitWaitTrace | undefined } = {},
): void {
  const hint = kindHint(placement) + (visits > 0 ? ` · ×${visits}` : '');
  const lines = [placement.label ?? placement.key, hint];
  const waited = waits.gated === undefined ? undefined : gateLine(waits.gated);
  if (waited !== undefined) lines.push(waited);
  const answered = waits.answered === undefined ? undefined : awaitLine(waits.answered, formatMs);
  if (answered !== undefined) lines.push(answered);
  const text = labelLines(lines.map(escapeNodeLabel));
  const [open, close] = SHAPES[placement.kind];
  builder.lines.push(`${indent}${id}${open}"${text}"${close}`);
}

// A node names at most this many gate keys; a placement gated per model or per API key may wait at many.
const KEYS_SHOWN = 2;

/**
 * The line a node gets for the waits at gates before its executions, as a retry edge says its waits:
 * `gate openai · waited 12.5 s · 3 waiting`. Undefined when no item waited.
 */
function gateLine(gated: GateWaitTrace): string | undefined {
  const notes: string[] = [];
  if (gated.totalMs > 0) notes.push(`waited ${formatMs(gated.totalMs)}`);
  // A wait still under way has no length yet: the items are counted.
  if (gated.pending > 0) notes.push(`${gated.pending} waiting`);
  if (notes.length === 0) return undefined;
  const more = gated.keys.length > KEYS_SHOWN ? ` +${gated.keys.length - KEYS_SHOWN}` : '';
  return [`gate ${gated.keys.slice(0, KEYS_SHOWN).join(', ')}${more}`, ...notes].join(' · ');
}

const SHAPES: Readonly<Record<Placement['kind'], readonly [string, string]>> = {
  task: ['[', ']'],
  await: ['{{', '}}'],
  scatter: ['[/', '\\]'],
  gather: ['[\\', '/]'],
  embed: ['[[', ']]'],
  terminal: ['([', '])'],
  phase: ['[/', '/]'],
};

function kindClass(placement: Placement): string {
  return placement.kind === 'terminal' ? placement.outcome : placement.kind;
}

function kindHint(placement: Placement): string {
  switch (placement.kind) {
    case 'task':
      return 'task';
    case 'scatter':
      return `scatter ${placement.items}`;
    case 'gather':
      return `gather · ${placement.reducer}`;
    case 'embed':
      return `embed · ${tail(placement.dag)}`;
    case 'await':
      return `await · ${placement.answers.join(' | ')}`;
    case 'terminal':
      return placement.outcome;
    case 'phase':
      return `${placement.when} phase`;
  }
}

/** Placements in flow order: breadth first from the entrypoints along routes, then any unreached by key. */
function flowOrder(dag: Dag, byKey: ReadonlyMap<string, Placement>): Placement[] {
  const seen = new Set<string>();
  const order: Placement[] = [];
  const queue = [...dag.entrypoints];
  for (let i = 0; i < queue.length; i++) {
    const key = queue[i] as string;
    const placement = byKey.get(key);
    if (seen.has(key) || !placement) continue;
    seen.add(key);
    order.push(placement);
    for (const route of placement.routes) {
      queue.push(route.to);
      if (route.exhausted !== undefined) queue.push(route.exhausted);
    }
  }
  for (const placement of dag.placements) {
    if (!seen.has(placement.key)) order.push(placement);
  }
  return order;
}

function tail(iri: string): string {
  return (
    iri
      .split(/[:/#]/u)
      .filter((part) => part !== '')
      .pop() ?? iri
  );
}
