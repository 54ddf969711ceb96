/**
 * Nests a flattened JSON-LD document (every node at the top level, linked by `{"@id": …}` references) into
 * one tree under its `Dag` node, in one linear pass. It does what framing with `@embed: @once` does for
 * this vocabulary (each referenced node embedded at its first reference, blank-node ids that are referenced
 * once dropped, nodes written in several pieces merged), without the framing algorithm's cost, which grows
 * much faster than the document. What the `Dag` node does not reach is left out: `unreachedNodes`
 * (lossless.ts) refuses such documents first.
 */

import { isRecord } from './json.ts';
import { MAX_DOCUMENT_DEPTH } from './limits.ts';
import { VOCAB_IRI } from './model.ts';

type Json = Record<string, unknown>;

const DAG_TYPE = `${VOCAB_IRI}Dag`;

function isReference(value: Json): value is { '@id': string } {
  return typeof value['@id'] === 'string' && Object.keys(value).length === 1;
}

/** Top-level nodes by id, the pieces of a node written more than once merged property by property. */
function nodesById(nodes: readonly Json[]): Map<string, Json> {
  const byId = new Map<string, Json>();
  // A node written in several pieces is merged into a copy of its own, whose arrays are appended to in place.
  const merged = new Set<Json>();
  for (const node of nodes) {
    const id = node['@id'];
    if (typeof id !== 'string') continue;
    let seen = byId.get(id);
    if (!seen) {
      byId.set(id, node);
      continue;
    }
    if (!merged.has(seen)) {
      seen = Object.fromEntries(
        Object.entries(seen).map(([key, value]) => [key, Array.isArray(value) ? [...value] : value]),
      ) as Json;
      merged.add(seen);
      byId.set(id, seen);
    }
    for (const [key, value] of Object.entries(node)) {
      const before = seen[key];
      if (key === '@id') continue;
      if (Array.isArray(before) && Array.isArray(value)) for (const inner of value) before.push(inner);
      else
        Object.defineProperty(seen, key, {
          value: Array.isArray(value) ? [...value] : value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
  }
  return byId;
}

/** How often each id is referenced. */
function referenceCounts(nodes: readonly Json[]): Map<string, number> {
  const counts = new Map<string, number>();
  const stack: unknown[] = [];
  for (const node of nodes)
    for (const [key, value] of Object.entries(node)) if (key !== '@id') stack.push(value);
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) for (const inner of value) stack.push(inner);
    else if (isRecord(value) && !('@value' in value)) {
      if (isReference(value)) counts.set(value['@id'], (counts.get(value['@id']) ?? 0) + 1);
      else for (const [key, inner] of Object.entries(value)) if (key !== '@id') stack.push(inner);
    }
  }
  return counts;
}

/**
 * The expanded form of a flattened document nested under each of its `Dag` nodes.
 *
 * @example
 * ```ts
 * const compact = await compactDag(nestFlattened(await expand(flattenedDocument)));
 * ```
 */
export function nestFlattened(expanded: readonly unknown[]): Json[] {
  const nodes = expanded.filter(isRecord);
  const byId = nodesById(nodes);
  const counts = referenceCounts(nodes);
  const embedded = new Set<string>();

  // Recursion depth is capped: past the nesting limit a reference stays a reference, and the schema says so.
  const node = (value: Json, depth: number): Json => {
    const out: Json = {};
    for (const [key, inner] of Object.entries(value)) {
      if (
        key === '@id' &&
        typeof inner === 'string' &&
        inner.startsWith('_:') &&
        (counts.get(inner) ?? 0) <= 1
      ) {
        continue;
      }
      out[key] = key.startsWith('@') && key !== '@list' ? inner : values(inner, depth);
    }
    return out;
  };
  const values = (value: unknown, depth: number): unknown => {
    if (Array.isArray(value)) return value.map((inner) => values(inner, depth));
    if (!isRecord(value) || '@value' in value) return value;
    if ('@list' in value) return { ...value, '@list': values(value['@list'], depth) };
    if (isReference(value)) {
      const id = value['@id'];
      const target = byId.get(id);
      if (!target || embedded.has(id) || depth >= MAX_DOCUMENT_DEPTH) return value;
      embedded.add(id);
      return node(target, depth + 1);
    }
    return node(value, depth + 1);
  };

  const isDag = (n: Json) => {
    const type = n['@type'];
    return Array.isArray(type) ? type.includes(DAG_TYPE) : type === DAG_TYPE;
  };
  const roots = [
    ...new Set(
      nodes.filter(isDag).map((n) => (typeof n['@id'] === 'string' ? (byId.get(n['@id']) ?? n) : n)),
    ),
  ];
  for (const root of roots) if (typeof root['@id'] === 'string') embedded.add(root['@id']);
  return roots.map((root) => node(root, 0));
}
