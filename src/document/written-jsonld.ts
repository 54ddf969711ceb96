/**
 * Maps a pointer into the canonical form (the model, or the normalised compact document) to where the same
 * value is written in a document of any JSON-LD form: expanded, aliased, with inline contexts, flattened.
 * Placements are found by their key, routes by output and target, mappings by their pointers, budgets by
 * name, and properties through the terms of the published and inline contexts, so a problem found after
 * normalisation still shows the line and column the author wrote.
 */
import { contextDocument } from './context-loader.ts';
import { isRecord, pointerSegment } from './json.ts';
import { VOCAB_IRI } from './model.ts';

type Json = Record<string, unknown>;

/** One object of the written document: where it is and its properties by vocabulary name. */
interface WrittenNode {
  readonly pointer: string;
  readonly props: ReadonlyMap<string, { readonly key: string; readonly value: unknown }>;
}

interface WrittenIndex {
  readonly nodes: readonly WrittenNode[];
  readonly local: (term: string) => string | undefined;
  /** The objects that carry a property, by that property's vocabulary name and each string it holds. */
  readonly by: (name: string, value: string) => readonly WrittenNode[];
  readonly dagNode: WrittenNode | undefined;
}

const indexes = new WeakMap<object, WrittenIndex>();

/** Term definitions (term → IRI or keyword as written) of a context value, for the terms it names. */
function addDefinitions(context: unknown, into: Map<string, string>): void {
  if (Array.isArray(context)) {
    for (const entry of context) addDefinitions(entry, into);
    return;
  }
  if (!isRecord(context)) return;
  for (const [term, definition] of Object.entries(context)) {
    const iri =
      typeof definition === 'string' ? definition : isRecord(definition) ? definition['@id'] : undefined;
    if (typeof iri === 'string') into.set(term, iri);
  }
}

/** The vocabulary name (`hasPlacement`) or keyword (`@id`) a written property name stands for. */
function resolver(definitions: ReadonlyMap<string, string>): (term: string) => string | undefined {
  return (term) => {
    let current = term;
    for (let step = 0; step < 8; step++) {
      if (current.startsWith('@')) return current;
      if (current.startsWith(VOCAB_IRI)) return current.slice(VOCAB_IRI.length);
      const next = definitions.get(current);
      if (next !== undefined) {
        current = next;
        continue;
      }
      const colon = current.indexOf(':');
      const prefix = colon > 0 ? definitions.get(current.slice(0, colon)) : undefined;
      if (prefix === undefined || current.slice(colon + 1).startsWith('//')) return undefined;
      current = `${prefix}${current.slice(colon + 1)}`;
    }
    return undefined;
  };
}

function buildIndex(raw: unknown): WrittenIndex {
  const definitions = new Map<string, string>();
  addDefinitions((contextDocument() as Json)['@context'], definitions);
  const nodes: WrittenNode[] = [];
  const objects: { pointer: string; value: Json }[] = [];
  // Iterative walk: the document is within the nesting limit, but no recursion is needed either.
  const stack: { pointer: string; value: unknown }[] = [{ pointer: '', value: raw }];
  while (stack.length > 0) {
    const { pointer, value } = stack.pop() as { pointer: string; value: unknown };
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ pointer: `${pointer}/${i}`, value: value[i] });
    } else if (isRecord(value)) {
      objects.push({ pointer, value });
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        if (key === '@context') addDefinitions(value[key], definitions);
        else stack.push({ pointer: `${pointer}/${pointerSegment(key)}`, value: value[key] });
      }
    }
  }
  const local = resolver(definitions);
  for (const { pointer, value } of objects) {
    const props = new Map<string, { key: string; value: unknown }>();
    for (const [key, inner] of Object.entries(value)) {
      const name = key === '@context' ? undefined : local(key);
      if (name !== undefined && !props.has(name)) props.set(name, { key, value: inner });
    }
    nodes.push({ pointer, props });
  }
  // Lookups by value are indexed once, so mapping many problems stays linear in the document.
  const lookup = new Map<string, Map<string, WrittenNode[]>>();
  const by = (name: string, value: string): readonly WrittenNode[] => {
    let index = lookup.get(name);
    if (!index) {
      index = new Map();
      for (const node of nodes) {
        const prop = node.props.get(name);
        if (!prop) continue;
        for (const text of new Set(stringsOf(prop.value))) {
          const list = index.get(text);
          if (list) list.push(node);
          else index.set(text, [node]);
        }
      }
      lookup.set(name, index);
    }
    return index.get(value) ?? [];
  };
  const dagNode = nodes.find((n) => n.props.has('hasPlacement') || n.props.has('entrypoint'));
  return { nodes, local, by, dagNode };
}

/** The strings a written value stands for: itself, its `@value`, `@id` or `@list`, one array level deep. */
function stringsOf(value: unknown, depth = 0): string[] {
  if (typeof value === 'string' || typeof value === 'number') return [String(value)];
  if (Array.isArray(value)) return depth > 2 ? [] : value.flatMap((v) => stringsOf(v, depth + 1));
  if (!isRecord(value) || depth > 2) return [];
  if ('@value' in value) return stringsOf(value['@value'], depth + 1);
  if ('@list' in value) return stringsOf(value['@list'], depth + 1);
  const id = value['@id'];
  return typeof id === 'string' ? [id] : [];
}

function has(node: WrittenNode, name: string, value: string): boolean {
  const prop = node.props.get(name);
  return prop !== undefined && stringsOf(prop.value).includes(value);
}

/** Of the candidates, the one written inside `parent`, else one `parent` refers to by id, else the first. */
function closest(
  candidates: WrittenNode[],
  parent: WrittenNode | undefined,
  relation: string,
): WrittenNode | undefined {
  if (!parent) return candidates[0];
  const inside = candidates.find((c) => c.pointer.startsWith(`${parent.pointer}/`));
  if (inside) return inside;
  const referenced = stringsOf(parent.props.get(relation)?.value);
  return candidates.find((c) => referenced.some((id) => has(c, '@id', id))) ?? candidates[0];
}

/** The pointer of property `name` of `node` (with the item of an array at `value` when given). */
function property(index: WrittenIndex, node: WrittenNode, field: string, value?: unknown): string {
  const name = index.local(field) ?? field;
  const prop = node.props.get(name);
  if (!prop) return node.pointer;
  const at = `${node.pointer}/${pointerSegment(prop.key)}`;
  if (value === undefined || !Array.isArray(prop.value)) return at;
  const i = prop.value.findIndex((item) => stringsOf(item).includes(String(value)));
  return i < 0 ? at : `${at}/${i}`;
}

function records(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

/**
 * The pointer into `raw` (the document as written) of the value at `pointer` in `canonical` (the model or
 * the normalised compact document); the nearest enclosing object found, or `''` for the whole document.
 *
 * @example
 * ```ts
 * const at = writtenJsonLdPointer(JSON.parse(expandedText), dag, '/placements/2/routes/0/to');
 * ```
 */
export function writtenJsonLdPointer(raw: unknown, canonical: object, pointer: string): string {
  if (raw === null || typeof raw !== 'object') return '';
  let index = indexes.get(raw);
  if (!index) {
    index = buildIndex(raw);
    indexes.set(raw, index);
  }
  const doc = canonical as Json;
  const [, head, at, ...rest] = pointer.split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const { dagNode } = index;
  if (head === undefined || head === '') return '';
  if (at === undefined) return dagNode ? property(index, dagNode, head) : '';
  const i = Number(at);
  if (head === 'entrypoints')
    return dagNode ? property(index, dagNode, head, records(doc.entrypoints)[i]) : '';
  if (head === 'budgets') {
    const name = records(doc.budgets)[i]?.name;
    const node = index.by('name', String(name)).find((n) => n.props.has('max'));
    if (!node) return dagNode?.pointer ?? '';
    return rest[0] === undefined ? node.pointer : property(index, node, rest[0]);
  }
  if (head !== 'placements') return dagNode?.pointer ?? '';
  const placement = records(doc.placements)[i];
  const key = String(placement?.key);
  const keyed = index.by('key', key);
  const node = keyed.find((n) => n.props.has('kind')) ?? keyed[0];
  if (!node || !placement) return dagNode?.pointer ?? '';
  const [field, item, inner, next] = rest;
  if (field === undefined) return node.pointer;
  if (item === undefined) return property(index, node, field);
  const listed = records(placement[field])[Number(item)];
  if (!listed) return property(index, node, field);
  const relation = index.local(field) ?? field;
  const matches = (n: WrittenNode) =>
    field === 'routes'
      ? has(n, 'output', String(listed.output)) && has(n, 'to', String(listed.to))
      : has(n, 'from', String(listed.from)) && has(n, 'to', String(listed.to));
  const found = closest(index.by('to', String(listed.to)).filter(matches), node, relation);
  if (!found) return property(index, node, field);
  if (inner === undefined) return found.pointer;
  const listedValue = listed[inner];
  const value = next === undefined || !Array.isArray(listedValue) ? undefined : listedValue[Number(next)];
  return property(index, found, inner, value);
}
