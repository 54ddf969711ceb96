/**
 * The folders and documents the viewer serves under its root: every `*.jsonld` file whose real path is
 * inside the root, found without entering `node_modules`, dot-folders or links to folders, so that a root
 * such as a project's own folder stays quick to read and to watch.
 */
import type { Dirent } from 'node:fs';
import { readdir, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';

/** What a walk found: the folders (the root first) and the documents, each sorted. */
export interface FolderContents {
  readonly folders: readonly string[];
  readonly documents: readonly string[];
}

const skipped = (name: string): boolean => name === 'node_modules' || name.startsWith('.');

/**
 * Walks `root` (a real, absolute path). A document that is a link is kept only when its target is inside
 * the root; it is never read otherwise.
 * @example
 * const { documents } = await walkFolder('/work/dags');
 */
export async function walkFolder(root: string): Promise<FolderContents> {
  const folders: string[] = [];
  const candidates: string[] = [];
  const queue = [root];
  for (let i = 0; i < queue.length; i++) {
    const folder = queue[i] as string;
    folders.push(folder);
    const entries: Dirent[] = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory() && !skipped(entry.name)) queue.push(path);
      else if ((entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith('.jsonld'))
        candidates.push(path);
    }
  }
  const inside = await Promise.all(
    candidates.map(async (file) => {
      const real = await realpath(file).catch(() => undefined);
      return real?.startsWith(`${root}${sep}`) === true;
    }),
  );
  return { folders: folders.sort(), documents: candidates.filter((_, i) => inside[i]).sort() };
}
