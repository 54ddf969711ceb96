/**
 * The documents fuzz cases start from, and the rest of a case folder built around a document: the shipped
 * documents of `dags/` (every `*.jsonld`, recursively), the nodes a document names, and run input that
 * fills every list a scatter reads and every field a mapping copies.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FuzzCase } from './commands.ts';
import { type Mutation, mutate } from './mutate.ts';
import type { FuzzNodeSpec } from './nodes.ts';
import {
  eachObject,
  emit,
  INVALID_BYTES,
  Obj,
  parseTree,
  placementsOf,
  Raw,
  routesOf,
  type Tree,
} from './tree.ts';

const DAGS = fileURLToPath(new URL('../../dags/', import.meta.url));

/** A shipped document: its path under `dags/` and its tree. */
export interface Shipped {
  readonly path: string;
  readonly text: string;
  readonly tree: Tree;
}

function jsonLdFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) =>
      e.isDirectory()
        ? jsonLdFiles(join(folder, e.name))
        : e.name.endsWith('.jsonld')
          ? [join(folder, e.name)]
          : [],
    );
}

/** Every `*.jsonld` under `dags/`, recursively, in path order. */
export const SHIPPED: readonly Shipped[] = jsonLdFiles(DAGS).map((file) => {
  const text = readFileSync(file, 'utf8');
  return { path: relative(DAGS, file), text, tree: parseTree(text) };
});

/**
 * The IRI a `node` value names: a string, or a node reference `{"@id": …}` (JSON-LD reads both alike, as an
 * object tree or as verbatim text a mutation put there); undefined for anything else.
 */
/** A string as the program reads it: written as a string, or as verbatim text that parses to one. */
function stringOf(value: Tree | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (!(value instanceof Raw)) return undefined;
  try {
    const parsed: unknown = JSON.parse(value.text);
    return typeof parsed === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function nodeIri(value: Tree | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (value instanceof Obj) {
    const id = value.get('@id');
    return typeof id === 'string' ? id : undefined;
  }
  if (value instanceof Raw) {
    try {
      const parsed: unknown = JSON.parse(value.text);
      if (typeof parsed === 'string') return parsed;
      const id = (parsed as { '@id'?: unknown } | null)?.['@id'];
      return typeof id === 'string' ? id : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Node IRIs and the outputs their placements route, over every document of a case (union per IRI). */
export function nodeSpecsOf(trees: readonly Tree[]): FuzzNodeSpec[] {
  const outputs = new Map<string, Set<string>>();
  const retry = new Map<string, Set<string>>();
  const add = (value: Tree | undefined, names: readonly string[], retried: readonly string[] = []) => {
    const iri = nodeIri(value);
    if (iri === undefined) return;
    const set = outputs.get(iri) ?? new Set<string>();
    for (const n of names) set.add(n);
    outputs.set(iri, set);
    const again = retry.get(iri) ?? new Set<string>();
    for (const n of retried) again.add(n);
    retry.set(iri, again);
  };
  for (const tree of trees) {
    for (const p of placementsOf(tree)) {
      const kind = stringOf(p.get('kind'));
      const routed = routesOf(p)
        .map((r) => stringOf(r.get('output')))
        .filter((o): o is string => o !== undefined);
      if (kind === 'scatter') add(p.get('node'), ['ok', 'failed']);
      else if (kind === 'phase') add(p.get('node'), ['done']);
      else {
        const retried = routesOf(p)
          .filter((r) => stringOf(r.get('kind')) === 'retry')
          .map((r) => stringOf(r.get('output')))
          .filter((o): o is string => o !== undefined);
        add(p.get('node'), routed, retried);
      }
    }
  }
  const specs = [...outputs].map(([id, set]) => ({
    id,
    outputs: [...set],
    retry: [...(retry.get(id) ?? [])],
  }));
  // A module must export at least one node.
  return specs.length > 0 ? specs : [{ id: 'urn:fuzz:node:none', outputs: ['x'] }];
}

/** Sets `value` at a JSON pointer in `obj`, creating objects on the way; false for pointers it cannot follow. */
function setAt(obj: Obj, pointer: string, value: Tree): boolean {
  if (!pointer.startsWith('/')) return false;
  const tokens = pointer
    .slice(1)
    .split('/')
    .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
  let node = obj;
  for (const [i, token] of tokens.entries()) {
    if (i === tokens.length - 1) {
      node.set(token, value);
      return true;
    }
    const next = node.get(token);
    if (next instanceof Obj) node = next;
    else {
      const made = new Obj([]);
      node.set(token, made);
      node = made;
    }
  }
  return false;
}

/** A list element with its own lists, for scatters over sub-DAGs that scatter again. */
const element = (v: number, depth: number): Obj =>
  new Obj([
    ['v', v],
    ['q', `query ${v}`],
    ...(depth > 0
      ? ([['lists', [[element(1, depth - 1)], [], [element(2, depth - 1)]]]] as [string, Tree][])
      : []),
  ]);

/**
 * Run input for the documents of a case: `items` items, each with a small list at every scatter's `items`
 * pointer and a value at every mapping's `from`. `hostile` adds `__proto__` and `constructor` keys whose
 * contents would pollute a prototype if the engine merged them into plain objects.
 */
export function inputFor(trees: readonly Tree[], items: number, hostile: boolean): string {
  const make = (n: number) => {
    const item = new Obj([
      ['v', n],
      ['topic', 'owls'],
      ['question', 'a book about owls'],
      ['lists', [[element(1, 2), element(2, 2)], [element(3, 2)], []]],
    ]);
    for (const tree of trees) {
      eachObject(tree, (o) => {
        const items = o.get('items');
        if (typeof items === 'string') setAt(item, items, [element(1, 2), element(2, 2)]);
        const from = o.get('from');
        if (typeof from === 'string' && o.get('to') !== undefined) {
          const current = item.get(from.slice(1));
          if (current === undefined) setAt(item, from, 'value');
        }
      });
    }
    if (hostile) {
      item.entries.push(['__proto__', new Obj([['polluted', 'by input']])]);
      item.entries.push(['constructor', new Obj([['prototype', new Obj([['polluted', 'by input']])]])]);
    }
    return item;
  };
  const list = Array.from({ length: Math.max(1, items) }, (_, i) => make(i));
  return emit(list.length === 1 ? (list[0] as Tree) : list);
}

/** The bytes of a document's text, with each {@link INVALID_BYTES} marker turned into bytes that are not UTF-8. */
export function documentBytes(tree: Tree): Uint8Array {
  const parts = emit(tree).split(INVALID_BYTES);
  const chunks: Uint8Array[] = [];
  parts.forEach((part, i) => {
    if (i > 0) chunks.push(Uint8Array.of(0xff, 0xfe, 0xc3));
    chunks.push(new TextEncoder().encode(part));
  });
  return Buffer.concat(chunks);
}

/**
 * A case over the shipped documents, with the document at `path` replaced by `content` (the rest stay as
 * they are, for embeds); the nodes are those of the original and the mutated document together.
 */
export function shippedCase(
  path: string,
  content: string | Uint8Array,
  mutated: Tree,
  seed: number,
  options: { items?: number; hostileInput?: boolean } = {},
): FuzzCase {
  const files = new Map<string, string | Uint8Array>(SHIPPED.map((s) => [`dags/${s.path}`, s.text]));
  files.set(`dags/${path}`, content);
  const trees = [...SHIPPED.map((s) => s.tree), mutated];
  return {
    files,
    target: `dags/${path}`,
    nodes: nodeSpecsOf(trees),
    seed,
    input: inputFor(trees, options.items ?? 1, options.hostileInput ?? false),
  };
}

/** What a case may put beside the document it names, where the library scan will find it. */
export const JUNK = [
  'deep-array',
  'deep-object',
  'deep-unclosed',
  'not-json',
  'not-utf8',
  'empty',
  'duplicate-id',
  'folder',
  'self-link',
  'dangling-link',
  'fifo',
] as const;

export type Junk = (typeof JUNK)[number];

/** Adds one piece of junk beside the target of `c` (in `dags/`, so both library scans see it). */
export function withJunk(c: FuzzCase, junk: Junk): FuzzCase {
  const files = new Map(c.files);
  const specials = new Map(c.specials ?? []);
  const beside = `${c.target.slice(0, c.target.lastIndexOf('/') + 1)}junk.jsonld`;
  const deep = 10_000;
  switch (junk) {
    case 'deep-array':
      files.set(beside, `${'['.repeat(deep)}${']'.repeat(deep)}`);
      break;
    case 'deep-object':
      files.set(beside, `${'{"a":'.repeat(deep)}1${'}'.repeat(deep)}`);
      break;
    case 'deep-unclosed':
      files.set(beside, '['.repeat(deep));
      break;
    case 'not-json':
      files.set(beside, '{"@context": ');
      break;
    case 'not-utf8':
      files.set(beside, Uint8Array.of(0x7b, 0xff, 0xfe, 0x7d));
      break;
    case 'empty':
      files.set(beside, '');
      break;
    case 'duplicate-id': {
      const original = files.get(c.target);
      if (original !== undefined) files.set(beside, original);
      break;
    }
    default:
      specials.set(beside, junk);
  }
  return { ...c, files, specials };
}

/** A shipped document with one mutation, as a case; `probe` as in {@link FuzzCase.probe}. */
export function mutantCase(
  path: string,
  mutation: Mutation,
  seed: number,
  hostileInput: boolean,
  probe = false,
): FuzzCase {
  const mutated = mutate(SHIPPED.find((s) => s.path === path)?.tree ?? null, mutation);
  const c = shippedCase(path, documentBytes(mutated), mutated, seed, { hostileInput, items: 1 + (seed % 3) });
  return { ...c, probe };
}
