/**
 * Which run store a command uses and how it is opened: `--store <path>`, else `$SWITCHYARD_STORE`, else
 * `.switchyard/runs.db` below the current folder; `--no-store` (on `run`) records nothing.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { SwitchyardError } from '../errors.ts';
import type { SqliteRunStore } from '../store/sqlite.ts';
import { displayPath } from './output.ts';

/** The store file used when neither `--store` nor `$SWITCHYARD_STORE` names one, relative to the cwd. */
export const DEFAULT_STORE_PATH = '.switchyard/runs.db';

/** The environment variable naming the store file. */
export const STORE_ENV = 'SWITCHYARD_STORE';

/** The parsed `--store` / `--no-store` option: a path, `false` for `--no-store`, or absent. */
export interface StoreCliOption {
  readonly store?: string | false;
}

/**
 * The absolute path of the store a command uses, or undefined for `--no-store`.
 * @example
 * storePathOf({}, {}, '/work') // '/work/.switchyard/runs.db'
 */
export function storePathOf(
  opts: StoreCliOption,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): string | undefined {
  if (opts.store === false) return undefined;
  if (opts.store !== undefined && opts.store !== '') return resolve(cwd, opts.store);
  const fromEnv = env[STORE_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return resolve(cwd, fromEnv);
  return resolve(cwd, DEFAULT_STORE_PATH);
}

/** How {@link openCliStore} opens a store. */
export interface OpenCliStoreOptions {
  /** Create the file (and its folder) when missing, as `run` does; otherwise a missing file is `E_NO_RUNS`. */
  readonly create: boolean;
  /** Open it for writing (`runs prune`); commands that only read leave it false. Implied by `create`. */
  readonly write?: boolean;
  /** The folder paths in messages are shown relative to. */
  readonly cwd?: string;
}

/**
 * Opens the store at `path` for a command. A command that only reads refuses a missing file with one
 * line (`E_NO_RUNS`) and creates nothing; a bad file is refused with the store's own one-line `E_STORE_*`
 * error and left unchanged.
 * @example
 * const store = await openCliStore(storePathOf(options) as string, { create: false });
 */
export async function openCliStore(path: string, options: OpenCliStoreOptions): Promise<SqliteRunStore> {
  const cwd = options.cwd ?? process.cwd();
  const file = resolve(cwd, path);
  if (!options.create && !existsSync(file)) {
    throw new SwitchyardError(
      'E_NO_RUNS',
      `no runs recorded at ${displayPath(file, cwd)}: run \`switchyard run\` first, or pass --store <path>`,
    );
  }
  const write = options.create || options.write === true;
  // The store's modules are loaded by the commands that open one, not by every start of the program.
  const { openSqliteStore } = await import('../store/sqlite.ts');
  return openSqliteStore(file, { readonly: !write });
}

/** What `--store` names, in every command of both programs; each says its own default after it. */
export const STORE_FILE_HELP = 'the run store file';

/** The help text of `--store <path>`. */
export const STORE_OPTION_HELP = `${STORE_FILE_HELP} (default: $${STORE_ENV}, else ${DEFAULT_STORE_PATH} in the current folder)`;

/**
 * Adds `--store <path>` to a command.
 * @example
 * addStoreOption(program.command('runs'));
 */
export function addStoreOption(command: Command): Command {
  return command.option('--store <path>', STORE_OPTION_HELP);
}
