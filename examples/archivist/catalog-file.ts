import { readFile } from 'node:fs/promises';
import { type Catalog, createCatalog } from '../../nodes/archivist/catalog.ts';
import type { Book } from '../../nodes/archivist/types.ts';
import { SwitchyardError } from '../../src/errors.ts';

const loaded = new Map<string, Promise<Catalog>>();

function isBook(value: unknown): value is Book {
  const b = value as Partial<Book> | null;
  return (
    typeof b === 'object' &&
    b !== null &&
    typeof b.id === 'string' &&
    typeof b.title === 'string' &&
    Array.isArray(b.authors) &&
    typeof b.year === 'number' &&
    typeof b.pages === 'number' &&
    Array.isArray(b.subjects) &&
    typeof b.description === 'string'
  );
}

async function load(path: string): Promise<Catalog> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new SwitchyardError(
      'E_INPUT',
      `cannot read the catalog ${path}: check the path given to --catalog`,
    );
  }
  let books: unknown;
  try {
    books = JSON.parse(text);
  } catch {
    throw new SwitchyardError(
      'E_INPUT',
      `the catalog ${path} is not valid JSON: fix it or pass another with --catalog`,
    );
  }
  if (!Array.isArray(books) || !books.every(isBook)) {
    throw new SwitchyardError(
      'E_INPUT',
      `the catalog ${path} must be an array of { id, title, authors[], year, pages, subjects[], description }`,
    );
  }
  return createCatalog(books);
}

/** Loads and indexes a catalog file, once per process and path. */
export function loadCatalogFile(path: string): Promise<Catalog> {
  let catalog = loaded.get(path);
  if (!catalog) {
    catalog = load(path);
    loaded.set(path, catalog);
    catalog.catch(() => loaded.delete(path));
  }
  return catalog;
}
