/**
 * Checks that nesting a document around its `Dag` node keeps every node: a named graph, or a node the DAG
 * does not reach along the graph's edges (whichever direction the document writes them in), would be
 * dropped while the hash stayed that of the rest. Each such node is an `E_JSONLD_LOSSY` problem at the
 * place it is written.
 */
import { type Problem, problem } from '../errors.ts';
import { isRecord, pointerSegment } from './json.ts';
import { clip } from './limits.ts';
import { VOCAB_IRI } from './model.ts';
import type { NodeMap } from './node-map.ts';

type Json = Record<string, unknown>;

const DAG_TYPE = `${VOCAB_IRI}Dag`;
const MAX_REPORTED = 20;

function types(node: Json): unknown[] {
  const type = node['@type'];
  return Array.isArray(type) ? type : [type];
}

/** The ids of the nodes a flattened node refers to, in its properties and lists. */
function referencedIds(node: Json): string[] {
  const out: string[] = [];
  const stack: unknown[] = Object.entries(node)
    .filter(([key]) => !key.startsWith('@'))
    .map(([, value]) => value);
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) for (const v of value) stack.push(v);
    else if (isRecord(value)) {
      if ('@list' in value) stack.push(value['@list']);
      else if (typeof value['@id'] === 'string') out.push(value['@id']);
    }
  }
  return out;
}

/** Names that a context in the document defines as an alias of `@id`, besides `@id` itself. */
function idKeys(raw: unknown): Set<string> {
  const keys = new Set(['@id']);
  const stack: unknown[] = [raw];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) for (const v of value) stack.push(v);
    else if (isRecord(value)) {
      for (const [key, inner] of Object.entries(value)) {
        if (key === '@context') {
          for (const context of Array.isArray(inner) ? inner : [inner]) {
            if (!isRecord(context)) continue;
            for (const [term, definition] of Object.entries(context))
              if (definition === '@id') keys.add(term);
          }
        } else stack.push(inner);
      }
    }
  }
  return keys;
}

/**
 * Where a node is written: the first object that gives its `@id` (in full or as `sy:…`) with properties of
 * its own, else the first that gives its `@id` at all, else the top-level node of the expanded form it came
 * from, by its place in `@graph`; `''` when none is known.
 */
function writtenAt(raw: unknown, keys: ReadonlySet<string>, id: string, topLevel: number): string {
  const short = id.startsWith(VOCAB_IRI) ? `sy:${id.slice(VOCAB_IRI.length)}` : id;
  let reference: string | undefined;
  const stack: { value: unknown; pointer: string }[] = [{ value: raw, pointer: '' }];
  while (stack.length > 0) {
    const { value, pointer } = stack.pop() as { value: unknown; pointer: string };
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], pointer: `${pointer}/${i}` });
    } else if (isRecord(value)) {
      const entries = Object.entries(value).filter(([key]) => key !== '@context');
      if ([...keys].some((key) => value[key] === id || value[key] === short)) {
        if (entries.length > 1) return pointer;
        reference ??= pointer;
      }
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, inner] = entries[i] as [string, unknown];
        stack.push({ value: inner, pointer: `${pointer}/${pointerSegment(key)}` });
      }
    }
  }
  if (reference !== undefined) return reference;
  const graph = isRecord(raw) ? raw['@graph'] : raw;
  const list = Array.isArray(graph) ? graph : [];
  const prefix = Array.isArray(raw) ? '' : '/@graph';
  return topLevel >= 0 && topLevel < list.length ? `${prefix}/${topLevel}` : '';
}

/** A named graph in the expanded form, and the pointer of its `@graph` as written. */
function namedGraphPointer(raw: unknown): string {
  const stack: { value: unknown; pointer: string }[] = [{ value: raw, pointer: '' }];
  while (stack.length > 0) {
    const { value, pointer } = stack.pop() as { value: unknown; pointer: string };
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push({ value: value[i], pointer: `${pointer}/${i}` });
    } else if (isRecord(value)) {
      const own = Object.keys(value).filter((k) => k !== '@context' && k !== '@graph');
      if ('@graph' in value && (pointer !== '' || own.length > 0)) return `${pointer}/@graph`;
      for (const [key, inner] of Object.entries(value)) {
        if (key !== '@context') stack.push({ value: inner, pointer: `${pointer}/${pointerSegment(key)}` });
      }
    }
  }
  return '';
}

/**
 * The named graph of an expanded document, which nesting would drop: one problem at its `@graph`.
 *
 * @example
 * ```ts
 * const problems = namedGraphs(await expand(raw), raw, 'dag.flattened.jsonld');
 * ```
 */
export function namedGraphs(expanded: readonly unknown[], raw: unknown, file?: string): Problem[] {
  const stack: unknown[] = [...expanded];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) for (const inner of v) stack.push(inner);
    else if (isRecord(v)) {
      if ('@graph' in v) {
        return [
          problem(
            'E_JSONLD_LOSSY',
            'a named graph (a node with @graph) is not part of a DAG and would be dropped — move its nodes into the default graph or remove it',
            { ...(file === undefined ? {} : { file }), pointer: namedGraphPointer(raw) },
          ),
        ];
      }
      for (const inner of Object.values(v)) stack.push(inner);
    }
  }
  return [];
}

/**
 * The nodes of a node map that no `Dag` node reaches along its edges: nesting the document around its DAG
 * would drop them. Empty when there is no `Dag` node (the caller says so).
 *
 * @example
 * ```ts
 * const problems = unreachedNodes(nodeMap(await expand(raw)), raw, 'dag.flattened.jsonld');
 * ```
 */
export function unreachedNodes(map: NodeMap, raw: unknown, file?: string): Problem[] {
  const where = file === undefined ? {} : { file };
  const byId = new Map<string, Json>();
  for (const node of map.nodes) byId.set(node['@id'] as string, node);
  const reached = new Set<string>();
  const stack = map.nodes.filter((n) => types(n).includes(DAG_TYPE)).map((n) => n['@id'] as string);
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (reached.has(id)) continue;
    reached.add(id);
    const node = byId.get(id);
    if (node) for (const next of referencedIds(node)) if (!reached.has(next)) stack.push(next);
  }
  if (reached.size === 0) return [];
  const dropped = map.nodes.filter((node) => !reached.has(node['@id'] as string));
  const keys = dropped.length > 0 ? idKeys(raw) : new Set<string>();
  return dropped.slice(0, MAX_REPORTED).map((node) => {
    const id = node['@id'] as string;
    const named = id.startsWith('_:') ? '' : `'${clip(id)}' `;
    return problem(
      'E_JSONLD_LOSSY',
      `node ${named}is not reached from the DAG, so loading would drop it — link it from the DAG (a placement, route, budget or mapping) or remove it`,
      { ...where, pointer: writtenAt(raw, keys, id, map.topLevelIds.indexOf(id)) },
    );
  });
}
