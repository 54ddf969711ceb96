import { readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { loadDagFolder } from '../document/load.ts';
import type { Dag, DagLibrary } from '../document/model.ts';

// A folder the scan cannot read (permissions, /proc) simply adds nothing: the library is a convenience,
// and the named documents are checked on their own.
async function entriesOf(folder: string) {
  return readdir(folder, { withFileTypes: true }).catch(() => []);
}

/** The `*.jsonld` files in `folder` (sorted) and, with `deep`, below it, skipping `node_modules` and dot-folders. */
async function jsonLdFiles(folder: string, deep: boolean): Promise<string[]> {
  const entries = (await entriesOf(folder)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const files = entries
    .filter((e) => !e.isDirectory() && e.name.endsWith('.jsonld'))
    .map((e) => join(folder, e.name));
  if (!deep) return files;
  for (const entry of entries) {
    if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.')) {
      files.push(...(await jsonLdFiles(join(folder, entry.name), true)));
    }
  }
  return files;
}

/**
 * The documents that embeds and scatter sub-DAGs may name: the given DAGs first, then the documents beside
 * them (the top level of their folders only), then those of the project's `dags/` folder under `cwd`
 * (recursively). Documents that do not load, and folders that cannot be read, are skipped here; the named
 * documents are reported when they are checked themselves.
 */
export async function libraryAround(
  dags: readonly Dag[],
  files: readonly string[],
  cwd: string,
): Promise<DagLibrary> {
  const siblings = [...new Set(files.map((file) => dirname(resolve(cwd, file))))];
  const found = [
    ...(await Promise.all(siblings.map((folder) => jsonLdFiles(folder, false)))).flat(),
    ...(await jsonLdFiles(join(resolve(cwd), 'dags'), true)),
  ];
  const { library } = await loadDagFolder([...new Set(found)]);
  const own = new Map(dags.map((dag) => [dag.id, dag]));
  return { get: (id) => own.get(id) ?? library.get(id) };
}
