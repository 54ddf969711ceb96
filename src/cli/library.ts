import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadDagFolder } from '../document/load.ts';
import type { Dag, DagLibrary } from '../document/model.ts';

/**
 * The documents that embeds and scatter sub-DAGs may name: the given DAGs first, then the documents in their
 * folders, then those of the project's `dags/` folder (under `cwd`). Documents that do not load are skipped
 * here; they are reported when they are checked themselves.
 */
export async function libraryAround(
  dags: readonly Dag[],
  files: readonly string[],
  cwd: string,
): Promise<DagLibrary> {
  const folders = [...new Set([...files.map((file) => dirname(file)), join(cwd, 'dags')])].filter((folder) =>
    existsSync(folder),
  );
  const { library } = await loadDagFolder(folders);
  const own = new Map(dags.map((dag) => [dag.id, dag]));
  return { get: (id) => own.get(id) ?? library.get(id) };
}
