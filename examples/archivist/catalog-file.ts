import { readFile } from 'node:fs/promises';
import { type Catalog, createCatalog } from '../../nodes/archivist/catalog.ts';
import type { Book } from '../../nodes/archivist/types.ts';
import { fileNotFound, isNotFound, notJson } from '../../src/cli/messages.ts';
import { SwitchyardError } from '../../src/errors.ts';
import { buildStoredIndex, catalogHash, readIndexFile, storedIndexIn } from './catalog-index.ts';

const loaded = new Map<string, Promise<Catalog>>();

function isBook(value: unknown): value is Book {
  const b = value as Partial<Book> | null;
  return (
    typeof b === 'object' &&
    b !== null &&
    typeof b.id === 'string' &&
    typeof b.title === 'string' &&
    (b.otherTitles === undefined ||
      (Array.isArray(b.otherTitles) && b.otherTitles.every((t) => typeof t === 'string'))) &&
    Array.isArray(b.authors) &&
    typeof b.year === 'number' &&
    typeof b.pages === 'number' &&
    Array.isArray(b.subjects) &&
    typeof b.description === 'string' &&
    (b.series === undefined || typeof b.series === 'string') &&
    (b.seriesNumber === undefined || (Number.isInteger(b.seriesNumber) && b.seriesNumber > 0)) &&
    [b.language, b.country, b.audience].every((v) => v === undefined || typeof v === 'string')
  );
}

async function load(path: string): Promise<Catalog> {
  // The index file is read while the catalog is checked: it is wanted as soon as the catalog is good.
  const indexText = readIndexFile(path);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isNotFound(error)) throw fileNotFound(path, 'given to --catalog');
    throw new SwitchyardError(
      'E_INPUT',
      `cannot read the catalog ${path}: check the path given to --catalog`,
    );
  }
  let books: unknown;
  try {
    books = JSON.parse(text);
  } catch {
    throw notJson('E_INPUT', `the catalog ${path}`, text, 'fix it or pass another with --catalog');
  }
  if (!Array.isArray(books) || !books.every(isBook)) {
    throw new SwitchyardError(
      'E_INPUT',
      `the catalog ${path} must be an array of { id, title, authors[], year, pages, subjects[], description }, with optional otherTitles[], series, seriesNumber, language, country and audience`,
    );
  }
  const hash = catalogHash(text);
  const stored = storedIndexIn(await indexText, hash);
  if (stored !== undefined) {
    try {
      return createCatalog(books, stored);
    } catch {
      // An index file minisearch cannot read (another version of it wrote it) is built again below.
    }
  }
  return createCatalog(books, (await buildStoredIndex(path, hash, books)).index);
}

/**
 * Loads a catalog file with its full-text index, once per process and path. The index is read from
 * `<name>.index.json` beside the catalog when it was built from this very text, else built and stored there.
 */
export function loadCatalogFile(path: string): Promise<Catalog> {
  let catalog = loaded.get(path);
  if (!catalog) {
    catalog = load(path);
    loaded.set(path, catalog);
    catalog.catch(() => loaded.delete(path));
  }
  return catalog;
}
