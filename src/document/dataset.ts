/**
 * The RDF dataset of a canonical compact document, built in one pass from the Switchyard context's term
 * definitions. It gives the quads `jsonld.toRDF` gives for such a document, whose node map deduplicates
 * values by scanning them and so grows quadratically with the number of placements.
 */
import { contextDocument } from './context-loader.ts';
import { CONTEXT_IRI } from './model.ts';

/** An RDF term in the shape rdf-canonize reads. */
export type Term =
  | { readonly termType: 'NamedNode'; readonly value: string }
  | { readonly termType: 'BlankNode'; readonly value: string }
  | { readonly termType: 'Literal'; readonly value: string; readonly datatype: Term }
  | { readonly termType: 'DefaultGraph'; readonly value: '' };

/** One quad of the default graph. */
export interface Quad {
  readonly subject: Term;
  readonly predicate: Term;
  readonly object: Term;
  readonly graph: Term;
}

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const RDF_TYPE = `${RDF}type`;
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const GRAPH: Term = { termType: 'DefaultGraph', value: '' };
const named = (value: string): Term => ({ termType: 'NamedNode', value });
const STRING = named(`${XSD}string`);
const INTEGER = named(`${XSD}integer`);
const DOUBLE = named(`${XSD}double`);
const BOOLEAN = named(`${XSD}boolean`);

/** A term of the context: its IRI, and whether its values are IRIs. */
interface TermDefinition {
  readonly iri: string;
  readonly isId: boolean;
  /** An ordered list (`@container: @list`), written as an rdf:first/rdf:rest chain. */
  readonly isList: boolean;
}

interface Vocabulary {
  readonly terms: ReadonlyMap<string, TermDefinition>;
  /** Prefixes usable in compact IRIs: terms whose IRI ends with a gen-delim. */
  readonly prefixes: ReadonlyMap<string, string>;
}

let vocabulary: Vocabulary | undefined;

/** The context's terms with their prefixes expanded, read once. */
function vocabularyOf(): Vocabulary {
  if (vocabulary) return vocabulary;
  const context = (contextDocument() as { '@context': Record<string, unknown> })['@context'];
  const raw = new Map<string, { id: string; isId: boolean; isList: boolean }>();
  const prefixes = new Map<string, string>();
  for (const [term, definition] of Object.entries(context)) {
    if (term.startsWith('@')) continue;
    if (typeof definition === 'string') {
      raw.set(term, { id: definition, isId: false, isList: false });
      // Only simple term definitions ending with a gen-delim character may prefix compact IRIs.
      if (/[:/?#[\]@]$/.test(definition)) prefixes.set(term, definition);
    } else if (definition !== null && typeof definition === 'object') {
      const d = definition as Record<string, unknown>;
      if (typeof d['@id'] === 'string') {
        raw.set(term, { id: d['@id'], isId: d['@type'] === '@id', isList: d['@container'] === '@list' });
      }
    }
  }
  const terms = new Map<string, TermDefinition>();
  for (const [term, { id, isId, isList }] of raw) {
    terms.set(term, { iri: expandIri(id, prefixes), isId, isList });
  }
  vocabulary = { terms, prefixes };
  return vocabulary;
}

/** JSON-LD's test for an absolute IRI (or blank node identifier); quads with any other IRI are dropped. */
const ABSOLUTE = /^([A-Za-z][A-Za-z0-9+\-.]*|_):[^\s]*$/;

/** Expands an IRI value of an `@id`-typed term or of `@id`: compact IRIs through the context's prefixes. */
function expandIri(value: string, prefixes: ReadonlyMap<string, string>): string {
  const colon = value.indexOf(':');
  if (colon <= 0 || value.startsWith('//', colon + 1)) return value;
  const prefix = prefixes.get(value.slice(0, colon));
  return prefix === undefined ? value : prefix + value.slice(colon + 1);
}

/** A literal as JSON-LD's RDF conversion writes it. */
function literal(value: string | number | boolean): Term {
  if (typeof value === 'string') return { termType: 'Literal', value, datatype: STRING };
  if (typeof value === 'boolean') return { termType: 'Literal', value: String(value), datatype: BOOLEAN };
  // jsonld.js's test of a double, kept as it is so that both give the same literal for every number.
  if (!String(value).includes('.') && Math.abs(value) < 1e21) {
    return { termType: 'Literal', value: value.toFixed(0), datatype: INTEGER };
  }
  const double = value.toExponential(15).replace(/(\d)0*e\+?/, '$1E');
  return { termType: 'Literal', value: double, datatype: DOUBLE };
}

/** Thrown for any shape outside what the serialiser writes; the caller then uses jsonld.js instead. */
class Unsupported extends Error {}

/**
 * The quads of a canonical compact document (`toDocument`): one node with `@id` and `@type`, nested objects
 * as blank nodes, strings and numbers as literals. Returns undefined for any other shape (an unknown term,
 * a keyword inside a nested object, a number that is not finite), for which jsonld.js must be used.
 */
export function datasetOf(document: Record<string, unknown>): Quad[] | undefined {
  if (document['@context'] !== CONTEXT_IRI) return undefined;
  const { terms, prefixes } = vocabularyOf();
  const quads: Quad[] = [];
  let blank = 0;

  const node = (object: Record<string, unknown>, top: boolean): Term | undefined => {
    let subject: Term | undefined;
    if (top) {
      const id = object['@id'];
      if (typeof id !== 'string') throw new Unsupported();
      const iri = expandIri(id, prefixes);
      if (!ABSOLUTE.test(iri) || iri.startsWith('_:')) throw new Unsupported();
      subject = named(iri);
    } else subject = { termType: 'BlankNode', value: `_:b${blank++}` };
    // A node holds each literal or IRI value of a property once, as in jsonld.js's node map.
    const seen = new Set<string>();
    for (const [key, value] of Object.entries(object)) {
      if (key === '@context' || (top && key === '@id')) continue;
      if (key === '@type') {
        const type = typeof value === 'string' ? terms.get(value) : undefined;
        if (!top || type === undefined) throw new Unsupported();
        quads.push({ subject, predicate: named(RDF_TYPE), object: named(type.iri), graph: GRAPH });
        continue;
      }
      const term = terms.get(key);
      if (term === undefined) throw new Unsupported();
      if (term.isList) {
        quads.push({ subject, predicate: named(term.iri), object: list(value, term), graph: GRAPH });
        continue;
      }
      for (const item of Array.isArray(value) ? value : [value]) {
        const object = valueTerm(item, term);
        if (object === undefined) continue;
        if (object.termType !== 'BlankNode') {
          const id = `${term.iri} ${object.termType} ${'datatype' in object ? object.datatype.value : ''} ${object.value}`;
          if (seen.has(id)) continue;
          seen.add(id);
        }
        quads.push({ subject, predicate: named(term.iri), object, graph: GRAPH });
      }
    }
    return subject;
  };

  const list = (value: unknown, term: TermDefinition): Term => {
    const items = (Array.isArray(value) ? value : [value]).flatMap((item) => {
      const object = valueTerm(item, term);
      return object === undefined ? [] : [object];
    });
    let rest = named(`${RDF}nil`);
    for (let i = items.length - 1; i >= 0; i--) {
      const cell: Term = { termType: 'BlankNode', value: `_:b${blank++}` };
      quads.push({ subject: cell, predicate: named(`${RDF}first`), object: items[i] as Term, graph: GRAPH });
      quads.push({ subject: cell, predicate: named(`${RDF}rest`), object: rest, graph: GRAPH });
      rest = cell;
    }
    return rest;
  };

  const valueTerm = (value: unknown, term: TermDefinition): Term | undefined => {
    if (value === null) return undefined;
    if (term.isId) {
      if (typeof value !== 'string') throw new Unsupported();
      const iri = expandIri(value, prefixes);
      return ABSOLUTE.test(iri) && !iri.startsWith('_:') ? named(iri) : undefined;
    }
    if (typeof value === 'string' || typeof value === 'boolean') return literal(value);
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw new Unsupported();
      return literal(value);
    }
    if (typeof value === 'object' && !Array.isArray(value)) {
      const object = value as Record<string, unknown>;
      if (Object.keys(object).some((k) => k.startsWith('@'))) throw new Unsupported();
      return node(object, false);
    }
    throw new Unsupported();
  };

  try {
    node(document, true);
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
  return quads;
}
