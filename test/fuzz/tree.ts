/**
 * A JSON tree that can say what `JSON.parse` and plain objects cannot: objects are ordered entry lists (so a
 * key may repeat, and `__proto__` is an ordinary key), and a {@link Raw} leaf is written out verbatim (deep
 * nesting as text, numbers such as `1e400` or `-0`, bytes that are not UTF-8).
 */

/** A character that {@link emit} writes as it is and case writers replace by bytes that are not UTF-8. */
export const INVALID_BYTES = '\uE000';

/** A JSON object as its entries, in order; duplicate keys allowed. */
export class Obj {
  constructor(public entries: [string, Tree][]) {}

  /** The value of the last entry named `key`: the one `JSON.parse`, and so the loader, keeps. */
  get(key: string): Tree | undefined {
    return this.entries.findLast(([k]) => k === key)?.[1];
  }

  /** Replaces the value of every entry named `key`, or appends one. */
  set(key: string, value: Tree): void {
    let found = false;
    for (const entry of this.entries) {
      if (entry[0] === key) {
        entry[1] = value;
        found = true;
      }
    }
    if (!found) this.entries.push([key, value]);
  }
}

/** Text written out as it is, where a value would go. */
export class Raw {
  constructor(public readonly text: string) {}
}

/** A JSON value, with objects as {@link Obj} and verbatim text as {@link Raw}. */
export type Tree = null | boolean | number | string | Tree[] | Obj | Raw;

/** The tree of a parsed JSON value (own keys in order, `__proto__` included). */
export function toTree(value: unknown): Tree {
  if (Array.isArray(value)) return value.map(toTree);
  if (value !== null && typeof value === 'object') {
    return new Obj(Object.keys(value).map((k) => [k, toTree((value as Record<string, unknown>)[k])]));
  }
  return value as Tree;
}

/** Parses JSON text into a tree. */
export function parseTree(text: string): Tree {
  return toTree(JSON.parse(text));
}

/** A deep copy, so a mutation never reaches the tree it started from. */
export function cloneTree(tree: Tree): Tree {
  if (Array.isArray(tree)) return tree.map(cloneTree);
  if (tree instanceof Obj) return new Obj(tree.entries.map(([k, v]) => [k, cloneTree(v)]));
  return tree;
}

/** The JSON text of a tree, two-space indented so that problems have distinct lines. */
export function emit(tree: Tree, indent = ''): string {
  if (tree instanceof Raw) return tree.text;
  if (typeof tree === 'number') return Object.is(tree, -0) ? '-0' : JSON.stringify(tree);
  if (tree === null || typeof tree !== 'object') return JSON.stringify(tree);
  const inner = `${indent}  `;
  if (Array.isArray(tree)) {
    if (tree.length === 0) return '[]';
    return `[\n${tree.map((v) => inner + emit(v, inner)).join(',\n')}\n${indent}]`;
  }
  if (tree.entries.length === 0) return '{}';
  const body = tree.entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${emit(v, inner)}`);
  return `{\n${body.join(',\n')}\n${indent}}`;
}

/** One step of a path: an object entry by index (so duplicates are addressable), or an array index. */
export type Step = { readonly entry: number } | { readonly index: number };

/** Every path in the tree, the root (`[]`) first, in document order. */
export function paths(tree: Tree): Step[][] {
  const out: Step[][] = [];
  const walk = (node: Tree, at: Step[]) => {
    out.push(at);
    if (Array.isArray(node)) {
      for (const [index, v] of node.entries()) walk(v, [...at, { index }]);
    } else if (node instanceof Obj) {
      for (const [entry, [, v]] of node.entries.entries()) walk(v, [...at, { entry }]);
    }
  };
  walk(tree, []);
  return out;
}

/** The value at `path`, or undefined when it is not there. */
export function at(tree: Tree, path: readonly Step[]): Tree | undefined {
  let node: Tree | undefined = tree;
  for (const step of path) {
    if ('index' in step) node = Array.isArray(node) ? node[step.index] : undefined;
    else node = node instanceof Obj ? node.entries[step.entry]?.[1] : undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/** Replaces the value at a non-empty `path` (the tree is changed in place); false when it is not there. */
export function replaceAt(tree: Tree, path: readonly Step[], value: Tree): boolean {
  const parent = at(tree, path.slice(0, -1));
  const last = path.at(-1);
  if (last === undefined || parent === undefined) return false;
  if ('index' in last && Array.isArray(parent) && last.index < parent.length) {
    parent[last.index] = value;
    return true;
  }
  if ('entry' in last && parent instanceof Obj) {
    const entry = parent.entries[last.entry];
    if (entry === undefined) return false;
    entry[1] = value;
    return true;
  }
  return false;
}

/** Removes the entry or element at a non-empty `path`; false when it is not there. */
export function removeAt(tree: Tree, path: readonly Step[]): boolean {
  const parent = at(tree, path.slice(0, -1));
  const last = path.at(-1);
  if (last === undefined || parent === undefined) return false;
  if ('index' in last && Array.isArray(parent) && last.index < parent.length) {
    parent.splice(last.index, 1);
    return true;
  }
  if ('entry' in last && parent instanceof Obj && last.entry < parent.entries.length) {
    parent.entries.splice(last.entry, 1);
    return true;
  }
  return false;
}

/** Visits every object of the tree, depth first. */
export function eachObject(tree: Tree, visit: (obj: Obj) => void): void {
  if (Array.isArray(tree)) for (const v of tree) eachObject(v, visit);
  else if (tree instanceof Obj) {
    visit(tree);
    for (const [, v] of tree.entries) eachObject(v, visit);
  }
}

/** The placement objects of a canonical document (`placements` of the root), or none. */
export function placementsOf(tree: Tree): Obj[] {
  const list = tree instanceof Obj ? tree.get('placements') : undefined;
  return Array.isArray(list) ? list.filter((p): p is Obj => p instanceof Obj) : [];
}

/** The route objects of a placement. */
export function routesOf(placement: Obj): Obj[] {
  const list = placement.get('routes');
  return Array.isArray(list) ? list.filter((r): r is Obj => r instanceof Obj) : [];
}
