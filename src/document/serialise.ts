/**
 * The model back to its canonical compact JSON-LD document. The shape is fixed, so equal models give
 * byte-equal JSON: keys in a fixed order; every route's `kind` and every gather's `reducer` and `require`
 * written out; empty optional arrays (`budgets`, `routes`, `input`, `result`) omitted; terminals and phases
 * never carry `routes`.
 */
import { CONTEXT_IRI, type Dag, type Mapping, type Placement, type Route } from './model.ts';

type Json = Record<string, unknown>;

function nonEmpty<K extends string>(name: K, values: readonly unknown[]): Json {
  return values.length === 0 ? {} : { [name]: values };
}

function present(name: string, value: unknown): Json {
  return value === undefined ? {} : { [name]: value };
}

function routeDocument(route: Route): Json {
  return {
    output: route.output,
    to: route.to,
    kind: route.kind,
    ...present('budget', route.budget),
    ...present('exhausted', route.exhausted),
    ...(route.resets === undefined ? {} : { resets: [...route.resets] }),
    ...present('label', route.label),
  };
}

function mappings(values: readonly Mapping[]): Json[] {
  return values.map((m) => ({ from: m.from, to: m.to }));
}

function placementDocument(placement: Placement): Json {
  const head = {
    key: placement.key,
    kind: placement.kind,
    ...present('label', placement.label),
    ...present('description', placement.description),
  };
  const routes = nonEmpty('routes', placement.routes.map(routeDocument));
  switch (placement.kind) {
    case 'task':
      return { ...head, node: placement.node, ...routes };
    case 'scatter':
      return {
        ...head,
        items: placement.items,
        ...present('node', placement.node),
        ...present('dag', placement.dag),
        ...routes,
      };
    case 'gather':
      return {
        ...head,
        reducer: placement.reducer,
        require: placement.require,
        ...present('quorum', placement.quorum),
        into: placement.into,
        ...routes,
      };
    case 'embed':
      return {
        ...head,
        dag: placement.dag,
        ...nonEmpty('input', mappings(placement.input)),
        ...nonEmpty('result', mappings(placement.result)),
        ...routes,
      };
    case 'await':
      return { ...head, answers: [...placement.answers], ...present('into', placement.into), ...routes };
    case 'terminal':
      return { ...head, outcome: placement.outcome };
    case 'phase':
      return { ...head, when: placement.when, node: placement.node };
  }
}

/**
 * The canonical compact JSON-LD document of a model; loading its JSON gives back a deep-equal model.
 *
 * @example
 * ```ts
 * await writeFile('out.jsonld', `${JSON.stringify(toDocument(dag), null, 2)}\n`);
 * ```
 */
export function toDocument(dag: Dag): Json {
  return {
    '@context': CONTEXT_IRI,
    '@id': dag.id,
    '@type': 'Dag',
    name: dag.name,
    version: dag.version,
    ...present('description', dag.description),
    entrypoints: [...dag.entrypoints],
    ...nonEmpty(
      'budgets',
      dag.budgets.map((b) => ({ name: b.name, max: b.max, ...present('description', b.description) })),
    ),
    placements: dag.placements.map(placementDocument),
  };
}
