import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Budget, Dag, DagLibrary, Placement, Route } from '../../src/document/model.ts';

export const DAGS_DIR = fileURLToPath(new URL('../../dags/', import.meta.url));
export const INVALID_DIR = fileURLToPath(new URL('../fixtures/invalid/', import.meta.url));

type Json = Record<string, unknown>;

function byString<T>(of: (x: T) => string): (a: T, b: T) => number {
  return (a, b) => (of(a) < of(b) ? -1 : of(a) > of(b) ? 1 : 0);
}

/** Converts a compact document as written in dags/ into the model: `@id` → id, defaults filled, lists sorted. */
export function toDag(json: Json): Dag {
  const routes = (list: unknown): Route[] =>
    ((list as Json[] | undefined) ?? [])
      .map((r) => ({ ...r, kind: (r.kind as Route['kind'] | undefined) ?? 'next' }) as unknown as Route)
      .sort((a, b) => byString<Route>((r) => r.output)(a, b) || byString<Route>((r) => r.to)(a, b));
  const placements = (json.placements as Json[]).map((p): Placement => {
    const base = { ...p, routes: routes(p.routes) };
    if (p.kind === 'gather') return { reducer: 'collect', require: 'all', ...base } as unknown as Placement;
    if (p.kind === 'embed') return { input: [], result: [], ...base } as unknown as Placement;
    if (p.kind === 'await') {
      return { ...base, answers: [...(p.answers as string[])].sort() } as unknown as Placement;
    }
    return base as unknown as Placement;
  });
  const { '@context': _context, '@id': id, '@type': _type, ...rest } = json;
  return {
    ...(rest as Json),
    id: id as string,
    entrypoints: [...new Set(json.entrypoints as string[])],
    budgets: [...((json.budgets as Budget[] | undefined) ?? [])].sort(byString((b) => b.name)),
    placements: placements.sort(byString((p) => p.key)),
  } as unknown as Dag;
}

/** Reads a JSON file into the model. */
export function readDag(path: string): Dag {
  return toDag(JSON.parse(readFileSync(path, 'utf8')) as Json);
}

/** Every document under dags/, by file name. */
export function sampleDags(): Map<string, Dag> {
  const names = readdirSync(DAGS_DIR).filter((f) => f.endsWith('.jsonld'));
  return new Map(names.sort().map((name) => [name, readDag(DAGS_DIR + name)]));
}

/** A library over the given documents. */
export function libraryOf(dags: Iterable<Dag>): DagLibrary {
  const byId = new Map<string, Dag>();
  for (const dag of dags) byId.set(dag.id, dag);
  return { get: (id) => byId.get(id) };
}

/** A terse description of a graph for tests: key → routes; keys starting with `end` are terminals. */
export interface Sketch {
  readonly entry?: string;
  readonly budgets?: Record<string, number>;
  readonly nodes: Record<string, readonly Partial<Route>[]>;
}

/** Builds a task-and-terminal document from a sketch; missing route outputs are numbered. */
export function sketch(spec: Sketch): Dag {
  const placements = Object.entries(spec.nodes).map(([key, list]): Placement => {
    if (key.startsWith('end')) return { key, kind: 'terminal', outcome: 'completed', routes: [] };
    const routes = list.map((r, i) => ({ output: `o${i}`, kind: 'next', ...r }) as Route);
    return { key, kind: 'task', node: `urn:test:${key}`, routes };
  });
  return toDag({
    '@id': 'urn:test:sketch',
    name: 'sketch',
    version: '1',
    entrypoints: [spec.entry ?? Object.keys(spec.nodes)[0]],
    budgets: Object.entries(spec.budgets ?? {}).map(([name, max]) => ({ name, max })),
    placements,
  });
}
