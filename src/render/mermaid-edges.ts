/**
 * The edges of Mermaid flowcharts: one or two per route, with labels saying output, kind and budget, and
 * with a trace the counts and waits of a run. Parallel edges are merged, since Mermaid draws only one
 * label per pair of nodes in the same place.
 */
import { AWAIT_DEADLINE_OUTPUT, type Dag, type Placement, type Route } from '../document/model.ts';
import { escapeEdgeLabel, labelLines } from './mermaid-text.ts';
import type { EdgeStyle } from './theme.ts';
import { type DagTrace, edgeKey, retryWaits, type TracedKind } from './trace.ts';

/** One route's share of an edge label: its words, how many items took it, and notes after the count. */
export interface LabelPart {
  /** The words before the count, joined with ` · `. */
  readonly text: string;
  readonly count: number;
  /** Words after the count: resets, waits. */
  readonly notes: readonly string[];
  /** Items salvaged along it (an exhaustion edge to a recovery placement), summed when parts merge. */
  readonly salvaged: number;
}

/** One drawn edge, before it becomes a line of Mermaid text. */
export interface Edge {
  readonly from: string;
  readonly to: string;
  readonly arrow: '-->' | '-.->' | '==>';
  /** One part per route the edge stands for; empty for an unlabelled edge. */
  readonly parts: readonly LabelPart[];
  readonly style: EdgeStyle;
  readonly trace: 'taken' | 'untaken' | undefined;
}

/** A wait in a label: milliseconds under ten seconds, tenths of seconds from there. */
export function formatMs(ms: number): string {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/**
 * The edges one route draws, labelled and styled: a retry route draws its dashed edge and its exhaustion
 * edge; an await's `deadline` route (unless a retry) a dotted edge of its own colour. With a trace, each
 * label counts the items that took the edge and the waits before retries.
 */
export function routeEdges(
  dag: Dag,
  placement: Placement,
  route: Route,
  ref: (key: string) => string,
  trace: DagTrace | undefined,
  traced: boolean,
): Edge[] {
  const edges: Edge[] = [];
  const push = (
    to: string,
    arrow: Edge['arrow'],
    words: readonly string[],
    count: number,
    notes: readonly string[],
    style: EdgeStyle,
    salvaged = 0,
  ) =>
    edges.push({
      from: ref(from),
      to: ref(to),
      arrow,
      parts: [{ text: words.join(' · '), count, notes, salvaged }],
      style,
      trace: traced ? (count > 0 ? 'taken' : 'untaken') : undefined,
    });
  const from = placement.key;
  const taken = (kind: TracedKind): number => trace?.edges.get(edgeKey(from, route.output, kind))?.count ?? 0;
  const extra = route.label === undefined ? [] : [route.label];

  if (route.kind === 'retry') {
    const budget = dag.budgets.find((b) => b.name === route.budget);
    const kindWord = route.output === 'retry' ? [] : ['retry'];
    const bound = `${route.budget ?? '?'} ≤ ${budget?.max ?? '?'}`;
    const notes: string[] = [];
    if (route.resets && route.resets.length > 0) notes.push(`resets ${route.resets.join(', ')}`);
    const waits = trace && retryWaits(trace, from, route.to, route.budget ?? '', route.output);
    if (waits && waits.totalMs > 0) notes.push(`waited ${formatMs(waits.totalMs)}`);
    // A wait still under way is not counted as waited: the run may yet end it early.
    const pending = waits?.pendingMs.reduce((sum, ms) => sum + ms, 0) ?? 0;
    if (waits && waits.pendingMs.length > 0) notes.push(`waiting ${formatMs(pending)}`);
    push(route.to, '-.->', [route.output, ...extra, ...kindWord, bound], taken('retry'), notes, 'retry');
    if (route.exhausted !== undefined) {
      // Only the salvages that came along this very edge: a salvage route to the same placement has its own.
      const salvaged = trace?.salvages.get(edgeKey(from, route.output, 'exhausted'))?.count ?? 0;
      const words = [`${route.budget ?? '?'} exhausted`];
      push(route.exhausted, '==>', words, taken('exhausted'), [], 'exhausted', salvaged);
    }
    return edges;
  }
  const kindWord = route.kind === 'salvage' && route.output !== 'salvage' ? ['salvage'] : [];
  if (placement.kind === 'await' && route.output === AWAIT_DEADLINE_OUTPUT) {
    push(route.to, '-.->', [route.output, ...extra, ...kindWord], taken(route.kind), [], 'deadline');
    return edges;
  }
  const style = route.kind === 'salvage' ? 'salvage' : 'next';
  push(route.to, '-->', [route.output, ...extra, ...kindWord], taken(route.kind), [], style);
  return edges;
}

/**
 * Merges edges with the same ends, arrow and style into one, in first-seen order. Its label has one line
 * per distinct part; parts with the same words (two routes exhausting one budget) become one line whose
 * count is their sum. The merged edge is taken if any of its routes was.
 */
export function mergeParallel(edges: readonly Edge[]): Edge[] {
  const merged = new Map<string, Edge>();
  for (const edge of edges) {
    const key = [edge.from, edge.to, edge.arrow, edge.style].join('\u0000');
    const seen = merged.get(key);
    if (!seen) {
      merged.set(key, edge);
      continue;
    }
    const parts = [...seen.parts];
    for (const part of edge.parts) {
      const same = parts.findIndex((p) => p.text === part.text);
      const twin = parts[same];
      if (twin === undefined) {
        parts.push(part);
      } else {
        const notes = [...twin.notes, ...part.notes.filter((n) => !twin.notes.includes(n))];
        parts[same] = {
          text: twin.text,
          count: twin.count + part.count,
          notes,
          salvaged: twin.salvaged + part.salvaged,
        };
      }
    }
    const trace = seen.trace === 'taken' || edge.trace === 'taken' ? 'taken' : seen.trace;
    merged.set(key, { ...seen, parts, trace });
  }
  return [...merged.values()];
}

/** The escaped Mermaid label of an edge, one line per part; undefined for an unlabelled edge. */
export function edgeLabel(edge: Edge): string | undefined {
  if (edge.parts.length === 0) return undefined;
  return labelLines(
    edge.parts.map((part) => {
      const counted = part.count > 0 ? [part.text, `×${part.count}`] : [part.text];
      const salvaged = part.salvaged > 0 ? [`salvaged ×${part.salvaged}`] : [];
      return escapeEdgeLabel([...counted, ...part.notes, ...salvaged].join(' · '));
    }),
  );
}
