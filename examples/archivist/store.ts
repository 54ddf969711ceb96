/**
 * The run store the Archivist records its questions in, a file `switchyard runs --store <path>` reads. A
 * personal assistant keeps its history in the user's data folder, whatever folder it is started from:
 * `$XDG_DATA_HOME/archivist/runs.db` (by default `~/.local/share/archivist/runs.db`), unless `--store`,
 * `$ARCHIVIST_STORE` or `$SWITCHYARD_STORE` names another file.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
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

/** The environment variables that name the store file, in the order they are read. */
const STORE_VARIABLES = ['ARCHIVIST_STORE', 'SWITCHYARD_STORE'] as const;

/**
 * The folder the Archivist keeps its data in: `$XDG_DATA_HOME/archivist`, else `$HOME/.local/share/archivist`
 * (the XDG base directory default); a relative `$XDG_DATA_HOME` is ignored, as the XDG specification says.
 * Without either, `.switchyard/` of `cwd`.
 */
export function dataFolderOf(env: Readonly<Record<string, string | undefined>>, cwd: string): string {
  const xdg = env.XDG_DATA_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'archivist');
  const home = env.HOME;
  if (home !== undefined && home !== '') return join(home, '.local', 'share', 'archivist');
  return resolve(cwd, '.switchyard');
}

/**
 * The store file a command records into: `--store <path>`, else `$ARCHIVIST_STORE`, else
 * `$SWITCHYARD_STORE`, else `runs.db` in {@link dataFolderOf}; undefined for `--no-store`.
 */
export function storePathFor(
  store: string | false | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): string | undefined {
  if (store === false) return undefined;
  if (store !== undefined && store !== '') return storePathOf({ store }, env, cwd);
  for (const name of STORE_VARIABLES) {
    const named = env[name];
    if (named !== undefined && named !== '') return resolve(cwd, named);
  }
  return join(dataFolderOf(env, cwd), 'runs.db');
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

/** The command that shows a recorded run of the store shown as `shown`. */
export function runsShowCommand(runId: string, shown: string): string {
  const quoted = /^[\w./~+-]+$/.test(shown) ? shown : `'${shown.replaceAll("'", `'\\''`)}'`;
  return `switchyard runs show ${runId} --store ${quoted}`;
}
