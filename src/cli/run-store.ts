/**
 * What `run` and `resume` share about a durable run on the command line: opening the store a run is
 * recorded in, the files its documents came from, Ctrl-C, and the line that says how to go on.
 */
import { readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { loadDagFile } from '../document/load.ts';
import type { Dag, DagLibrary } from '../document/model.ts';
import { SwitchyardError } from '../errors.ts';
import type { SqliteRunStore } from '../store/sqlite.ts';
import { displayPath } from './output.ts';
import { STDIN_NAME } from './stdio.ts';
import { openCliStore, storePathOf } from './store-option.ts';

/** The store a command records into, with the path it was opened at. */
export interface CliRunStore {
  readonly store: SqliteRunStore;
  /** The absolute path of the store file. */
  readonly path: string;
}

/**
 * Opens the store `run` records into (`--store`, `$SWITCHYARD_STORE`, `.switchyard/runs.db`), creating it
 * when missing; undefined for `--no-store`.
 */
export async function openRunStore(
  store: string | false | undefined,
  cwd: string,
): Promise<CliRunStore | undefined> {
  const path = storePathOf(store === undefined ? {} : { store }, process.env, cwd);
  if (path === undefined) return undefined;
  return { store: await openCliStore(path, { create: true, cwd }), path };
}

/** Opens the store a recorded run is read from for `resume`: it must exist, and is written to. */
export async function openResumeStore(store: string | undefined, cwd: string): Promise<CliRunStore> {
  const path = storePathOf(store === undefined ? {} : { store }, process.env, cwd) as string;
  return { store: await openCliStore(path, { create: false, write: true, cwd }), path };
}

/** IRIs that `dag`'s embeds and scatters run, transitively through `library`, the library has. */
function embeddedIris(dag: Dag, library: DagLibrary): Map<string, Dag> {
  const found = new Map<string, Dag>();
  const stack = [dag];
  while (stack.length > 0) {
    const at = stack.pop() as Dag;
    for (const placement of at.placements) {
      const iri = placement.kind === 'embed' || placement.kind === 'scatter' ? placement.dag : undefined;
      if (iri === undefined || iri === dag.id || found.has(iri)) continue;
      const child = library.get(iri);
      if (child === undefined) continue;
      found.set(iri, child);
      stack.push(child);
    }
  }
  return found;
}

/** The `*.jsonld` files of `folder`, and below it when `deep` (dot-folders and node_modules skipped). */
async function documentsIn(folder: string, deep: boolean): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isFile() && entry.name.endsWith('.jsonld')) files.push(path);
    else if (deep && entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.')) {
      files.push(...(await documentsIn(path, true)));
    }
  }
  return files;
}

/**
 * IRI → absolute file of the run's documents: `file` for `dag`, and for each document it embeds or scatters
 * over, the file beside it (or under the project's `dags/`) that holds exactly the library's copy. A
 * document whose file cannot be told is left out, as is one read from standard input (`<stdin>`): the run
 * records it without a file, and a resume uses the recorded copy.
 */
export async function documentFiles(
  file: string,
  dag: Dag,
  library: DagLibrary,
  cwd: string,
): Promise<Record<string, string>> {
  const piped = file === STDIN_NAME;
  const files: Record<string, string> = piped ? {} : { [dag.id]: file };
  const wanted = embeddedIris(dag, library);
  if (wanted.size === 0) return files;
  const candidates = [
    ...(piped ? [] : await documentsIn(dirname(file), false)),
    ...(await documentsIn(join(resolve(cwd), 'dags'), true)),
  ];
  for (const candidate of new Set(candidates)) {
    if (candidate === file) continue;
    const loaded = (await loadDagFile(candidate).catch(() => undefined))?.dag;
    const expected = loaded === undefined ? undefined : wanted.get(loaded.id);
    if (loaded === undefined || expected === undefined || files[loaded.id] !== undefined) continue;
    if (JSON.stringify(loaded) === JSON.stringify(expected)) files[loaded.id] = candidate;
  }
  return files;
}

/** Ctrl-C for a run: the first one aborts it through `signal` (it stays resumable); see {@link interruptOnSigint}. */
export interface Interrupt {
  readonly signal: AbortSignal;
  /** True once Ctrl-C was pressed. */
  readonly interrupted: () => boolean;
  /** Stops listening for Ctrl-C. */
  readonly dispose: () => void;
}

/**
 * Listens for SIGINT: the first aborts the run (its post phases still run, and a recorded run stays
 * resumable); a second one, while the run winds down, is the platform's (the process ends).
 */
export function interruptOnSigint(): Interrupt {
  const controller = new AbortController();
  const onSigint = () => controller.abort(new SwitchyardError('E_ABORTED', 'interrupted by the user'));
  process.once('SIGINT', onSigint);
  return {
    signal: controller.signal,
    interrupted: () => controller.signal.aborted,
    dispose: () => process.off('SIGINT', onSigint),
  };
}

/**
 * The command that goes on with run `runId`: its node module as the user named it, and `--store` unless the
 * store is the one the command finds by itself.
 * @example
 * resumeCommand('3f…', 'nodes.ts', '/work/.switchyard/runs.db', '/work') // 'switchyard resume 3f… --nodes nodes.ts'
 */
export function resumeCommand(runId: string, nodes: string, storePath: string, cwd: string): string {
  const found = storePathOf({}, process.env, cwd);
  const store = found === storePath ? '' : ` --store ${quoted(displayPath(storePath, cwd))}`;
  return `switchyard resume ${runId} --nodes ${quoted(nodes)}${store}`;
}

function quoted(text: string): string {
  return /^[\w@%+=:,./-]+$/u.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Says on stderr, when a recorded run did not end, that it is recorded and how to go on with it. */
export function resumeHint(
  err: (line: string) => void,
  status: string,
  interrupted: boolean,
  command: string,
): void {
  if (status !== 'aborted' && !interrupted) return;
  err(`${interrupted ? 'interrupted: ' : ''}the run is recorded and can go on where it stopped: ${command}`);
}
