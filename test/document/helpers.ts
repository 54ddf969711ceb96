import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The shipped DAG documents, as paths relative to the repository root. */
export const SHIPPED = readdirSync('dags', { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.jsonld'))
  .map((f) => join('dags', f))
  .sort();

/** The parsed JSON of a file. */
export function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

/**
 * The alternative JSON-LD forms of dags/compose-validate.jsonld, written by hand: `reverse` writes the
 * placements and some routes from their object's side (`@reverse`), `reverse-term` starts its tree at a
 * placement with the DAG under a term defined with `@reverse`, and `included` sets the placements aside in
 * `@included`.
 */
export const FORMS = [
  'expanded',
  'flattened',
  'inline-context',
  'aliased',
  'reverse',
  'reverse-term',
  'included',
].map((form) => [form, `test/fixtures/forms/compose-validate.${form}.jsonld`] as const);
