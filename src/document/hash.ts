/**
 * A DAG's identity: the SHA-256 of the RDFC-1.0 canonical N-Quads of its canonical document. Any JSON-LD
 * form of the same graph hashes the same; any change to the graph changes the hash.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { datasetOf, type Quad } from './dataset.ts';
import { canonize } from './jsonld-api.ts';
import type { Dag } from './model.ts';
import { toDocument } from './serialise.ts';

// rdf-canonize ships no types; the one call used here is typed locally.
interface RdfCanonize {
  canonize(dataset: readonly Quad[], options: { readonly algorithm: 'RDFC-1.0' }): Promise<string>;
}

let loaded: RdfCanonize | undefined;

/** rdf-canonize, required on the first hash: commands that never hash do not load it. */
function rdfCanonize(): RdfCanonize {
  loaded ??= createRequire(import.meta.url)('rdf-canonize') as RdfCanonize;
  return loaded;
}

const cache = new WeakMap<Dag, Promise<string>>();

/**
 * The RDFC-1.0 canonical N-Quads of a model. The dataset of the canonical document is built directly and
 * canonicalised by rdf-canonize (the library jsonld.js uses), which keeps the cost linear in the number of
 * placements; a document outside the serialiser's shape goes through `jsonld.canonize` instead.
 */
export function canonicalNQuads(dag: Dag): Promise<string> {
  const document = toDocument(dag);
  const dataset = datasetOf(document);
  return dataset === undefined
    ? canonize(document)
    : rdfCanonize().canonize(dataset, { algorithm: 'RDFC-1.0' });
}

/**
 * The hex SHA-256 of the model's canonical N-Quads (cached per model object).
 *
 * @example
 * ```ts
 * const { dag } = await loadDagFile('dags/compose-validate.jsonld');
 * if (dag) console.log(await hashDag(dag)); // 64 hex digits
 * ```
 */
export function hashDag(dag: Dag): Promise<string> {
  let hash = cache.get(dag);
  if (!hash) {
    hash = canonicalNQuads(dag).then((nquads) => createHash('sha256').update(nquads, 'utf8').digest('hex'));
    cache.set(dag, hash);
    hash.catch(() => cache.delete(dag));
  }
  return hash;
}
