/**
 * Other JSON-LD forms of one graph, made from a canonical document with jsonld.js itself (expand, flatten,
 * compact with other contexts, frame, N-Quads and back) and by hand for what jsonld.js does not write
 * (`@reverse`, `@included`, `@nest`, `@set`/`@list` objects, compact IRIs, contexts per node, `@import`).
 * Every form here holds exactly the graph of the document it was made from.
 */
import jsonld from 'jsonld';
import { documentLoader } from '../../src/document/context-loader.ts';
import { CONTEXT_IRI, VOCAB_IRI } from '../../src/document/model.ts';

type Json = Record<string, unknown>;

interface Processor {
  expand(input: unknown, options: object): Promise<unknown[]>;
  compact(input: unknown, context: unknown, options: object): Promise<Json>;
  flatten(input: unknown, context: unknown, options: object): Promise<Json>;
  frame(input: unknown, frame: unknown, options: object): Promise<Json>;
  toRDF(input: unknown, options: object): Promise<string>;
  fromRDF(input: string, options: object): Promise<unknown[]>;
}

const processor = jsonld as unknown as Processor;
const options = { documentLoader, base: null };

/** Terms of the context whose values are plain literals: written as a compact IRI, they mean the same. */
const LITERAL_TERMS: Readonly<Record<string, string>> = {
  name: 'sy:name',
  version: 'sy:version',
  description: 'sy:description',
  label: 'sy:label',
  key: 'sy:key',
  kind: 'sy:kind',
  output: 'sy:output',
  to: 'sy:to',
  max: 'sy:max',
};

/** The canonical document without its context, and its parts. */
function parts(doc: Json) {
  const { '@context': _context, placements, budgets, ...dag } = structuredClone(doc);
  return {
    body: { ...dag, placements, ...(budgets === undefined ? {} : { budgets }) } as Json,
    dag: dag as Json,
    placements: (placements ?? []) as Json[],
    budgets: (budgets ?? []) as Json[],
    id: String(doc['@id']),
  };
}

/** Renames keys by `names` at every depth. */
function renamed(value: unknown, names: Readonly<Record<string, string>>): unknown {
  if (Array.isArray(value)) return value.map((v) => renamed(v, names));
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) out[names[k] ?? k] = renamed(v, names);
  return out;
}

/** Writes every array value of `keys` (at any depth) as a `@set` object. */
function asSetObjects(value: unknown, keys: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => asSetObjects(v, keys));
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    const inner = asSetObjects(v, keys);
    out[k] = keys.has(k) && Array.isArray(inner) ? { '@set': inner } : inner;
  }
  return out;
}

/** Each form, by name: a function from the canonical document to the form. */
export const GRAPH_FORMS: Readonly<Record<string, (doc: Json) => Promise<unknown>>> = {
  expanded: (doc) => processor.expand(doc, options),
  'expanded in @graph': async (doc) => ({ '@graph': await processor.expand(doc, options) }),
  flattened: (doc) => processor.flatten(doc, null, options),
  'flattened, compacted': (doc) => processor.flatten(doc, CONTEXT_IRI, options),
  'flattened, another context': (doc) => processor.flatten(doc, { s: VOCAB_IRI, id: '@id' }, options),
  'compacted with @vocab': (doc) => processor.compact(doc, { '@vocab': VOCAB_IRI }, options),
  'compacted with a prefix': (doc) => processor.compact(doc, { s: VOCAB_IRI }, options),
  'compacted with a context array': (doc) =>
    processor.compact(
      doc,
      [CONTEXT_IRI, { s: VOCAB_IRI, starts: { '@id': 's:entrypoint', '@container': '@list' } }],
      options,
    ),
  'compacted with aliased keywords': (doc) =>
    processor.compact(doc, [CONTEXT_IRI, { identity: '@id', a: '@type' }], options),
  framed: (doc) => processor.frame(doc, { '@context': CONTEXT_IRI, '@type': 'Dag' }, options),
  'framed with @vocab': (doc) =>
    processor.frame(doc, { '@context': { '@vocab': VOCAB_IRI }, '@type': 'Dag' }, options),
  'from its N-Quads': async (doc) =>
    processor.fromRDF(await processor.toRDF(doc, { ...options, format: 'application/n-quads' }), {
      format: 'application/n-quads',
    }),
  'in a @graph': async (doc) => ({ '@context': CONTEXT_IRI, '@graph': [parts(doc).body] }),
  '@nest': async (doc) => {
    const { dag, placements, budgets } = parts(doc);
    const { name, version, description, ...rest } = dag;
    const meta = { name, version, ...(description === undefined ? {} : { description }) };
    return { '@context': [CONTEXT_IRI, { about: '@nest' }], ...rest, about: meta, placements, budgets };
  },
  '@set and @list objects': async (doc) => {
    const written = asSetObjects(doc, new Set(['placements', 'budgets', 'routes', 'resets'])) as Json;
    return { ...written, entrypoints: { '@list': doc.entrypoints } };
  },
  'compact IRIs as keys': async (doc) => renamed(doc, LITERAL_TERMS),
  'a context on every placement': async (doc) => {
    const { body, placements } = parts(doc);
    return {
      '@context': CONTEXT_IRI,
      ...body,
      placements: placements.map((p) => ({ '@context': CONTEXT_IRI, ...p })),
    };
  },
  'the context twice in an array': async (doc) => ({ ...doc, '@context': [CONTEXT_IRI, CONTEXT_IRI] }),
  '@import of the context': async (doc) => ({
    ...doc,
    '@context': { '@version': 1.1, '@import': CONTEXT_IRI, extra: 'sy:unusedTerm' },
  }),
  'the type as a compact IRI': async (doc) => ({ ...doc, '@type': 'sy:Dag' }),
  'the type twice, once as a full IRI': async (doc) => ({ ...doc, '@type': ['Dag', `${VOCAB_IRI}Dag`] }),
  'null for values left out': async (doc) => {
    const { body, placements } = parts(doc);
    const withNulls = placements.map((p) => (p.label === undefined ? { ...p, label: null } : p));
    return { '@context': CONTEXT_IRI, ...body, placements: withNulls };
  },
  'blank node labels on placements and routes': async (doc) => {
    const { body, placements } = parts(doc);
    const labelled = placements.map((p, i) => ({
      '@id': `_:placement${i}`,
      ...p,
      ...(Array.isArray(p.routes)
        ? { routes: (p.routes as Json[]).map((r, j) => ({ '@id': `_:route${i}-${j}`, ...r })) }
        : {}),
    }));
    return { '@context': CONTEXT_IRI, ...body, placements: labelled };
  },
  '@reverse': async (doc) => {
    const { dag, placements, budgets, id } = parts(doc);
    const toDag = (property: string) => ({ '@reverse': { [property]: { '@id': id } } });
    return {
      '@context': CONTEXT_IRI,
      '@graph': [
        dag,
        ...placements.map((p) => ({ ...p, ...toDag('placements') })),
        ...budgets.map((b) => ({ ...b, ...toDag('budgets') })),
      ],
    };
  },
  'a reverse term': async (doc) => {
    const { dag, placements, budgets, id } = parts(doc);
    const [first, ...others] = placements;
    return {
      '@context': [
        CONTEXT_IRI,
        { placementOf: { '@reverse': 'sy:hasPlacement' }, budgetOf: { '@reverse': 'sy:hasBudget' } },
      ],
      ...first,
      placementOf: { ...dag, placements: others },
      '@included': budgets.map((b) => ({ ...b, budgetOf: { '@id': id } })),
    };
  },
  '@included': async (doc) => {
    const { dag, placements, budgets } = parts(doc);
    const ids = placements.map((_, i) => `_:placement${i}`);
    return {
      '@context': CONTEXT_IRI,
      ...dag,
      budgets,
      placements: ids.map((id) => ({ '@id': id })),
      '@included': placements.map((p, i) => ({ '@id': ids[i], ...p })),
    };
  },
};
