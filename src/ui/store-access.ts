/**
 * The run store as the viewer reads it: opened read-only when first needed and kept open; a missing file is
 * looked for again on every request (a first `switchyard run` may create it while the viewer runs), and a
 * store that cannot be opened is a message for the page, never a crash.
 */
import { existsSync } from 'node:fs';
import { isSwitchyardError } from '../errors.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import type { RunStore } from '../store/types.ts';

/** Why the store cannot be read now, said for the page. */
export interface StoreProblem {
  /** `E_NO_RUNS` for a missing file, else the store's `E_STORE_*` code. */
  readonly code: string;
  readonly message: string;
}

/** The store, or why it cannot be read. */
export type StoreState =
  | { readonly ok: true; readonly store: RunStore }
  | ({ readonly ok: false } & StoreProblem);

/** The viewer's read-only access to one store file. */
export interface StoreAccess {
  /** The store file, as the page names it. */
  readonly shown: string;
  /** Opens the store if it is not open yet, or says why it cannot. */
  state(): Promise<StoreState>;
  close(): Promise<void>;
}

// A writer holds its lock for one short transaction at a time; the page should not hang behind a stuck one.
const BUSY_TIMEOUT_MS = 1000;

/**
 * Read-only access to the store at `path` (absolute), named `shown` in messages.
 * @example
 * const access = storeAccess('/work/.switchyard/runs.db', '.switchyard/runs.db');
 * const state = await access.state();
 */
export function storeAccess(path: string, shown: string): StoreAccess {
  let opened: Promise<RunStore> | undefined;
  return {
    shown,
    async state() {
      if (opened === undefined) {
        if (!existsSync(path)) {
          return {
            ok: false,
            code: 'E_NO_RUNS',
            message: `no runs recorded at ${shown} yet: run \`switchyard run\` with this store, and this page lists them`,
          };
        }
        opened = openSqliteStore(path, { readonly: true, busyTimeoutMs: BUSY_TIMEOUT_MS });
      }
      try {
        return { ok: true, store: await opened };
      } catch (error) {
        opened = undefined;
        if (!isSwitchyardError(error)) throw error;
        return { ok: false, code: error.code, message: error.message };
      }
    },
    async close() {
      const store = await opened?.catch(() => undefined);
      opened = undefined;
      await store?.close();
    },
  };
}
