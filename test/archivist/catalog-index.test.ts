import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogFile } from '../../examples/archivist/catalog-file.ts';
import { catalogHash, indexPathOf, readStoredIndex } from '../../examples/archivist/catalog-index.ts';
import { DEFAULT_CATALOG } from '../../examples/archivist/paths.ts';
import { type Catalog, createCatalog, INDEX_FORMAT, storedIndexOf } from '../../nodes/archivist/catalog.ts';
import { buildSearchIndex, loadSearchIndex, type SearchField } from '../../nodes/archivist/search-index.ts';
import { matchTitle } from '../../nodes/archivist/title-match.ts';
import type { Book } from '../../nodes/archivist/types.ts';
import { FIXTURE_CATALOG } from './helpers.ts';

let dir: string;
let text: string;
let books: Book[];
let folders = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-catalog-index-'));
  text = await readFile(FIXTURE_CATALOG, 'utf8');
  books = JSON.parse(text) as Book[];
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A fresh folder holding `catalog.json` with `content`; loadCatalogFile caches by path, so each is new. */
async function catalogFile(content: string): Promise<string> {
  const folder = join(dir, String(folders++));
  await mkdir(folder);
  const path = join(folder, 'catalog.json');
  await writeFile(path, content);
  return path;
}

const QUERIES = ['le guin', 'dystopia surveillance', 'dune', 'whales', 'gethen winter', 'tolkein'];

const ids = (catalog: { search(q: string): readonly { id: string; score: number }[] }, query: string) =>
  catalog.search(query).map((hit) => `${hit.id}:${hit.score.toFixed(6)}`);

describe("the Archivist's stored catalog index", () => {
  it('is written beside the catalog on first use, tied to the hash of its text', async () => {
    const path = await catalogFile(text);
    await loadCatalogFile(path);
    const stored = JSON.parse(await readFile(indexPathOf(path), 'utf8')) as Record<string, unknown>;
    expect(indexPathOf(path)).toBe(path.replace(/catalog\.json$/u, 'catalog.index.json'));
    expect(stored.format).toBe(INDEX_FORMAT);
    expect(stored.catalogSha256).toBe(catalogHash(text));
    expect(await readStoredIndex(path, catalogHash(text))).toEqual(stored.index);
  });

  it('finds exactly what an index built afresh finds', async () => {
    const fresh = createCatalog(books);
    const fromStored = createCatalog(books, JSON.parse(JSON.stringify(storedIndexOf(books))));
    for (const query of QUERIES) expect(ids(fromStored, query)).toEqual(ids(fresh, query));
  });

  it('computes the keys again when the stored ones were computed by other rules', () => {
    const stored = JSON.parse(JSON.stringify(storedIndexOf(books))) as { keys: Record<string, unknown> };
    const titles = books.map(() => 'not this title');
    const other = { ...stored, keys: { ...stored.keys, titles, probe: '{}' } };
    const title = books[0]?.title ?? '';
    expect(createCatalog(books, other).titlesIn(title)).toEqual(createCatalog(books).titlesIn(title));
    expect(createCatalog(books, other).titlesIn(title)).not.toEqual([]);
  });

  describe('of the bundled catalog', () => {
    let bundled: Book[];
    let fresh: Catalog;
    let fromStored: Catalog;
    let stored: { search: unknown };

    beforeAll(async () => {
      bundled = JSON.parse(await readFile(DEFAULT_CATALOG, 'utf8')) as Book[];
      fresh = createCatalog(bundled);
      stored = JSON.parse(JSON.stringify(storedIndexOf(bundled))) as { search: unknown };
      fromStored = createCatalog(bundled, stored);
    });

    it('finds the same books with the same scores, in every field and with word variants', () => {
      const fields: (readonly SearchField[] | undefined)[] = [
        undefined,
        ['title'],
        ['authors'],
        ['subjects', 'description'],
        ['title', 'subjects', 'description'],
      ];
      const queries = [
        ...QUERIES,
        'science fiction politics religion environment classic',
        'hawks',
        "the king's",
        'Dostoyevsky',
        'whale hunt obsession',
        'artificial intelligence',
      ];
      const found = (catalog: Catalog, query: string, f: readonly SearchField[] | undefined) =>
        catalog.search(query, f).map((hit) => `${hit.id}:${hit.score}`);
      for (const query of queries) {
        for (const f of fields) expect(found(fromStored, query, f)).toEqual(found(fresh, query, f));
      }
    });

    it('reads back into the index minisearch builds', () => {
      const sorted = (json: unknown) => {
        const { index, ...rest } = json as { index: [string, unknown][] };
        return { ...rest, index: [...index].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) };
      };
      expect(sorted(loadSearchIndex(stored.search).toJSON())).toEqual(
        sorted(buildSearchIndex(bundled).toJSON()),
      );
    });

    it('holds the keys of titles, authors and subjects that the books give', () => {
      expect(fromStored.titleSpellings).toEqual(fresh.titleSpellings);
      expect(fromStored.surnames).toEqual(fresh.surnames);
      const texts = [
        'recommend something like Dune',
        'books by Ursula Le Guin about anarchism',
        'a funny love story like Pride and Prejudice',
        'the hobit',
        'Slaughterhouse 5',
        'Alice in Wonderland',
        'something by Tolstoi',
      ];
      for (const text of texts) {
        expect(fromStored.titlesIn(text)).toEqual(fresh.titlesIn(text));
        expect(fromStored.titlesIn(text, { anyCase: true })).toEqual(fresh.titlesIn(text, { anyCase: true }));
        expect(fromStored.authorsIn(text)).toEqual(fresh.authorsIn(text));
        expect(fromStored.subjectsIn(text)).toEqual(fresh.subjectsIn(text));
        expect(matchTitle(text, fromStored)).toEqual(matchTitle(text, fresh));
      }
    });
  });

  it('is read instead of indexing the catalog again', async () => {
    const path = await catalogFile(text);
    // An index of only the first book, stored under this catalog's hash: loading it (not indexing the
    // catalog) is the only way a search can miss the other books.
    const partial = {
      format: INDEX_FORMAT,
      catalogSha256: catalogHash(text),
      index: storedIndexOf(books.slice(0, 1)),
    };
    await writeFile(indexPathOf(path), JSON.stringify(partial));
    const catalog = await loadCatalogFile(path);
    expect(catalog.books).toHaveLength(books.length);
    expect(catalog.search('le guin').map((hit) => hit.id)).toEqual([books[0]?.id]);
    expect(catalog.search('dune')).toEqual([]);
    // The stored keys are of one book: those of the catalog's books are computed from them instead.
    const last = books.at(-1) as Book;
    expect(catalog.titleSpellings).toHaveLength(books.length);
    expect(matchTitle(last.title, catalog)?.id).toBe(last.id);
  });

  it('is built again and stored when the catalog changed, was built another way, or cannot be read', async () => {
    const extra: Book = {
      id: 'moby-dick',
      title: 'Moby-Dick',
      authors: ['Herman Melville'],
      year: 1851,
      pages: 635,
      subjects: ['sea', 'whales'],
      description: 'A whaling captain hunts the white whale that took his leg.',
    };
    const changed = JSON.stringify([...books, extra]);
    const oldIndex = { format: INDEX_FORMAT, catalogSha256: catalogHash(text), index: storedIndexOf(books) };
    const otherFormat = { ...oldIndex, catalogSha256: catalogHash(changed), format: 'another way' };
    const current = storedIndexOf(JSON.parse(changed) as Book[]) as { keys: object };
    const otherRules = {
      format: INDEX_FORMAT,
      catalogSha256: catalogHash(changed),
      index: { ...current, keys: { ...current.keys, probe: '{}' } },
    };
    const broken = {
      format: INDEX_FORMAT,
      catalogSha256: catalogHash(changed),
      index: { search: { tree: 1 } },
    };
    const written = [oldIndex, otherFormat, otherRules, broken].map((file) => JSON.stringify(file));
    for (const content of [...written, '{"format": tru']) {
      const path = await catalogFile(changed);
      await writeFile(indexPathOf(path), content);
      const catalog = await loadCatalogFile(path);
      expect(catalog.search('melville whale').map((hit) => hit.id)).toContain('moby-dick');
      const stored = JSON.parse(await readFile(indexPathOf(path), 'utf8')) as Record<string, unknown>;
      expect([stored.format, stored.catalogSha256]).toEqual([INDEX_FORMAT, catalogHash(changed)]);
      expect(await readStoredIndex(path, catalogHash(changed))).toBeDefined();
    }
  });

  it('costs only the indexing when it cannot be stored', async () => {
    const path = await catalogFile(text);
    // A folder where the index file would go: nothing can be written there, even by root.
    await mkdir(indexPathOf(path));
    const catalog = await loadCatalogFile(path);
    expect(catalog.search('le guin').length).toBeGreaterThan(0);
  });
});
