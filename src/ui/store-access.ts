/**
 * The run store as the viewer reads it: opened read-only when first needed and kept open while the file on
 * disk is the one it opened. A missing file is looked for again on every request (a first `switchyard run`
 * may create it while the viewer runs); a file deleted or replaced (another file renamed over it, a new store
 * of that name) is let go and the file now at the path is read instead, so the page never shows runs that are
 * no longer there. A store that cannot be opened is a message for the page, never a crash.
 */
import { statSync } from 'node:fs';
import { isSwitchyardError } from '../errors.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import type { RunStore } from '../store/types.ts';

/** Why the store cannot be read now, said for the page. */
export interface StoreProblem {
  /** `E_NO_RUNS` for a missing file, else the store's `E_STORE_*` code. */
  readonly code: string;
  readonly message: string;
}

/** The store, held until `release` (a store let go meanwhile is closed once its last holder releases it). */
export interface HeldStore {
  readonly ok: true;
  readonly store: RunStore;
  /** Tells the file apart from any other that was or will be at the path. */
  readonly file: string;
  release(): void;
}

/** The store, or why it cannot be read. */
export type StoreState = HeldStore | ({ readonly ok: false } & StoreProblem);

/** The viewer's read-only access to one store file. */
export interface StoreAccess {
  /** The store file, as the page names it. */
  readonly shown: string;
  /** The store at the path now, opened if need be, or why it cannot be read; release it when done. */
  hold(): Promise<StoreState>;
  close(): Promise<void>;
}

// A writer holds its lock for one short transaction at a time; the page should not hang behind a stuck one.
const BUSY_TIMEOUT_MS = 1000;

/** One opening of the file: its identity on disk, the store, and who holds it now. */
interface Opening {
  readonly file: string;
  readonly store: Promise<RunStore>;
  holders: number;
  letGo: boolean;
}

/** The file's identity on disk (device and inode), or undefined when there is none. */
function identity(path: string): string | undefined {
  const found = statSync(path, { throwIfNoEntry: false });
  // While the store is open its inode cannot be freed, so a new file at the path always has another one.
  return found === undefined ? undefined : `${found.dev}:${found.ino}`;
}

function closeQuietly(opening: Opening): void {
  void opening.store.then((store) => store.close()).catch(() => undefined);
}

/**
 * Read-only access to the store at `path` (absolute), named `shown` in messages.
 * @example
 * const access = storeAccess('/work/.switchyard/runs.db', '.switchyard/runs.db');
 * const held = await access.hold();
 * if (held.ok) try { await held.store.listRuns({}) } finally { held.release() }
 */
export function storeAccess(path: string, shown: string): StoreAccess {
  let current: Opening | undefined;
  const letGo = (opening: Opening): void => {
    if (current === opening) current = undefined;
    opening.letGo = true;
    if (opening.holders === 0) closeQuietly(opening);
  };
  return {
    shown,
    async hold() {
      const file = identity(path);
      if (current !== undefined && current.file !== file) letGo(current);
      if (file === undefined) {
        return {
          ok: false,
          code: 'E_NO_RUNS',
          message: `no runs recorded at ${shown} yet: run \`switchyard run\` with this store, and this page lists them`,
        };
      }
      current ??= {
        file,
        store: openSqliteStore(path, { readonly: true, busyTimeoutMs: BUSY_TIMEOUT_MS }),
        holders: 0,
        letGo: false,
      };
      const opening = current;
      opening.holders += 1;
      let store: RunStore;
      try {
        store = await opening.store;
      } catch (error) {
        opening.holders -= 1;
        if (current === opening) current = undefined;
        if (!isSwitchyardError(error)) throw error;
        return { ok: false, code: error.code, message: error.message };
      }
      let released = false;
      return {
        ok: true,
        store,
        file,
        release() {
          if (released) return;
          released = true;
          opening.holders -= 1;
          if (opening.letGo && opening.holders === 0) closeQuietly(opening);
        },
      };
    },
    async close() {
      const opening = current;
      current = undefined;
      if (opening === undefined) return;
      opening.letGo = true;
      const store = await opening.store.catch(() => undefined);
      await store?.close();
    },
  };
}
