/**
 * The edges of Mermaid flowcharts: one or two per route, with labels saying output, kind and budget, and
 * with a trace the counts and waits of a run.
 */
import type { Dag, Placement, Route } from '../document/model.ts';
import { escapeEdgeLabel } from './mermaid-text.ts';
import type { EdgeStyle } from './theme.ts';
import { type DagTrace, edgeKey, retryKey, type TracedKind } from './trace.ts';

/** One drawn edge, before it becomes a line of Mermaid text. */
export interface Edge {
  readonly from: string;
  readonly to: string;
  readonly arrow: '-->' | '-.->' | '==>';
  readonly label: string | undefined;
  readonly style: EdgeStyle;
  readonly trace: 'taken' | 'untaken' | undefined;
}

function formatMs(ms: number): string {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/**
 * The edges one route draws, labelled and styled: a retry route draws its dashed edge and its exhaustion
 * edge. With a trace, each label counts the items that took the edge and the waits before retries.
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
    from: string,
    to: string,
    arrow: Edge['arrow'],
    parts: readonly string[],
    style: EdgeStyle,
    state: Edge['trace'],
  ) => edges.push({ from, to, arrow, label: escapeEdgeLabel(parts.join(' · ')), style, trace: state });
  const from = placement.key;
  const taken = (kind: TracedKind): number => trace?.edges.get(edgeKey(from, route.output, kind))?.count ?? 0;
  const state = (count: number) => (traced ? (count > 0 ? 'taken' : 'untaken') : undefined);
  const counted = (parts: string[], count: number): string[] => (count > 0 ? [...parts, `×${count}`] : parts);
  const salvaged = (to: string): string[] => {
    const count = trace?.salvages.get(retryKey(from, to))?.count ?? 0;
    return count > 0 ? [`salvaged ×${count}`] : [];
  };
  const extra = route.label === undefined ? [] : [route.label];

  if (route.kind === 'retry') {
    const budget = dag.budgets.find((b) => b.name === route.budget);
    const count = taken('retry');
    const kindWord = route.output === 'retry' ? [] : ['retry'];
    const bound = `${route.budget ?? '?'} ≤ ${budget?.max ?? '?'}`;
    const parts = counted([route.output, ...extra, ...kindWord, bound], count);
    if (route.resets && route.resets.length > 0) parts.push(`resets ${route.resets.join(', ')}`);
    const waits = trace?.retries.get(retryKey(from, route.to, route.budget ?? ''));
    if (waits && waits.totalMs > 0) parts.push(`waited ${formatMs(waits.totalMs)}`);
    push(ref(from), ref(route.to), '-.->', parts, 'retry', state(count));
    if (route.exhausted !== undefined) {
      const spent = taken('exhausted');
      const exhausted = [
        ...counted([`${route.budget ?? '?'} exhausted`], spent),
        ...salvaged(route.exhausted),
      ];
      push(ref(from), ref(route.exhausted), '==>', exhausted, 'exhausted', state(spent));
    }
    return edges;
  }
  const count = taken(route.kind);
  if (route.kind === 'salvage') {
    const kindWord = route.output === 'salvage' ? [] : ['salvage'];
    push(
      ref(from),
      ref(route.to),
      '-->',
      counted([route.output, ...extra, ...kindWord], count),
      'salvage',
      state(count),
    );
    return edges;
  }
  push(ref(from), ref(route.to), '-->', counted([route.output, ...extra], count), 'next', state(count));
  return edges;
}
