/**
 * From a schema-valid canonical document to the model: defaults filled in, `@id` as `id`, IRIs written in
 * full, and every JSON-LD set in canonical order, so that any form of the same graph gives a deep-equal model.
 * Entrypoints are an ordered JSON-LD list: their order is part of the graph, and the first is the default.
 */
import {
  type Budget,
  type Dag,
  type GatherRequirement,
  type Mapping,
  type Placement,
  type PlacementKind,
  type Reducer,
  type Route,
  type RouteKind,
  VOCAB_IRI,
} from './model.ts';

type Json = Record<string, unknown>;

/** Code-point order, independent of locale. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortedSet(values: unknown): string[] {
  const strings = Array.isArray(values) ? values.map(String) : [];
  return [...new Set(strings)].sort(compareStrings);
}

/** The written order with repeats dropped: the first occurrence keeps its place. */
function orderedSet(values: unknown): string[] {
  return [...new Set(Array.isArray(values) ? values.map(String) : [])];
}

/**
 * An IRI in full: `sy:x` is the compact IRI of the vocabulary namespace, which a JSON-LD processor expands
 * (and compaction writes back), so the model holds `https://w3id.org/switchyard/vocab#x` for either spelling.
 */
export function fullIri(value: string): string {
  return value.startsWith('sy:') && !value.startsWith('sy://') ? `${VOCAB_IRI}${value.slice(3)}` : value;
}

function iri(value: unknown): string | undefined {
  return value === undefined ? undefined : fullIri(String(value));
}

function records(values: unknown): Json[] {
  return Array.isArray(values) ? (values as Json[]) : [];
}

/** `{ [name]: value }` when value is defined, else `{}`: for exact optional properties. */
function optional<K extends string, V>(name: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [name]: value }) as { [P in K]?: V };
}

function str(value: unknown): string | undefined {
  return value === undefined ? undefined : String(value);
}

function toRoute(raw: Json): Route {
  const resets = raw.resets === undefined ? undefined : sortedSet(raw.resets);
  return {
    output: String(raw.output),
    to: String(raw.to),
    kind: (raw.kind ?? 'next') as RouteKind,
    ...optional('budget', str(raw.budget)),
    ...optional('exhausted', str(raw.exhausted)),
    ...optional('resets', resets),
    ...optional('label', str(raw.label)),
  };
}

/** Routes in canonical order: by output, then target. */
function sortRoutes(routes: readonly Route[]): Route[] {
  return [...routes].sort((a, b) => compareStrings(a.output, b.output) || compareStrings(a.to, b.to));
}

function toMappings(values: unknown): Mapping[] {
  return records(values)
    .map((m) => ({ from: String(m.from), to: String(m.to) }))
    .sort((a, b) => compareStrings(a.from, b.from) || compareStrings(a.to, b.to));
}

function toPlacement(raw: Json): Placement {
  const kind = raw.kind as PlacementKind;
  const base = {
    key: String(raw.key),
    ...optional('label', str(raw.label)),
    ...optional('description', str(raw.description)),
  };
  const routes = kind === 'terminal' || kind === 'phase' ? [] : sortRoutes(records(raw.routes).map(toRoute));
  switch (kind) {
    case 'task':
      return { ...base, kind, node: fullIri(String(raw.node)), routes };
    case 'scatter':
      return {
        ...base,
        kind,
        items: String(raw.items),
        ...optional('node', iri(raw.node)),
        ...optional('dag', iri(raw.dag)),
        routes,
      };
    case 'gather':
      return {
        ...base,
        kind,
        reducer: (raw.reducer ?? 'collect') as Reducer,
        require: (raw.require ?? 'all') as GatherRequirement,
        ...optional('quorum', typeof raw.quorum === 'number' ? raw.quorum : undefined),
        into: String(raw.into),
        routes,
      };
    case 'embed':
      return {
        ...base,
        kind,
        dag: fullIri(String(raw.dag)),
        input: toMappings(raw.input),
        result: toMappings(raw.result),
        routes,
      };
    case 'await':
      return {
        ...base,
        kind,
        answers: sortedSet(raw.answers),
        ...optional('into', str(raw.into)),
        routes,
      };
    case 'terminal':
      return { ...base, kind, outcome: raw.outcome as 'completed' | 'failed', routes };
    case 'phase':
      return { ...base, kind, when: raw.when as 'pre' | 'post', node: fullIri(String(raw.node)), routes };
  }
}

function toBudget(raw: Json): Budget {
  return { name: String(raw.name), max: Number(raw.max), ...optional('description', str(raw.description)) };
}

/**
 * Builds the model of a schema-valid canonical document (defaults filled in, IRIs in full, sets sorted).
 *
 * @example
 * ```ts
 * const dag = toModel(JSON.parse(readFileSync('dags/compose-validate.jsonld', 'utf8')));
 * ```
 */
export function toModel(canonical: object): Dag {
  const doc = canonical as Json;
  return {
    id: fullIri(String(doc['@id'])),
    name: String(doc.name),
    version: String(doc.version),
    ...optional('description', str(doc.description)),
    entrypoints: orderedSet(doc.entrypoints),
    budgets: records(doc.budgets)
      .map(toBudget)
      .sort((a, b) => compareStrings(a.name, b.name)),
    placements: records(doc.placements)
      .map(toPlacement)
      .sort((a, b) => compareStrings(a.key, b.key)),
  };
}
