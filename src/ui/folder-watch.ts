/**
 * Watches the served folders for documents edited, added or removed, and tells every listener once the
 * changes settle, so that the page re-checks and redraws them without a reload. Each folder
 * {@link walkFolder} finds is watched on its own (never `node_modules` or dot-folders), and the set of
 * watched folders follows folders created or removed.
 */
import { type FSWatcher, watch } from 'node:fs';
import { relative, sep } from 'node:path';
import { walkFolder } from './folder-walk.ts';

/** A folder watch that listeners join and leave. */
export interface FolderWatch {
  /** Calls `listener` with the changed paths (relative to the root) after each settled burst of changes. */
  subscribe(listener: (paths: readonly string[]) => void): () => void;
  close(): void;
}

// Editors write a file in several steps (truncate, write, rename); one re-check covers them all.
const SETTLE_MS = 120;

/**
 * Watches `root` (a real, absolute path) and its folders; `onChange` runs first on each burst (the catalog
 * forgets its check there).
 * @example
 * const watch = await watchFolder(root, () => catalog.invalidate());
 */
export async function watchFolder(root: string, onChange: () => void): Promise<FolderWatch> {
  const listeners = new Set<(paths: readonly string[]) => void>();
  const watchers = new Map<string, FSWatcher>();
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const follow = async () => {
    const { folders } = await walkFolder(root);
    if (closed) return;
    for (const [folder, watcher] of watchers) {
      if (!folders.includes(folder)) {
        watcher.close();
        watchers.delete(folder);
      }
    }
    for (const folder of folders) if (!watchers.has(folder)) watchOne(folder);
  };
  const flush = () => {
    timer = undefined;
    const paths = [...pending].sort();
    pending = new Set();
    onChange();
    for (const listener of listeners) listener(paths);
    void follow();
  };
  const watchOne = (folder: string) => {
    try {
      const watcher = watch(folder, (_event, name) => {
        const file = name === null ? folder : `${folder}${sep}${String(name)}`;
        pending.add(relative(root, file).split(sep).join('/'));
        timer ??= setTimeout(flush, SETTLE_MS);
      });
      // A folder removed under the viewer ends its watch; the next burst of changes re-reads the folders.
      watcher.on('error', () => {
        watcher.close();
        watchers.delete(folder);
      });
      watchers.set(folder, watcher);
    } catch {
      // A folder that cannot be watched (gone, no permission) is simply not watched.
    }
  };
  await follow();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
      listeners.clear();
    },
  };
}
