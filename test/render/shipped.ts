import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The project's dags/ folder. */
export const DAGS = join(import.meta.dirname, '../../dags');

/** Every shipped document, sub-folders included (dags/archivist/…), as paths relative to {@link DAGS}. */
export const files = readdirSync(DAGS, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.jsonld'))
  .sort();

/** A document's name for golden files and test titles: its path below dags/ with `/` as `-`. */
export const stem = (file: string): string =>
  relative(DAGS, file)
    .replace(/\.jsonld$/u, '')
    .replaceAll(sep, '-');
