/**
 * Documents whose JSON-LD contexts make expansion work grow faster than the document (generated at any
 * size), documents whose expansion stays linear, and a counter of the work jsonld.js really does on
 * contexts: term definitions created, and active-context entries copied.
 */
import { createRequire } from 'node:module';
import { CONTEXT_IRI } from '../../src/document/model.ts';

type Json = Record<string, unknown>;

/** `count` term definitions `prefix0`…, each mapped into the Switchyard vocabulary. */
export function termsOf(count: number, prefix = 't'): Json {
  const terms: Json = {};
  for (let i = 0; i < count; i++) terms[`${prefix}${i}`] = `sy:${prefix}${i}`;
  return terms;
}

/** A valid DAG of `n` terminal placements, each shaped by `place`, under the top-level `context`. */
function dagOf(context: unknown, n: number, place: (p: Json, i: number) => Json): Json {
  return {
    '@context': context,
    '@id': 'urn:t:hostile',
    '@type': 'Dag',
    name: 'hostile',
    version: '1',
    entrypoints: ['k0'],
    placements: Array.from({ length: n }, (_, i) =>
      place({ key: `k${i}`, kind: 'terminal', outcome: 'completed' }, i),
    ),
  };
}

/** Shapes whose expansion work grows with (placements × context size), by name: `(placements) → document`. */
export const SUPERLINEAR: Readonly<Record<string, (n: number) => Json>> = {
  'a type-scoped context applied at every node': (n) =>
    dagOf([CONTEXT_IRI, { Step: { '@id': 'sy:Step', '@context': termsOf(1000) } }], n, (p) => ({
      ...p,
      '@type': 'Step',
    })),
  'a small type-scoped context over a large active context': (n) =>
    dagOf(
      [CONTEXT_IRI, termsOf(1000, 'u'), { Step: { '@id': 'sy:Step', '@context': { x: 'sy:x' } } }],
      n,
      (p) => ({
        ...p,
        '@type': 'Step',
      }),
    ),
  'a property-scoped context used at every node': (n) =>
    dagOf([CONTEXT_IRI, { meta: { '@id': 'sy:meta', '@context': termsOf(1000) } }], n, (p) => ({
      ...p,
      meta: { label: 'x' },
    })),
  'many type values with scoped contexts': (n) => {
    const types: Json = {};
    for (let i = 0; i < 20; i++) types[`T${i}`] = { '@id': `sy:T${i}`, '@context': { x: 'sy:x' } };
    return dagOf([CONTEXT_IRI, termsOf(100, 'u'), types], n, (p) => ({
      ...p,
      '@type': Array.from({ length: 20 }, (_, j) => `T${j}`),
    }));
  },
  'a distinct context on every node over a large one': (n) =>
    dagOf([CONTEXT_IRI, termsOf(1000, 'u')], n, (p, i) => ({ '@context': { [`a${i}`]: 'sy:a' }, ...p })),
  'a context that does not propagate on every node': (n) =>
    dagOf([CONTEXT_IRI, termsOf(500, 'u')], n, (p) => ({
      '@context': { '@propagate': false, a: 'sy:a' },
      ...p,
    })),
  'many contexts in one @context array': (n) =>
    dagOf(
      Array.from({ length: n }, () => CONTEXT_IRI),
      1,
      (p) => p,
    ),
  'scoped contexts nested twenty deep, used at every node': (n) => {
    let context: Json = { x: 'sy:x' };
    for (let d = 0; d < 20; d++) context = { [`n${d}`]: { '@id': `sy:n${d}`, '@context': context } };
    return dagOf([CONTEXT_IRI, termsOf(300, 'u'), context], n, (p) => ({
      ...p,
      '@type': 'n19',
      n19: { n18: { label: 'x' } },
    }));
  },
  'a map keyed by types with scoped contexts': (n) =>
    dagOf(
      [
        CONTEXT_IRI,
        {
          byType: { '@id': 'sy:byType', '@container': '@type' },
          T: { '@id': 'sy:T', '@context': termsOf(200) },
        },
      ],
      n,
      (p) => ({ ...p, byType: { T: { label: 'x' } } }),
    ),
};

/** Shapes whose expansion work grows with the document only. */
export const LINEAR: Readonly<Record<string, (n: number) => Json>> = {
  'plain placements with an inline context': (n) => dagOf([CONTEXT_IRI, { title: 'sy:label' }], n, (p) => p),
  'the same context on every node': (n) => dagOf(CONTEXT_IRI, n, (p) => ({ '@context': CONTEXT_IRI, ...p })),
  'the same inline context on every node': (n) =>
    dagOf([CONTEXT_IRI, termsOf(200, 'u')], n, (p) => ({ '@context': { a: 'sy:a' }, ...p })),
  'a long list of entrypoints': (n) => ({
    ...dagOf(CONTEXT_IRI, n, (p) => p),
    entrypoints: Array.from({ length: n }, (_, i) => `k${i}`),
  }),
  'many plain type values': (n) =>
    dagOf(CONTEXT_IRI, n, (p) => ({ ...p, '@type': Array.from({ length: 20 }, (_, j) => `sy:T${j}`) })),
};

/** Counts the context work jsonld.js does while installed: definitions created, entries copied. */
export interface ProcessorWork {
  readonly count: () => number;
  reset(): void;
  uninstall(): void;
}

/** Installs the counter around jsonld.js's own functions (the package's modules, as Node loads them). */
export function countProcessorWork(): ProcessorWork {
  const require = createRequire(import.meta.url);
  const util = require('jsonld/lib/util.js') as { clone: (value: unknown) => unknown };
  const context = require('jsonld/lib/context.js') as {
    createTermDefinition: (...args: unknown[]) => unknown;
  };
  const clone = util.clone;
  const define = context.createTermDefinition;
  let work = 0;
  util.clone = (value) => {
    if (value instanceof Map) work += value.size;
    return clone(value);
  };
  context.createTermDefinition = (...args) => {
    work++;
    return define.apply(context, args);
  };
  return {
    count: () => work,
    reset: () => {
      work = 0;
    },
    uninstall: () => {
      util.clone = clone;
      context.createTermDefinition = define;
    },
  };
}
