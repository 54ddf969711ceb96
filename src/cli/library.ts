import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { loadDagFile } from '../document/load.ts';
import type { Dag, DagLibrary } from '../document/model.ts';

/** The library of the documents around the named ones, with what it found about shared IRIs. */
export interface AroundLibrary extends DagLibrary {
  /** IRIs that several documents beside the named ones define, none of them named: by IRI, their files. */
  readonly ambiguous: ReadonlyMap<string, readonly string[]>;
  /** Documents beside the named ones that share the IRI of a named document, which they do not replace. */
  readonly shadowed: ReadonlyMap<string, readonly string[]>;
}

function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** True when `path` is `folder` or below it. */
function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}

/**
 * The `*.jsonld` regular files in `folder` (sorted) and, with `deep`, below it, skipping `node_modules` and
 * dot-folders. FIFOs, sockets and devices are never listed; a symbolic link is listed only when it resolves
 * to a regular file inside `root`, and links to folders are never followed. A folder that cannot be read
 * (permissions, /proc) adds nothing.
 */
async function jsonLdFiles(folder: string, deep: boolean, root: string): Promise<string[]> {
  const entries = (await readdir(folder, { withFileTypes: true }).catch(() => [])).sort(byName);
  const files: string[] = [];
  for (const entry of entries) {
    if (!entry.name.endsWith('.jsonld')) continue;
    const path = join(folder, entry.name);
    if (entry.isFile()) files.push(path);
    else if (entry.isSymbolicLink()) {
      const target = await realpath(path).catch(() => undefined);
      const info = target === undefined ? undefined : await stat(target).catch(() => undefined);
      if (target !== undefined && info?.isFile() && inside(root, target)) files.push(path);
    }
  }
  if (!deep) return files;
  for (const entry of entries) {
    if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.')) {
      files.push(...(await jsonLdFiles(join(folder, entry.name), true, root)));
    }
  }
  return files;
}

/** IRIs the embeds and scatters of `dags` run, transitively through `known`, that `known` lacks. */
function missingIris(dags: readonly Dag[], known: (iri: string) => Dag | undefined): Set<string> {
  const missing = new Set<string>();
  const seen = new Set<string>();
  const stack = [...dags];
  while (stack.length > 0) {
    const dag = stack.pop() as Dag;
    if (seen.has(dag.id)) continue;
    seen.add(dag.id);
    for (const placement of dag.placements) {
      const iri = placement.kind === 'embed' || placement.kind === 'scatter' ? placement.dag : undefined;
      if (iri === undefined || iri === dag.id) continue;
      const child = known(iri);
      if (child) stack.push(child);
      else missing.add(iri);
    }
  }
  return missing;
}

/** The folder's real path, so that links inside it can be checked against it. */
async function realFolder(folder: string): Promise<string> {
  return (await realpath(folder).catch(() => undefined)) ?? folder;
}

/**
 * The documents that embeds and scatter sub-DAGs of `dags` may name: the given DAGs first, then, only when
 * one of them runs an IRI they do not define, the documents beside the named files (the top level of their
 * folders) and those of the project's `dags/` folder under `cwd` (recursively). Those documents are read
 * only as regular files within the size limit; one that does not load is skipped, never fatal (the named
 * documents are reported when they are checked themselves). An IRI that several of them define is left out
 * and listed in `ambiguous`, so that no embed picks one by file name.
 */
export async function libraryAround(
  dags: readonly Dag[],
  files: readonly string[],
  cwd: string,
): Promise<AroundLibrary> {
  const own = new Map<string, Dag>();
  for (const dag of dags) if (!own.has(dag.id)) own.set(dag.id, dag);
  const ambiguous = new Map<string, string[]>();
  const shadowed = new Map<string, string[]>();
  if (missingIris(dags, (iri) => own.get(iri)).size === 0) {
    return { get: (id) => own.get(id), ambiguous, shadowed };
  }
  const named = new Set(files.map((file) => resolve(cwd, file)));
  const folders = [...new Set([...named].map((file) => dirname(file)))];
  const dagsFolder = join(resolve(cwd), 'dags');
  const found = [
    ...(await Promise.all(folders.map(async (f) => jsonLdFiles(f, false, await realFolder(f))))).flat(),
    ...(await lstat(dagsFolder).then(
      async (info) => (info.isDirectory() ? jsonLdFiles(dagsFolder, true, await realFolder(dagsFolder)) : []),
      () => [],
    )),
  ];
  // A link to a named document is that document, not a second one with its IRI.
  const namedReal = new Set(await Promise.all([...named].map(async (f) => await realpath(f).catch(() => f))));
  const candidates: string[] = [];
  for (const file of new Set(found.map((f) => resolve(f)))) {
    if (!named.has(file) && !namedReal.has(await realpath(file).catch(() => file))) candidates.push(file);
  }
  const byId = new Map<string, { dag: Dag; files: string[] }>();
  for (const file of candidates) {
    const dag = await loadDagFile(file).then(
      (r) => r.dag,
      () => undefined,
    );
    if (!dag) continue;
    const entry = byId.get(dag.id);
    if (entry) entry.files.push(file);
    else byId.set(dag.id, { dag, files: [file] });
  }
  for (const [id, entry] of byId) {
    if (own.has(id)) shadowed.set(id, entry.files);
    else if (entry.files.length > 1) ambiguous.set(id, entry.files);
  }
  const get = (id: string): Dag | undefined => {
    const mine = own.get(id);
    if (mine) return mine;
    const entry = byId.get(id);
    return entry && entry.files.length === 1 ? entry.dag : undefined;
  };
  return { get, ambiguous, shadowed };
}
