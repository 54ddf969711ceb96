/**
 * The model written out in one of three forms: canonical compact JSON-LD, expanded JSON-LD, or canonical
 * N-Quads.
 */

import type { ExportFormat } from './export-formats.ts';
import { canonicalNQuads } from './hash.ts';
import { expand } from './jsonld-api.ts';
import type { Dag } from './model.ts';
import { toDocument } from './serialise.ts';

export { EXPORT_FORMATS, type ExportFormat } from './export-formats.ts';

/**
 * Writes a model as text: `compact` and `expanded` as indented JSON with a final newline, `nquads` as the
 * RDFC-1.0 canonical N-Quads.
 *
 * @example
 * ```ts
 * process.stdout.write(await exportDag(dag, 'nquads'));
 * ```
 */
export async function exportDag(dag: Dag, format: ExportFormat): Promise<string> {
  switch (format) {
    case 'compact':
      return `${JSON.stringify(toDocument(dag), null, 2)}\n`;
    case 'expanded':
      return `${JSON.stringify(await expand(toDocument(dag)), null, 2)}\n`;
    case 'nquads':
      return canonicalNQuads(dag);
  }
}
