/**
 * Maps a JSON pointer into the model (whose lists are in canonical order) to the pointer of the same value in
 * the document as written, where lists may be in any order. Analysis reports model pointers; this lets a
 * problem show the line and column the author wrote.
 */
import type { Dag } from './model.ts';

type Json = Record<string, unknown>;

function list(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

/** Index of each written placement by key (first wins), built once per written document. */
const placementIndexes = new WeakMap<object, Map<string, number>>();

function placementIndex(doc: Json): Map<string, number> {
  let index = placementIndexes.get(doc);
  if (!index) {
    index = new Map();
    const places = list(doc.placements);
    for (let i = 0; i < places.length; i++) {
      const key = places[i]?.key;
      if (typeof key === 'string' && !index.has(key)) index.set(key, i);
    }
    placementIndexes.set(doc, index);
  }
  return index;
}

function indexWhere(values: readonly Json[], match: (value: Json) => boolean): number | undefined {
  const index = values.findIndex(match);
  return index < 0 ? undefined : index;
}

/**
 * The pointer in `written` (a canonical-form document as parsed) of the value at `modelPointer` in `dag`;
 * undefined when the value cannot be found there (e.g. a default the author left out).
 */
export function sourcePointer(written: unknown, dag: Dag, modelPointer: string): string | undefined {
  const [, head, index, ...rest] = modelPointer.split('/');
  // A whole list (`/placements`) stands where it is written.
  if (index === undefined) return modelPointer;
  const i = Number(index);
  const doc = (written ?? {}) as Json;
  if (head === 'placements') {
    const placement = dag.placements[i];
    if (!placement) return undefined;
    const places = list(doc.placements);
    const p = placementIndex(doc).get(placement.key);
    if (p === undefined) return undefined;
    if (rest[0] !== 'routes' || rest[1] === undefined) return ['', 'placements', p, ...rest].join('/');
    const route = placement.routes[Number(rest[1])];
    const r =
      route &&
      indexWhere(list(places[p]?.routes), (raw) => raw.output === route.output && raw.to === route.to);
    if (r === undefined) return `/placements/${p}`;
    return ['', 'placements', p, 'routes', r, ...rest.slice(2)].join('/');
  }
  if (head === 'budgets') {
    const budget = dag.budgets[i];
    const b = budget && indexWhere(list(doc.budgets), (raw) => raw.name === budget.name);
    return b === undefined ? undefined : ['', 'budgets', b, ...rest].join('/');
  }
  if (head === 'entrypoints') {
    const key = dag.entrypoints[i];
    const entries = Array.isArray(doc.entrypoints) ? (doc.entrypoints as unknown[]) : [];
    const e = entries.indexOf(key);
    return e < 0 ? undefined : `/entrypoints/${e}`;
  }
  return modelPointer;
}
