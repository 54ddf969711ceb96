/**
 * How big a diagram the page draws. Mermaid lays a diagram out and draws it in the page's own thread, in
 * time that grows faster than its size: on a 2-core machine a document of 300 shapes and arrows holds the
 * page for a second or two, one of 1,000 placements for minutes. Above {@link DIAGRAM_LIMIT} the viewer sends
 * no diagram at all, and the page says so and how to draw it (`switchyard render`), showing the tables.
 */
import { AWAIT_DEADLINE_OUTPUT, type Dag } from '../document/model.ts';

/** The most shapes and arrows (placements, start markers, edges) a diagram the page draws may have. */
export const DIAGRAM_LIMIT = 300;

/** Why a diagram is not drawn in the page: its size and the limit. */
export interface DiagramTooLarge {
  readonly placements: number;
  /** Arrows drawn: one per entrypoint, and one per kind of route between two placements (exhaustion too). */
  readonly edges: number;
  readonly limit: number;
}

/**
 * The size of `dag`'s diagram when it is above the limit, else undefined. Counted on the model, before any
 * Mermaid text is written, so a huge document costs no drawing at all.
 * @example
 * const big = diagramTooLarge(dag); // { placements: 1000, edges: 3950, limit: 300 }
 */
export function diagramTooLarge(dag: Dag, limit = DIAGRAM_LIMIT): DiagramTooLarge | undefined {
  // Routes of one kind between the same two placements are drawn as one arrow, as `render/mermaid.ts` does.
  const arrows = new Set<string>();
  for (const placement of dag.placements) {
    for (const route of placement.routes) {
      // An await's deadline route has an arrow of its own (see `render/mermaid-edges.ts`).
      const deadline =
        placement.kind === 'await' && route.output === AWAIT_DEADLINE_OUTPUT && route.kind !== 'retry';
      arrows.add(`${placement.key}\u0000${route.to}\u0000${deadline ? 'deadline' : route.kind}`);
      if (route.exhausted !== undefined)
        arrows.add(`${placement.key}\u0000${route.exhausted}\u0000exhausted`);
    }
  }
  const edges = dag.entrypoints.length + arrows.size;
  const placements = dag.placements.length;
  const shapes = placements + dag.entrypoints.length + edges;
  return shapes > limit ? { placements, edges, limit } : undefined;
}
