/**
 * Checks that framing a flattened document around its `Dag` node keeps every node: a named graph, or a node
 * the DAG does not reach, would be dropped by framing while the hash stayed that of the rest. Each such node
 * is an `E_JSONLD_LOSSY` problem at the place it is written.
 */
import { type Problem, problem } from '../errors.ts';
import { clip } from './limits.ts';
import { VOCAB_IRI } from './model.ts';

type Json = Record<string, unknown>;

const DAG_TYPE = `${VOCAB_IRI}Dag`;
const MAX_REPORTED = 20;

function isRecord(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function types(node: Json): unknown[] {
  const type = node['@type'];
  return Array.isArray(type) ? type : [type];
}

/** Object values (node references, embedded nodes, list items) below an expanded node's properties. */
function referencedObjects(node: Json): Json[] {
  const out: Json[] = [];
  const stack: unknown[] = Object.entries(node)
    .filter(([key]) => !key.startsWith('@') || key === '@list' || key === '@set')
    .map(([, value]) => value);
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) for (const v of value) stack.push(v);
    else if (isRecord(value) && !('@value' in value)) {
      if ('@list' in value || '@set' in value) stack.push(value['@list'] ?? value['@set']);
      else out.push(value);
    }
  }
  return out;
}

/** Where a top-level node of the expanded form is written: by its `@id`, else by its place in `@graph`. */
function writtenAt(raw: unknown, node: Json, index: number): string {
  const id = node['@id'];
  const graph = isRecord(raw) ? raw['@graph'] : raw;
  const list = Array.isArray(graph) ? graph : [];
  const prefix = Array.isArray(raw) ? '' : '/@graph';
  if (typeof id === 'string') {
    const short = id.startsWith(VOCAB_IRI) ? `sy:${id.slice(VOCAB_IRI.length)}` : id;
    const i = list.findIndex((n) => isRecord(n) && (n['@id'] === id || n['@id'] === short));
    if (i >= 0) return `${prefix}/${i}`;
  }
  return index < list.length ? `${prefix}/${index}` : '';
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
        if (key !== '@context')
          stack.push({ value: inner, pointer: `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}` });
      }
    }
  }
  return '';
}

/**
 * The nodes framing would drop from an expanded document: named graphs, and top-level nodes that no `Dag`
 * node reaches through its properties.
 *
 * @example
 * ```ts
 * const problems = droppedByFraming(await expand(raw), raw, 'dag.flattened.jsonld');
 * ```
 */
export function droppedByFraming(expanded: readonly unknown[], raw: unknown, file?: string): Problem[] {
  const where = file === undefined ? {} : { file };
  const nodes = expanded.filter(isRecord);
  const hasGraph = (value: unknown): boolean => {
    const stack = [value];
    while (stack.length > 0) {
      const v = stack.pop();
      if (Array.isArray(v)) for (const inner of v) stack.push(inner);
      else if (isRecord(v)) {
        if ('@graph' in v) return true;
        for (const inner of Object.values(v)) stack.push(inner);
      }
    }
    return false;
  };
  if (hasGraph(nodes)) {
    return [
      problem(
        'E_JSONLD_LOSSY',
        'a named graph (a node with @graph) is not part of a DAG and would be dropped — move its nodes into the default graph or remove it',
        { ...where, pointer: namedGraphPointer(raw) },
      ),
    ];
  }
  const byId = new Map<string, Json>();
  for (const node of nodes) if (typeof node['@id'] === 'string') byId.set(node['@id'], node);
  const reached = new Set<Json>();
  const reachedIds = new Set<string>();
  const stack = nodes.filter((n) => types(n).includes(DAG_TYPE));
  // Without a Dag node there is nothing to frame around: the caller says so.
  if (stack.length === 0) return [];
  while (stack.length > 0) {
    const node = stack.pop() as Json;
    if (reached.has(node)) continue;
    reached.add(node);
    const id = node['@id'];
    if (typeof id === 'string' && !reachedIds.has(id)) {
      reachedIds.add(id);
      const top = byId.get(id);
      if (top) stack.push(top);
    }
    for (const inner of referencedObjects(node)) stack.push(inner);
  }
  const dropped = nodes
    .map((node, index) => ({ node, index }))
    .filter(
      ({ node }) => !reached.has(node) && !(typeof node['@id'] === 'string' && reachedIds.has(node['@id'])),
    );
  return dropped.slice(0, MAX_REPORTED).map(({ node, index }) => {
    const id =
      typeof node['@id'] === 'string' && !node['@id'].startsWith('_:') ? `'${clip(node['@id'])}' ` : '';
    return problem(
      'E_JSONLD_LOSSY',
      `node ${id}is not reached from the DAG, so loading would drop it — link it from the DAG (a placement, route, budget or mapping) or remove it`,
      { ...where, pointer: writtenAt(raw, node, index) },
    );
  });
}
