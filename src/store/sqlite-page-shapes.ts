/**
 * The shapes a page of events names its entries by (see `sqlite-page-text.ts`): the engine's own, which no
 * page lists, and how a shape is looked up by its type and keys.
 */

/** A shape: the type's value, then the keys of a body in order (`type` among them, `runId` not). */
export type Shape = [type: string, ...keys: string[]];

/**
 * The shapes of the engine's own events, which a page names without listing them: `-2 - i` for the `i`th.
 * Part of schema version 7: a shape here never changes nor moves (a page written by an older program would
 * be misread); one may be added at the end, and an event whose keys are in none of them gets a shape of its
 * page's own.
 */
export const ENGINE_SHAPES: readonly Shape[] = Object.freeze([
  ['run.start', 'type', 'dag', 'hash', 'items', 'seq', 'time'],
  ['placement.start', 'type', 'item', 'dag', 'placement', 'visit', 'seq', 'time'],
  ['placement.end', 'type', 'item', 'dag', 'placement', 'output', 'durationMs', 'seq', 'time'],
  ['route', 'type', 'item', 'dag', 'from', 'output', 'to', 'kind', 'seq', 'time'],
  ['item.end', 'type', 'item', 'dag', 'terminal', 'outcome', 'seq', 'time'],
  ['run.end', 'type', 'dag', 'status', 'completed', 'failed', 'durationMs', 'seq', 'time'],
  [
    'retry.scheduled',
    'type',
    'item',
    'dag',
    'from',
    'output',
    'to',
    'budget',
    'attempt',
    'delayMs',
    'delaySource',
    'seq',
    'time',
  ],
  ['budget.exhausted', 'type', 'item', 'dag', 'from', 'budget', 'to', 'why', 'seq', 'time'],
  ['salvage', 'type', 'item', 'dag', 'from', 'to', 'seq', 'time'],
] as Shape[]);

/** The text a shape is looked up by: its type and keys. */
export function shapeKey(type: string, keys: readonly string[]): string {
  return `${type}\u0000${keys.join('\u0000')}`;
}

/** The lookup text of each of {@link ENGINE_SHAPES}, by its index. */
export const ENGINE_SHAPE_KEYS: readonly string[] = ENGINE_SHAPES.map((shape) =>
  shapeKey(shape[0], shape.slice(1) as string[]),
);

/** The index of each of {@link ENGINE_SHAPES} by its type and keys. */
export const ENGINE_SHAPE_INDEX = new Map(ENGINE_SHAPE_KEYS.map((key, i) => [key, i] as const));

/** The index of the engine's shape of each type (one per type). */
export const ENGINE_SHAPE_OF_TYPE = new Map(ENGINE_SHAPES.map((shape, i) => [shape[0], i] as const));

/** The shape an entry names: one of the page's own (`index` ≥ 0) or one of {@link ENGINE_SHAPES}. */
export function shapeNamed(index: number, own: readonly Shape[]): Shape | undefined {
  return index >= 0 ? own[index] : ENGINE_SHAPES[-2 - index];
}
