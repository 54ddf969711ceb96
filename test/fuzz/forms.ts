/**
 * Other JSON-LD forms of a document, made with jsonld.js and the offline loader: forms of the same graph
 * (expanded, flattened, inline context, aliased terms, framed from its own N-Quads, typed literals, single
 * values for set terms), forms that add to the graph, and forms that name remote contexts, which must be
 * refused.
 */
import jsonld from 'jsonld';
import { documentLoader } from '../../src/document/context-loader.ts';
import { CONTEXT_IRI, VOCAB_IRI } from '../../src/document/model.ts';

/** A form of the same graph: loading it must give the document of the same hash. */
export const SAME_GRAPH_FORMS = [
  'expanded',
  'flattened',
  'inline-context',
  'aliased',
  'framed-from-nquads',
  'typed-literals',
  'type-array',
  'single-values',
] as const;

/** A form that adds to the graph or reaches for a remote context: never the original's hash. */
export const OTHER_FORMS = [
  'flattened-extra-node',
  'flattened-named-graph',
  'remote-context',
  'remote-context-in-array',
  'scoped-remote-context',
  'remote-import',
  'vocab-node-iri',
] as const;

export type SameGraphForm = (typeof SAME_GRAPH_FORMS)[number];
export type OtherForm = (typeof OTHER_FORMS)[number];
export type Form = SameGraphForm | OtherForm;

type Json = Record<string, unknown>;

interface Processor {
  expand(input: unknown, options: object): Promise<unknown[]>;
  flatten(input: unknown, context: unknown, options: object): Promise<Json>;
  toRDF(input: unknown, options: object): Promise<string>;
  fromRDF(input: string, options: object): Promise<unknown[]>;
  frame(input: unknown, frame: unknown, options: object): Promise<Json>;
}

const processor = jsonld as unknown as Processor;
const options = { documentLoader, base: null };
const XSD_INTEGER = 'http://www.w3.org/2001/XMLSchema#integer';
const REMOTE = 'https://example.org/fuzz/context.jsonld';

/** The published context object (what `CONTEXT_IRI` stands for). */
async function contextObject(): Promise<unknown> {
  return ((await documentLoader(CONTEXT_IRI)).document as Json)['@context'];
}

/** Renames keys (at any depth) by `names`. */
function renameKeys(value: unknown, names: Readonly<Record<string, string>>): unknown {
  if (Array.isArray(value)) return value.map((v) => renameKeys(v, names));
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) out[names[k] ?? k] = renameKeys(v, names);
  return out;
}

/** Applies `f` to every object of the value, depth first, in place. */
function eachObject(value: unknown, f: (o: Json) => void): void {
  if (Array.isArray(value)) for (const v of value) eachObject(v, f);
  else if (value !== null && typeof value === 'object') {
    f(value as Json);
    for (const v of Object.values(value)) eachObject(v, f);
  }
}

/** The document in `form`; `doc` is a canonical document (its `@context` is the context IRI). */
export async function toForm(doc: Json, form: Form): Promise<Json | unknown[]> {
  const copy = structuredClone(doc);
  switch (form) {
    case 'expanded':
      return processor.expand(copy, options);
    case 'flattened':
      return processor.flatten(copy, null, options);
    case 'inline-context':
      return { ...copy, '@context': await contextObject() };
    case 'aliased': {
      const aliases = {
        id: '@id',
        type: '@type',
        steps: { '@id': 'sy:hasPlacement', '@container': '@set' },
        edges: { '@id': 'sy:hasRoute', '@container': '@set' },
        on: 'sy:output',
      };
      const renamed = renameKeys(copy, {
        '@id': 'id',
        '@type': 'type',
        placements: 'steps',
        routes: 'edges',
        output: 'on',
      });
      return { ...(renamed as Json), '@context': [CONTEXT_IRI, aliases] };
    }
    case 'framed-from-nquads': {
      const nquads = await processor.toRDF(copy, { ...options, format: 'application/n-quads' });
      const triples = await processor.fromRDF(nquads, { format: 'application/n-quads' });
      return processor.frame(triples, { '@context': CONTEXT_IRI, '@type': 'Dag' }, options);
    }
    case 'typed-literals':
      eachObject(copy, (o) => {
        if (typeof o.max === 'number') o.max = { '@value': String(o.max), '@type': XSD_INTEGER };
        if (typeof o.quorum === 'number') o.quorum = { '@value': String(o.quorum), '@type': XSD_INTEGER };
      });
      return copy;
    case 'type-array':
      return { ...copy, '@type': [copy['@type']] };
    case 'single-values':
      eachObject(copy, (o) => {
        for (const key of ['entrypoints', 'resets', 'routes', 'budgets']) {
          const v = o[key];
          if (Array.isArray(v) && v.length === 1) o[key] = v[0];
        }
      });
      return copy;
    case 'flattened-extra-node': {
      const flat = await processor.flatten(copy, CONTEXT_IRI, options);
      const graph = Array.isArray(flat['@graph']) ? flat['@graph'] : [];
      return { ...flat, '@graph': [...graph, { '@id': 'urn:fuzz:orphan', name: 'orphan' }] };
    }
    case 'flattened-named-graph': {
      const flat = await processor.flatten(copy, CONTEXT_IRI, options);
      const graph = Array.isArray(flat['@graph']) ? flat['@graph'] : [];
      return {
        ...flat,
        '@graph': [...graph, { '@id': 'urn:fuzz:named', '@graph': [{ '@id': 'urn:fuzz:inner', name: 'x' }] }],
      };
    }
    case 'remote-context':
      return { ...copy, '@context': REMOTE };
    case 'remote-context-in-array':
      return { ...copy, '@context': [CONTEXT_IRI, REMOTE] };
    case 'scoped-remote-context':
      return {
        ...copy,
        '@context': [CONTEXT_IRI, { extra: { '@id': 'sy:extra', '@context': REMOTE } }],
        extra: { name: 'x' },
      };
    case 'remote-import':
      return { ...copy, '@context': [CONTEXT_IRI, { '@version': 1.1, '@import': REMOTE }] };
    case 'vocab-node-iri':
      eachObject(copy, (o) => {
        if (typeof o.node === 'string') o.node = `${VOCAB_IRI}${o.key as string}`;
      });
      return copy;
  }
}
