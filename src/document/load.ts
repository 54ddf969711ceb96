/**
 * Loading DAG documents from text, files and folders. The canonical form (`@context` exactly the Switchyard
 * context IRI) takes a fast path with no JSON-LD processing; every other JSON-LD form is normalised first.
 * User mistakes are returned as problems, never thrown.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Problem, problem } from '../errors.ts';
import { usesJsonLdFeatures } from './jsonld-features.ts';
import { CONTEXT_IRI, type Dag, type DagLibrary } from './model.ts';
import type { Normalised } from './normalise.ts';
import { type Position, parseJson } from './parse-json.ts';
import { readDocumentFile } from './read-file.ts';
import { validateSchema } from './schema.ts';
import { sourcePointer } from './source-pointer.ts';
import { toModel } from './to-model.ts';
import type { writtenJsonLdPointer as WrittenJsonLdPointer } from './written-jsonld.ts';

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
   * Maps a pointer into the model (as analysis reports them) to the pointer of that value as written, in
   * any JSON-LD form; undefined when the value is not written (a default the author left out).
   */
  writtenPointer(modelPointer: string): string | undefined;
}

const NOWHERE = (_pointer: string): undefined => undefined;

// The JSON-LD path (jsonld.js and the pointer mapping back to the document as written) is imported only for
// a document that needs it, so loading documents in the canonical form never loads it.
async function normalise(raw: unknown, file: string | undefined): Promise<Normalised> {
  return (await import('./normalise.ts')).normalise(raw, file);
}

async function pointerMapper(): Promise<typeof WrittenJsonLdPointer> {
  return (await import('./written-jsonld.ts')).writtenJsonLdPointer;
}

/** The fast path takes a single top-level object whose context is exactly the Switchyard context IRI. */
function isCanonical(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return record['@context'] === CONTEXT_IRI && !('@graph' in record);
}

/**
 * The document for the JSON-LD processor: without the top-level `$schema` that editors use to find the
 * schema, which is not part of the graph (a processor in safe mode would refuse it as an unknown term).
 */
function withoutSchemaKey(raw: unknown, where: { file?: string }, locate: LoadResult['locate']) {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || !Object.hasOwn(raw, '$schema')) {
    return { raw, problems: [] };
  }
  const { $schema: schema, ...rest } = raw as Record<string, unknown>;
  // The same rule as the schema's for the canonical form.
  if (typeof schema === 'string' && schema.length <= 2048) return { raw: rest, problems: [] };
  const message =
    '$schema: must be a string of at most 2048 characters, the path or URL of schemas/dag.schema.json — correct it or remove it';
  return {
    raw: rest,
    problems: [
      problem('E_SCHEMA', message, { ...where, pointer: '/$schema', ...(locate('/$schema') ?? {}) }),
    ],
  };
}

/** Codes of the JSON-LD path that find fault with the graph itself rather than with how it is written. */
const GRAPH_AT_FAULT: ReadonlySet<string> = new Set(['E_JSONLD_LOSSY', 'E_CONTEXT_REFUSED', 'E_TOO_COSTLY']);

/** The JSON-LD path's problems, which point into the document as written, with its positions. */
function positioned(problems: readonly Problem[], locate: LoadResult['locate']): Problem[] {
  return problems.map((p) => {
    const position = p.pointer === undefined || p.line !== undefined ? undefined : locate(p.pointer);
    return position ? { ...p, ...position } : p;
  });
}

/** A load that stopped before a model: `problems` say why. */
function failed(
  problems: readonly Problem[],
  form: LoadResult['form'],
  locate: LoadResult['locate'],
): LoadResult {
  return { dag: undefined, problems, form, locate, writtenPointer: NOWHERE };
}

/**
 * Loads a DAG document from its text; `file` is only used to label problems. Never throws for any text: a
 * failure inside a parser or the JSON-LD processor is one problem.
 *
 * @example
 * ```ts
 * const { dag, problems } = await loadDagText(text, 'dags/compose-validate.jsonld');
 * if (!dag) for (const p of problems) console.error(`${p.file}:${p.line}:${p.column} ${p.message}`);
 * ```
 */
export async function loadDagText(text: string, file?: string): Promise<LoadResult> {
  try {
    return await loadParsed(text, file);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return failed(
      [
        problem(
          'E_JSONLD',
          `cannot load this document: ${message.replace(/\s+/g, ' ').slice(0, 200)} — write it in the canonical compact form (see schemas/dag.schema.json)`,
          file === undefined ? {} : { file },
        ),
      ],
      'jsonld',
      NOWHERE,
    );
  }
}

async function loadParsed(text: string, file: string | undefined): Promise<LoadResult> {
  const where = file === undefined ? {} : { file };
  const parsed = parseJson(text, file);
  if (parsed.problems.length > 0) return failed(parsed.problems, 'canonical', parsed.locate);
  const raw = parsed.value;
  if (isCanonical(raw)) {
    const problems = validateSchema(raw, { ...where, locate: parsed.locate });
    if (problems.length === 0) {
      const dag = toModel(raw as object);
      const writtenPointer = (pointer: string) => sourcePointer(raw, dag, pointer);
      return { dag, problems, form: 'canonical', locate: parsed.locate, writtenPointer };
    }
    // The same graph may use JSON-LD the schema does not describe (typed literals, `"@type": ["Dag"]`, a
    // single value for a set, `@included`, `@reverse`): it loads through the JSON-LD path. When that fails
    // too, the problems of the document as written are the ones to show, unless the JSON-LD reading found
    // the graph itself at fault (a node it would drop, a context it refuses, work past the bound).
    if (!usesJsonLdFeatures(raw)) return failed(problems, 'canonical', parsed.locate);
    const normalised = await normalise(withoutSchemaKey(raw, where, parsed.locate).raw, file);
    if (normalised.canonical && validateSchema(normalised.canonical).length === 0) {
      return fromNormalised(raw, normalised.canonical, parsed.locate, where, await pointerMapper());
    }
    if (normalised.problems.some((p) => GRAPH_AT_FAULT.has(p.code))) {
      return failed(positioned(normalised.problems, parsed.locate), 'jsonld', parsed.locate);
    }
    return failed(problems, 'canonical', parsed.locate);
  }
  const forProcessor = withoutSchemaKey(raw, where, parsed.locate);
  if (forProcessor.problems.length > 0) return failed(forProcessor.problems, 'jsonld', parsed.locate);
  const normalised = await normalise(forProcessor.raw, file);
  if (!normalised.canonical)
    return failed(positioned(normalised.problems, parsed.locate), 'jsonld', parsed.locate);
  return fromNormalised(raw, normalised.canonical, parsed.locate, where, await pointerMapper());
}

/** The model of a normalised document, with problems and pointers mapped back to the document as written. */
function fromNormalised(
  raw: unknown,
  canonical: Record<string, unknown>,
  locate: LoadResult['locate'],
  where: { file?: string },
  writtenJsonLdPointer: typeof WrittenJsonLdPointer,
): LoadResult {
  // The schema's pointers refer to the normalised form; each problem is moved to where the value is written.
  const problems = validateSchema(canonical, where).map((p) => {
    const pointer = writtenJsonLdPointer(raw, canonical, p.pointer ?? '');
    const { line: _line, column: _column, ...rest } = p;
    return {
      ...rest,
      message: `in the normalised compact form, ${p.message}`,
      pointer,
      ...(locate(pointer) ?? {}),
    };
  });
  if (problems.length > 0) return failed(problems, 'jsonld', locate);
  const dag = toModel(canonical);
  const writtenPointer = (pointer: string) => {
    try {
      return writtenJsonLdPointer(raw, dag, pointer);
    } catch {
      // A position is a help, never a reason to fail: the problem is shown without it.
      return undefined;
    }
  };
  return { dag, problems, form: 'jsonld', locate, writtenPointer };
}

/**
 * Reads and loads a DAG document file; a missing, unreadable, special (FIFO, device) or oversized file is a
 * problem, not an exception.
 *
 * @example
 * ```ts
 * const { dag } = await loadDagFile('dags/compose-validate.jsonld');
 * ```
 */
export async function loadDagFile(path: string): Promise<LoadResult> {
  const read = await readDocumentFile(path);
  if ('problem' in read) return failed([read.problem], 'canonical', NOWHERE);
  return loadDagText(read.text, path);
}

/** True for a regular file, also through a symbolic link; FIFOs, sockets and devices are not documents. */
async function isRegularFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

async function jsonLdFilesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(folder, entry.name);
    // A symbolic link to a folder is not followed: it could lead out of the folder or round in a loop.
    if (entry.isDirectory()) files.push(...(await jsonLdFilesUnder(path)));
    else if (
      entry.name.endsWith('.jsonld') &&
      (entry.isFile() || (entry.isSymbolicLink() && (await isRegularFile(path))))
    ) {
      files.push(path);
    }
  }
  return files;
}

/**
 * The files named by `paths`, with each folder replaced by its `*.jsonld` regular files (recursively, sorted;
 * links to folders are not followed). A path named on its own is kept whatever it is, so that it is reported.
 */
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
 * Documents that share an `@id` each get a `W_DUPLICATE_ID` warning naming the others, and that IRI is left
 * out of the library, so that no embed picks one of them by file name.
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
  const filesOf = new Map<string, string[]>();
  for (const [file, r] of results) if (r.dag) filesOf.set(r.dag.id, [...(filesOf.get(r.dag.id) ?? []), file]);
  for (const [id, files] of filesOf) {
    if (files.length < 2) continue;
    for (const file of files) {
      const result = results.get(file) as LoadResult;
      const others = files.filter((f) => f !== file).join(', ');
      const warning = problem(
        'W_DUPLICATE_ID',
        `${file} and ${others} have the same @id '${id}', so an embed of it cannot tell them apart — give each document its own @id`,
        { file, pointer: '/@id', ...(result.locate('/@id') ?? {}) },
      );
      results.set(file, { ...result, problems: [...result.problems, warning] });
    }
  }
  const unique = [...results.values()].flatMap((r) =>
    r.dag && (filesOf.get(r.dag.id)?.length ?? 0) === 1 ? [r.dag] : [],
  );
  return { results, library: libraryOf(unique) };
}
