/**
 * The run store the Archivist records its questions in: the same file `switchyard runs` reads (`--store`,
 * `$SWITCHYARD_STORE`, `.switchyard/runs.db`).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { displayPath } from '../../src/cli/output.ts';
import { openCliStore, storePathOf } from '../../src/cli/store-option.ts';
import { SwitchyardError } from '../../src/errors.ts';
import type { RunStore } from '../../src/store/types.ts';

/** An open store and where it is. */
export interface SessionStore {
  readonly store: RunStore;
  /** The absolute path of the file. */
  readonly path: string;
  /** The path as messages show it (relative to the current folder when below it). */
  readonly shown: string;
}

/**
 * The store file a command records into: `--store <path>`, else `$SWITCHYARD_STORE`, else
 * `.switchyard/runs.db`; undefined for `--no-store`.
 */
export function storePathFor(
  store: string | false | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): string | undefined {
  return storePathOf(store === undefined ? {} : { store }, env, cwd);
}

/** Opens (creating it when missing) the store at `path`; a bad file is the store's one-line `E_STORE_*` error. */
export async function openStore(path: string, cwd: string): Promise<SessionStore> {
  return {
    store: await openCliStore(path, { create: true, cwd }),
    path: resolve(cwd, path),
    shown: displayPath(path, cwd),
  };
}

/** Refuses `chat --resume` on a store file that does not exist, creating nothing. */
export function assertStoreExists(path: string, cwd: string): void {
  if (existsSync(resolve(cwd, path))) return;
  throw new SwitchyardError(
    'E_NO_RUNS',
    `no conversation is recorded in ${displayPath(path, cwd)}: start one with archivist chat, or pass --store <path>`,
  );
}
