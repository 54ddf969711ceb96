/**
 * Loading DAG documents from text, files and folders. The canonical form (`@context` exactly the Switchyard
 * context IRI) takes a fast path with no JSON-LD processing; every other JSON-LD form is normalised first.
 * User mistakes are returned as problems, never thrown.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Problem, problem } from '../errors.ts';
import { CONTEXT_IRI, type Dag, type DagLibrary } from './model.ts';
import { normalise } from './normalise.ts';
import { type Position, parseJson } from './parse-json.ts';
import { validateSchema } from './schema.ts';
import { sourcePointer } from './source-pointer.ts';
import { toModel } from './to-model.ts';

export { toModel } from './to-model.ts';

/** The outcome of loading one document. */
export interface LoadResult {
  /** The model, when the document has no error-severity problems. */
  readonly dag: Dag | undefined;
  readonly problems: readonly Problem[];
  /** `canonical` for the fast path, `jsonld` when the document was normalised by a JSON-LD processor. */
  readonly form: 'canonical' | 'jsonld';
  /** Maps a JSON pointer into the document as written to its line and column. */
  locate(pointer: string): Position | undefined;
  /**
   * Maps a pointer into the model (as analysis reports them) to the pointer of that value as written;
   * undefined for documents normalised by JSON-LD, whose written form has no such pointers.
   */
  writtenPointer(modelPointer: string): string | undefined;
}

const NOWHERE = (_pointer: string): undefined => undefined;

/** The fast path takes a single top-level object whose context is exactly the Switchyard context IRI. */
function isCanonical(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return record['@context'] === CONTEXT_IRI && !('@graph' in record);
}

/**
 * Loads a DAG document from its text; `file` is only used to label problems.
 *
 * @example
 * ```ts
 * const { dag, problems } = await loadDagText(text, 'dags/compose-validate.jsonld');
 * if (!dag) for (const p of problems) console.error(`${p.file}:${p.line}:${p.column} ${p.message}`);
 * ```
 */
export async function loadDagText(text: string, file?: string): Promise<LoadResult> {
  const where = file === undefined ? {} : { file };
  const parsed = parseJson(text, file);
  if (parsed.problems.length > 0) {
    return {
      dag: undefined,
      problems: parsed.problems,
      form: 'canonical',
      locate: parsed.locate,
      writtenPointer: NOWHERE,
    };
  }
  if (isCanonical(parsed.value)) {
    const problems = validateSchema(parsed.value, { ...where, locate: parsed.locate });
    const dag = problems.length === 0 ? toModel(parsed.value as object) : undefined;
    const writtenPointer = (pointer: string) => (dag ? sourcePointer(parsed.value, dag, pointer) : undefined);
    return { dag, problems, form: 'canonical', locate: parsed.locate, writtenPointer };
  }
  const normalised = await normalise(parsed.value, file);
  if (!normalised.canonical) {
    // The JSON-LD processor's problems point into the document as written, so they can carry its positions.
    const problems = normalised.problems.map((p) => {
      const position = p.pointer === undefined || p.line !== undefined ? undefined : parsed.locate(p.pointer);
      return position ? { ...p, ...position } : p;
    });
    return {
      dag: undefined,
      problems,
      form: 'jsonld',
      locate: parsed.locate,
      writtenPointer: NOWHERE,
    };
  }
  const problems = validateSchema(normalised.canonical, {
    ...where,
    prefix: 'in the normalised compact form, ',
  });
  const dag = problems.length === 0 ? toModel(normalised.canonical) : undefined;
  return { dag, problems, form: 'jsonld', locate: parsed.locate, writtenPointer: NOWHERE };
}

/**
 * Reads and loads a DAG document file; a missing or unreadable file is a problem, not an exception.
 *
 * @example
 * ```ts
 * const { dag } = await loadDagFile('dags/compose-validate.jsonld');
 * ```
 */
export async function loadDagFile(path: string): Promise<LoadResult> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const found = code !== 'ENOENT' && code !== 'ENOTDIR';
    const message = found
      ? `cannot read ${path}: ${(error as Error).message} — check its permissions and that it is a file`
      : `no such file: ${path} — check the path`;
    return {
      dag: undefined,
      problems: [problem(found ? 'E_FILE_READ' : 'E_FILE_NOT_FOUND', message, { file: path })],
      form: 'canonical',
      locate: NOWHERE,
      writtenPointer: NOWHERE,
    };
  }
  return loadDagText(text, path);
}

async function jsonLdFilesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) files.push(...(await jsonLdFilesUnder(path)));
    else if (entry.name.endsWith('.jsonld')) files.push(path);
  }
  return files;
}

/** The files named by `paths`, with each folder replaced by its `*.jsonld` files (recursively, sorted). */
export async function expandPaths(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory()) files.push(...(await jsonLdFilesUnder(path)).sort());
    else files.push(path);
  }
  return [...new Set(files)];
}

/** The DAGs of a set of loaded documents, by IRI (the first document wins when two share an IRI). */
export function libraryOf(dags: Iterable<Dag>): DagLibrary & { readonly ids: readonly string[] } {
  const byId = new Map<string, Dag>();
  for (const dag of dags) if (!byId.has(dag.id)) byId.set(dag.id, dag);
  return { get: (id) => byId.get(id), ids: [...byId.keys()].sort() };
}

/**
 * Loads files and folders (their `*.jsonld` files, recursively) and collects the loaded DAGs in a library.
 *
 * @example
 * ```ts
 * const { results, library } = await loadDagFolder(['dags']);
 * const child = library.get('urn:switchyard:dag:compose-validate');
 * ```
 */
export async function loadDagFolder(
  paths: readonly string[],
): Promise<{ results: Map<string, LoadResult>; library: DagLibrary }> {
  const results = new Map<string, LoadResult>();
  for (const file of await expandPaths(paths)) results.set(file, await loadDagFile(file));
  const loaded = [...results.values()].flatMap((r) => (r.dag ? [r.dag] : []));
  return { results, library: libraryOf(loaded) };
}
