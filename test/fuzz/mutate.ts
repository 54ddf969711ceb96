/**
 * Mutators of DAG documents, as small descriptors (so a failing case prints in a few words and shrinks) and
 * the function that applies one to a document tree: prototype names as placement keys, budget names,
 * outputs and route targets; JSON pointers into prototypes; deep nesting; huge and odd numbers; wrong
 * types; duplicate keys; removed fields; hostile names.
 */
import fc from 'fast-check';
import { HOSTILE_TEXT, ODD_NUMBERS, PROTO_NAMES, PROTO_POINTERS, WRONG_VALUES } from './hostile-values.ts';
import {
  at,
  cloneTree,
  eachObject,
  Obj,
  paths,
  placementsOf,
  Raw,
  removeAt,
  replaceAt,
  routesOf,
  type Tree,
} from './tree.ts';

/** One mutation; `n` and `m` pick sites modulo how many the document has. */
export type Mutation =
  | {
      readonly op: 'rename-placement';
      readonly n: number;
      readonly name: string;
      readonly everywhere: boolean;
    }
  | { readonly op: 'rename-budget'; readonly n: number; readonly name: string; readonly everywhere: boolean }
  | { readonly op: 'rename-output'; readonly n: number; readonly name: string }
  | {
      readonly op: 'route-target';
      readonly n: number;
      readonly name: string;
      readonly field: 'to' | 'exhausted';
    }
  | { readonly op: 'pointer'; readonly n: number; readonly pointer: string }
  | {
      readonly op: 'pollute';
      readonly via: 'result' | 'input';
      readonly through: '__proto__' | 'constructor';
    }
  | { readonly op: 'nest'; readonly n: number; readonly depth: number; readonly shape: Nesting }
  | { readonly op: 'number'; readonly n: number; readonly value: string; readonly budget: boolean }
  | { readonly op: 'wrong-type'; readonly n: number; readonly value: string }
  | { readonly op: 'duplicate-key'; readonly n: number; readonly m: number; readonly value: string }
  | { readonly op: 'remove'; readonly n: number }
  | { readonly op: 'text'; readonly n: number; readonly text: string; readonly field: TextField };

/** How a value is nested: in arrays, in objects, or in arrays never closed (so the JSON is invalid too). */
export type Nesting = 'array' | 'object' | 'unclosed';

type TextField = 'name' | 'label' | 'description' | '@id' | 'node' | 'key' | 'output' | 'budget';

const site = fc.nat(200);
const proto = fc.constantFrom(...PROTO_NAMES);

/** The families of mutators, each an arbitrary of {@link Mutation}s. */
export const MUTATIONS = {
  /** Prototype names as placement keys (in one place or everywhere), budget names, outputs, route targets. */
  prototypeNames: fc.oneof(
    fc.record({
      op: fc.constant('rename-placement' as const),
      n: site,
      name: proto,
      everywhere: fc.boolean(),
    }),
    fc.record({ op: fc.constant('rename-budget' as const), n: site, name: proto, everywhere: fc.boolean() }),
    fc.record({ op: fc.constant('rename-output' as const), n: site, name: proto }),
    fc.record({
      op: fc.constant('route-target' as const),
      n: site,
      name: proto,
      field: fc.constantFrom('to' as const, 'exhausted' as const),
    }),
  ),
  /** Pointers into prototypes in mappings, `items` and `into`, and the two-mapping pollution of an embed. */
  prototypePointers: fc.oneof(
    fc.record({ op: fc.constant('pointer' as const), n: site, pointer: fc.constantFrom(...PROTO_POINTERS) }),
    fc.record({
      op: fc.constant('pollute' as const),
      via: fc.constantFrom('result' as const, 'input' as const),
      through: fc.constantFrom('__proto__' as const, 'constructor' as const),
    }),
  ),
  /** A value wrapped in arrays or objects, up to 10,000 deep. */
  nesting: fc.record({
    op: fc.constant('nest' as const),
    n: site,
    depth: fc.oneof(fc.integer({ min: 1, max: 200 }), fc.constantFrom(1_000, 5_000, 10_000)),
    shape: fc.constantFrom<Nesting>('array', 'object', 'unclosed'),
  }),
  /** Odd numbers at budget maxima or anywhere a scalar is. */
  numbers: fc.record({
    op: fc.constant('number' as const),
    n: site,
    value: fc.constantFrom(...ODD_NUMBERS),
    budget: fc.boolean(),
  }),
  /** Wrong types, duplicate keys, removed fields. */
  shapes: fc.oneof(
    fc.record({ op: fc.constant('wrong-type' as const), n: site, value: fc.constantFrom(...WRONG_VALUES) }),
    fc.record({
      op: fc.constant('duplicate-key' as const),
      n: site,
      m: site,
      value: fc.constantFrom(...WRONG_VALUES, '"__proto__"', '"toString"'),
    }),
    fc.record({ op: fc.constant('remove' as const), n: site }),
  ),
  /** Hostile text in names, labels, descriptions, IRIs, keys, outputs and budget names. */
  text: fc.record({
    op: fc.constant('text' as const),
    n: site,
    text: fc.constantFrom(...HOSTILE_TEXT),
    field: fc.constantFrom<TextField>(
      'name',
      'label',
      'description',
      '@id',
      'node',
      'key',
      'output',
      'budget',
    ),
  }),
} satisfies Record<string, fc.Arbitrary<Mutation>>;

/** Any mutation about prototypes. */
export const prototypeMutation: fc.Arbitrary<Mutation> = fc.oneof(
  MUTATIONS.prototypeNames,
  MUTATIONS.prototypePointers,
);

/** Any mutation of structure or text. */
export const structureMutation: fc.Arbitrary<Mutation> = fc.oneof(
  MUTATIONS.nesting,
  MUTATIONS.numbers,
  MUTATIONS.shapes,
  MUTATIONS.text,
);

const pick = <T>(list: readonly T[], n: number): T | undefined =>
  list.length === 0 ? undefined : list[n % list.length];

/** Renames `from` to `to` in the given fields of every object (string values and string list elements). */
function renameIn(tree: Tree, fields: readonly string[], from: string, to: string): void {
  eachObject(tree, (obj) => {
    for (const entry of obj.entries) {
      if (!fields.includes(entry[0])) continue;
      if (entry[1] === from) entry[1] = to;
      else if (Array.isArray(entry[1])) entry[1] = entry[1].map((v) => (v === from ? to : v));
    }
  });
}

/** The objects of `input`/`result` mappings, and the placements with `items` or `into`: pointer sites. */
function pointerSites(tree: Tree): [Obj, string][] {
  const sites: [Obj, string][] = [];
  for (const placement of placementsOf(tree)) {
    for (const field of ['items', 'into'])
      if (placement.get(field) !== undefined) sites.push([placement, field]);
    for (const list of ['input', 'result']) {
      const mappings = placement.get(list);
      if (!Array.isArray(mappings)) continue;
      for (const m of mappings) if (m instanceof Obj) sites.push([m, 'from'], [m, 'to']);
    }
  }
  return sites;
}

/** A value `depth` arrays or objects deep around `inner`, as text (never built as a tree). */
export function nested(depth: number, shape: Nesting, inner = '1'): Raw {
  if (shape === 'unclosed') return new Raw(`${'['.repeat(depth)}${inner}`);
  return shape === 'array'
    ? new Raw(`${'['.repeat(depth)}${inner}${']'.repeat(depth)}`)
    : new Raw(`${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`);
}

/** Applies a mutation to a copy of `doc`; the result may be the document unchanged when no site fits. */
export function mutate(doc: Tree, m: Mutation): Tree {
  const tree = cloneTree(doc);
  const placements = placementsOf(tree);
  const routes = placements.flatMap(routesOf);
  const all = paths(tree).slice(1);
  switch (m.op) {
    case 'rename-placement': {
      const p = pick(placements, m.n);
      const key = p?.get('key');
      if (p === undefined || typeof key !== 'string') break;
      if (m.everywhere) renameIn(tree, ['key', 'to', 'exhausted', 'entrypoints'], key, m.name);
      else p.set('key', m.name);
      break;
    }
    case 'rename-budget': {
      const list = tree instanceof Obj ? tree.get('budgets') : undefined;
      const budget = Array.isArray(list) ? pick(list, m.n) : undefined;
      const name = budget instanceof Obj ? budget.get('name') : undefined;
      if (!(budget instanceof Obj) || typeof name !== 'string') break;
      if (m.everywhere) renameIn(tree, ['name', 'budget', 'resets'], name, m.name);
      else budget.set('name', m.name);
      break;
    }
    case 'rename-output':
      pick(routes, m.n)?.set('output', m.name);
      break;
    case 'route-target':
      pick(
        routes.filter((r) => r.get(m.field) !== undefined),
        m.n,
      )?.set(m.field, m.name);
      break;
    case 'pointer': {
      const found = pick(pointerSites(tree), m.n);
      found?.[0].set(found[1], m.pointer);
      break;
    }
    case 'pollute': {
      const embed = placements.find((p) => p.get('kind') === 'embed');
      const start = m.through === '__proto__' ? '/__proto__' : '/constructor/prototype';
      embed?.set(
        m.via,
        [
          [start, '/p'],
          ['/v', '/p/polluted'],
        ].map(
          ([from, to]) =>
            new Obj([
              ['from', from as string],
              ['to', to as string],
            ]),
        ),
      );
      break;
    }
    case 'nest': {
      const path = pick(all, m.n);
      if (path !== undefined) replaceAt(tree, path, nested(m.depth, m.shape));
      break;
    }
    case 'number': {
      const budgets = tree instanceof Obj ? tree.get('budgets') : undefined;
      const budget = m.budget && Array.isArray(budgets) ? pick(budgets, m.n) : undefined;
      if (budget instanceof Obj) budget.set('max', new Raw(m.value));
      else {
        const scalar = all.filter((p) => typeof at(tree, p) !== 'object');
        const path = pick(scalar, m.n);
        if (path !== undefined) replaceAt(tree, path, new Raw(m.value));
      }
      break;
    }
    case 'wrong-type': {
      const path = pick(all, m.n);
      if (path !== undefined) replaceAt(tree, path, new Raw(m.value));
      break;
    }
    case 'duplicate-key': {
      const objects: Obj[] = [];
      eachObject(tree, (o) => {
        if (o.entries.length > 0) objects.push(o);
      });
      const obj = pick(objects, m.n);
      const entry = obj === undefined ? undefined : pick(obj.entries, m.m);
      // Before and after the original: JSON.parse keeps the last, a streaming reader may keep the first.
      if (obj !== undefined && entry !== undefined) {
        obj.entries.splice(m.m % obj.entries.length, 0, [entry[0], new Raw(m.value)]);
      }
      break;
    }
    case 'remove': {
      const path = pick(all, m.n);
      if (path !== undefined) removeAt(tree, path);
      break;
    }
    case 'text':
      applyText(tree, placements, routes, m);
      break;
  }
  return tree;
}

/** Puts hostile text into one named field: the document's, a placement's, a route's or a budget's. */
function applyText(tree: Tree, placements: Obj[], routes: Obj[], m: Extract<Mutation, { op: 'text' }>): void {
  const root = tree instanceof Obj ? tree : undefined;
  switch (m.field) {
    case 'name':
    case 'description':
    case '@id':
      root?.set(m.field, m.text);
      break;
    case 'label':
    case 'node':
      pick(
        placements.filter((p) => p.get(m.field) !== undefined || m.field === 'label'),
        m.n,
      )?.set(m.field, m.text);
      break;
    case 'key': {
      const key = pick(placements, m.n)?.get('key');
      if (typeof key === 'string') renameIn(tree, ['key', 'to', 'exhausted', 'entrypoints'], key, m.text);
      break;
    }
    case 'output':
      pick(routes, m.n)?.set('output', m.text);
      break;
    case 'budget': {
      const list = root?.get('budgets');
      const budget = Array.isArray(list) ? pick(list, m.n) : undefined;
      const name = budget instanceof Obj ? budget.get('name') : undefined;
      if (typeof name === 'string') renameIn(tree, ['name', 'budget', 'resets'], name, m.text);
      break;
    }
  }
}
