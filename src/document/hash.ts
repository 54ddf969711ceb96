/**
 * A DAG's identity: the SHA-256 of the RDFC-1.0 canonical N-Quads of its canonical document. Any JSON-LD
 * form of the same graph hashes the same; any change to the graph changes the hash.
 */
import { createHash } from 'node:crypto';
import { canonize } from './jsonld-api.ts';
import type { Dag } from './model.ts';
import { toDocument } from './serialise.ts';

const cache = new WeakMap<Dag, Promise<string>>();

/** The RDFC-1.0 canonical N-Quads of a model. */
export function canonicalNQuads(dag: Dag): Promise<string> {
  return canonize(toDocument(dag));
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
