/**
 * The stored full-text index of a catalog file: the minisearch index and the keys of the catalog's titles,
 * authors and subjects ({@link storedIndexOf}), kept beside the catalog as `<name>.index.json` with the
 * SHA-256 of the catalog text they were built from. A program reads it instead of indexing the whole catalog
 * before its first answer. An index that is missing, stale (the catalog changed), built another way (by
 * another format, or with keys computed by other rules) or unreadable is built again and stored; storing is
 * best effort, so a catalog in a folder that cannot be written costs only the indexing.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { INDEX_FORMAT, keysAreCurrent, storedIndexOf } from '../../nodes/archivist/catalog.ts';
import type { Book } from '../../nodes/archivist/types.ts';

/** What an index file holds. */
interface IndexFile {
  /** How the index was built ({@link INDEX_FORMAT}). */
  readonly format: string;
  /** The hex SHA-256 of the catalog text the index was built from. */
  readonly catalogSha256: string;
  /** The index and keys as {@link storedIndexOf} gives them. */
  readonly index: unknown;
}

/**
 * The index file of a catalog: `catalog.json` → `catalog.index.json`, in the same folder.
 * @example
 * indexPathOf('/data/books.json') // '/data/books.index.json'
 */
export function indexPathOf(catalogPath: string): string {
  return join(dirname(catalogPath), `${basename(catalogPath, extname(catalogPath))}.index.json`);
}

/** The hex SHA-256 of a catalog's text: what ties an index to the catalog it was built from. */
export function catalogHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The text of the index file of a catalog, or undefined when there is none that can be read. */
export function readIndexFile(catalogPath: string): Promise<string | undefined> {
  return readFile(indexPathOf(catalogPath), 'utf8').catch(() => undefined);
}

/** The index in `text` (an index file's) when it was stored for a catalog whose text hashes to `hash`. */
export function storedIndexIn(text: string | undefined, hash: string): unknown {
  let file: Partial<IndexFile>;
  try {
    file = JSON.parse(text ?? '') as Partial<IndexFile>;
  } catch {
    return undefined;
  }
  const fits =
    file !== null &&
    typeof file === 'object' &&
    file.format === INDEX_FORMAT &&
    file.catalogSha256 === hash &&
    file.index !== null &&
    typeof file.index === 'object' &&
    keysAreCurrent(file.index);
  return fits ? file.index : undefined;
}

/** The index stored for a catalog whose text hashes to `hash`, or undefined when there is none that fits. */
export async function readStoredIndex(catalogPath: string, hash: string): Promise<unknown> {
  return storedIndexIn(await readIndexFile(catalogPath), hash);
}

/**
 * Builds the index of `books` (the catalog whose text hashes to `hash`) and stores it beside the catalog,
 * written to a temporary file and renamed, so a reader never sees half of it. Returns the index, and whether
 * it was stored (false when the folder cannot be written).
 * @example
 * await buildStoredIndex('examples/archivist/catalog.json', catalogHash(text), books);
 */
export async function buildStoredIndex(
  catalogPath: string,
  hash: string,
  books: readonly Book[],
): Promise<{ readonly index: unknown; readonly stored: boolean }> {
  const index = storedIndexOf(books);
  const file: IndexFile = { format: INDEX_FORMAT, catalogSha256: hash, index };
  const target = indexPathOf(catalogPath);
  const temporary = `${target}.${process.pid}.${randomUUID()}.tmp`;
  try {
    await writeFile(temporary, JSON.stringify(file));
    await rename(temporary, target);
    return { index, stored: true };
  } catch {
    // A read-only folder or a full disk: the index still serves this process.
    await rm(temporary, { force: true }).catch(() => undefined);
    return { index, stored: false };
  }
}
