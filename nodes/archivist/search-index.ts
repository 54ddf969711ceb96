/**
 * The catalog's full-text index (minisearch) and the stored form of it that a program loads at start.
 *
 * minisearch's own JSON form (`toJSON`/`loadJS`) lists every term, and loading it inserts each one into
 * the radix tree again, character by character. The stored form here is the radix tree itself, nested as it
 * stands after `loadJS`, and the entry of a term (its postings) is made when a search first reads it: the
 * same tree, in the same order, so every search finds the same books with the same scores. It relies on how
 * minisearch 7 keeps its tree (a `Map` of edge labels, the entry of a term under the key `''`);
 * {@link loadSearchIndex} throws when the library does not look like that, and the caller builds the index
 * instead.
 */
import MiniSearch from 'minisearch';
import { StoredMap } from './stored-map.ts';
import type { Book } from './types.ts';

/** The fields minisearch indexes. */
export type SearchField = 'title' | 'authors' | 'subjects' | 'description';

/** The indexed fields, in the order of minisearch's field ids. */
export const FIELDS: readonly SearchField[] = ['title', 'authors', 'subjects', 'description'];

/**
 * Words of a text, possessives kept whole ("cat's" is not "cat", so "cats" does not find "Cat's Cradle").
 */
export function tokens(text: string): string[] {
  return text
    .split(/[^\p{L}\p{N}'’]+/u)
    .map((t) => t.replace(/^['’]+|['’]+$/g, ''))
    .filter((t) => t !== '');
}

/** The shortest word searched with typos and as a prefix. */
const FUZZY_LENGTH = 6;

/** How the index is built and searched: title and authors boosted, fuzzy and prefix matching. */
const INDEX_OPTIONS = {
  fields: [...FIELDS],
  extractField: (doc: Book, field: string) => {
    const value = (doc as unknown as Record<string, unknown>)[field];
    return Array.isArray(value) ? value.join(' ') : String(value ?? '');
  },
  // Typos and prefixes only in long words: "grief" is not "brief", "hawks" not "Hawking", "art" not "artificial".
  tokenize: tokens,
  processTerm: (term: string) => term.toLowerCase().replace(/’/g, "'"),
  searchOptions: {
    processTerm: (term: string) => term.toLowerCase().replace(/’/g, "'"),
    boost: { title: 3, authors: 2.5, subjects: 1.5 },
    // The possessive variant a search adds ("cats's") must not reach "cat's" by a typo.
    fuzzy: (term: string) => (term.length >= FUZZY_LENGTH && !term.endsWith("'s") ? 0.2 : false),
    prefix: (term: string) => term.length >= FUZZY_LENGTH && !term.endsWith("'s"),
  },
};

/** The minisearch index of `books`. */
export function buildSearchIndex(books: readonly Book[]): MiniSearch<Book> {
  const index = new MiniSearch<Book>(INDEX_OPTIONS);
  index.addAll([...books]);
  return index;
}

/** minisearch's JSON form of an index. */
type IndexJson = Parameters<typeof MiniSearch.loadJS>[0];

/**
 * A node of the radix tree, flat: edge label, then what it leads to, and so on. Under the label `''` is the
 * entry of the term that ends there: field id, then its postings as document id, term frequency, and so on.
 */
type StoredNode = (string | StoredNode | (number | number[])[])[];

/** The stored form of an index: minisearch's JSON form without its terms, and the radix tree. */
export interface StoredSearchIndex {
  readonly meta: IndexJson;
  readonly tree: StoredNode;
}

/** The part of minisearch's inside the stored form reads and writes. */
interface TreeHolder {
  _index?: { _tree?: unknown; _size?: number | undefined };
}

type Tree = Map<string, unknown>;
type Entry = Map<number, Map<number, number>>;

function treeOf(index: MiniSearch<Book>): Tree {
  const tree = (index as unknown as TreeHolder)._index?._tree;
  if (!(tree instanceof Map)) {
    throw new Error('this version of minisearch keeps its index another way; the index is built instead');
  }
  return tree as Tree;
}

function encodeNode(node: Tree): StoredNode {
  const out: StoredNode = [];
  for (const [label, child] of node) {
    if (label === '') {
      const entry: (number | number[])[] = [];
      for (const [field, postings] of child as Entry) entry.push(field, [...postings].flat());
      out.push(label, entry);
    } else {
      out.push(label, encodeNode(child as Tree));
    }
  }
  return out;
}

/** The entry of one term: its postings by field, made when a search first reads it. */
function entryOf(stored: readonly (number | number[])[]): Entry {
  return new StoredMap((add) => {
    for (let i = 0; i < stored.length; i += 2) {
      const flat = stored[i + 1] as number[];
      const postings = new Map<number, number>();
      for (let j = 0; j < flat.length; j += 2) postings.set(flat[j] as number, flat[j + 1] as number);
      add(stored[i] as number, postings);
    }
  });
}

/** A node of the tree, whole: a fuzzy search walks most of the tree's nodes, but reads few entries. */
function nodeOf(stored: StoredNode): Tree {
  const node: Tree = new Map();
  for (let i = 0; i < stored.length; i += 2) {
    const label = stored[i] as string;
    const child = stored[i + 1] as StoredNode;
    node.set(label, label === '' ? entryOf(child as (number | number[])[]) : nodeOf(child));
  }
  return node;
}

/**
 * The stored form of the index of `books`, as plain JSON data. The tree is taken from the index as
 * `loadJS` reads it back, so the stored form loads into the very tree minisearch's own form would.
 */
export function storedSearchIndexOf(books: readonly Book[]): StoredSearchIndex {
  const json = buildSearchIndex(books).toJSON() as unknown as IndexJson;
  const loaded = MiniSearch.loadJS<Book>(json, INDEX_OPTIONS);
  return { meta: { ...json, index: [] }, tree: encodeNode(treeOf(loaded)) };
}

/**
 * Loads an index from its stored form ({@link storedSearchIndexOf}). Throws when the data is not such a
 * form or minisearch keeps its tree another way.
 */
export function loadSearchIndex(stored: unknown): MiniSearch<Book> {
  const s = stored as Partial<StoredSearchIndex> | null;
  if (typeof s !== 'object' || s === null || typeof s.meta !== 'object' || !Array.isArray(s.tree)) {
    throw new Error('not a stored search index');
  }
  const index = MiniSearch.loadJS<Book>({ ...s.meta, index: [] }, INDEX_OPTIONS);
  const tree = treeOf(index);
  if (tree.size !== 0) throw new Error('this version of minisearch keeps its index another way');
  const holder = (index as unknown as TreeHolder)._index as { _tree: Tree; _size?: number | undefined };
  holder._tree = nodeOf(s.tree);
  holder._size = undefined;
  return index;
}
