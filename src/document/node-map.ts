import { isRecord } from './json.ts';

/**
 * The node map of an expanded JSON-LD document (its default graph): every node once, at the top level,
 * with every edge written forward as a reference from its subject. A document may write the same graph in
 * many shapes: nodes nested or side by side, one node in several pieces, an edge from its object's side
 * (`@reverse`, or a term defined with `@reverse`), nodes set aside in `@included`. The node map is the same
 * for all of them, so what is read from it (reachability, the nested tree the model is built from) is too.
 * One linear pass; what `jsonld.flatten` does for this purpose, without its cost on nodes with many values.
 */

type Json = Record<string, unknown>;

/** The node map, and for each top-level node of the expanded form its id in the map. */
export interface NodeMap {
  /** Every node with at least one property or type, in the order it is first written. */
  readonly nodes: readonly Json[];
  /** The id of the `index`th top-level node of the expanded form (a fresh blank node id when it has none). */
  readonly topLevelIds: readonly string[];
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

/** Every blank node id the document writes, so that fresh ones never collide with them. */
function writtenBlankIds(expanded: readonly unknown[]): Set<string> {
  const ids = new Set<string>();
  const stack: unknown[] = [...expanded];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) for (const inner of value) stack.push(inner);
    else if (isRecord(value) && !('@value' in value)) {
      for (const [key, inner] of Object.entries(value)) {
        if (key === '@id' && typeof inner === 'string' && inner.startsWith('_:')) ids.add(inner);
        else stack.push(inner);
      }
    }
  }
  return ids;
}

/** Defines `key` on `target` as an own data property, whatever the key is called (`__proto__` too). */
function define(target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * True when the expanded form is already one tree that holds every node once with its edges forward: one
 * top-level node, no `@reverse` or `@included`, no node given properties in two places, and no blank
 * node labels. Such a form
 * needs no node map, and compacts as it is.
 */
export function isOneTree(expanded: readonly unknown[]): boolean {
  if (expanded.length !== 1) return false;
  const ids = new Set<string>();
  const stack: unknown[] = [expanded[0]];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const inner of value) stack.push(inner);
      continue;
    }
    if (!isRecord(value) || '@value' in value) continue;
    if ('@reverse' in value || '@included' in value) return false;
    const id = value['@id'];
    // A blank node label is not part of the graph: the node map leaves out the ones referred to once.
    if (typeof id === 'string' && id.startsWith('_:')) return false;
    if (typeof id === 'string' && Object.keys(value).length > 1) {
      if (ids.has(id)) return false;
      ids.add(id);
    }
    for (const key in value) if (key !== '@id' && key !== '@type') stack.push(value[key]);
  }
  return true;
}

/** Drops, in place, the values a node holds twice under one property; lists are each a value of their own. */
function unique(node: Json): void {
  for (const [key, values] of Object.entries(node)) {
    if (!Array.isArray(values) || (key.startsWith('@') && key !== '@type')) continue;
    const seen = new Set<string>();
    const kept = values.filter((value) => {
      if (isRecord(value) && '@list' in value) return true;
      const text =
        isRecord(value) && Object.keys(value).length === 1 && typeof value['@id'] === 'string'
          ? `@id ${value['@id']}`
          : JSON.stringify(value);
      if (seen.has(text)) return false;
      seen.add(text);
      return true;
    });
    if (kept.length < values.length) define(node, key, kept);
  }
}

/**
 * The node map of `expanded` (the output of `jsonld.expand`, named graphs already refused).
 *
 * @example
 * ```ts
 * const { nodes } = nodeMap(await expand(documentWithReverseProperties));
 * ```
 */
export function nodeMap(expanded: readonly unknown[]): NodeMap {
  const written = writtenBlankIds(expanded);
  let counter = 0;
  const fresh = (): string => {
    let id: string;
    do id = `_:n${counter++}`;
    while (written.has(id));
    return id;
  };
  const byId = new Map<string, Json>();
  // Nodes that got values from more than one place (pieces, reverse edges): an edge written twice there is
  // one edge, as in RDF, so their values are made unique once at the end.
  const merged = new Set<Json>();

  const entry = (id: string, piece: boolean): Json => {
    let node = byId.get(id);
    if (!node) {
      node = { '@id': id };
      byId.set(id, node);
    } else if (piece && Object.keys(node).length > 1) merged.add(node);
    return node;
  };
  const valuesOf = (node: Json, property: string): unknown[] => {
    const values = Object.hasOwn(node, property) ? node[property] : undefined;
    if (Array.isArray(values)) return values;
    const created: unknown[] = [];
    if (property === '__proto__') define(node, property, created);
    else node[property] = created;
    return created;
  };

  const flatValue = (value: unknown): unknown => {
    if (!isRecord(value) || '@value' in value) return value;
    if ('@list' in value) {
      return { ...value, '@list': asArray(value['@list']).map(flatValue) };
    }
    return { '@id': flatten(value) };
  };

  const flatten = (node: Json): string => {
    const id = typeof node['@id'] === 'string' ? node['@id'] : fresh();
    const target = entry(id, true);
    for (const [key, value] of Object.entries(node)) {
      if (key === '@id') continue;
      if (key === '@type') {
        const types = valuesOf(target, '@type');
        for (const type of asArray(value)) types.push(type);
      } else if (key === '@reverse' && isRecord(value)) {
        // Each subject written on the object's side gets the edge forward.
        for (const [property, subjects] of Object.entries(value)) {
          for (const subject of asArray(subjects)) {
            if (!isRecord(subject)) continue;
            const from = entry(flatten(subject), false);
            merged.add(from);
            valuesOf(from, property).push({ '@id': id });
          }
        }
      } else if (key === '@included') {
        for (const included of asArray(value)) if (isRecord(included)) flatten(included);
      } else if (key.startsWith('@')) {
        // @index and the like say nothing in the graph; kept as written.
        if (!Object.hasOwn(target, key)) define(target, key, value);
      } else {
        const values = valuesOf(target, key);
        for (const inner of asArray(value)) values.push(flatValue(inner));
      }
    }
    return id;
  };

  const topLevelIds = expanded.map((node) => (isRecord(node) ? flatten(node) : fresh()));
  for (const node of merged) unique(node);
  const nodes = [...byId.values()].filter((node) => Object.keys(node).some((key) => key !== '@id'));
  return { nodes, topLevelIds };
}
