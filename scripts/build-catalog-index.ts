/**
 * Build step (run by scripts/build.ts as `node --import tsx scripts/build-catalog-index.ts <out>`): stores
 * the full-text index of the Archivist's bundled catalog beside the compiled catalog, so an installed
 * `archivist` reads it at its first question instead of indexing the catalog or writing into its own
 * install folder.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildStoredIndex, catalogHash } from '../examples/archivist/catalog-index.ts';
import type { Book } from '../nodes/archivist/types.ts';

const out = process.argv[2];
if (out === undefined) {
  process.stderr.write('usage: node --import tsx scripts/build-catalog-index.ts <output folder>\n');
  process.exit(2);
}
const catalog = join(out, 'examples', 'archivist', 'catalog.json');
const text = await readFile(catalog, 'utf8');
const { stored } = await buildStoredIndex(catalog, catalogHash(text), JSON.parse(text) as Book[]);
if (!stored) {
  process.stderr.write(`build-catalog-index: cannot write the index beside ${catalog}\n`);
  process.exit(1);
}
