import { resolve } from 'node:path';
import { type LoadResult, loadDagFolder, loadDagText } from '../document/load.ts';
import type { Dag, DagLibrary } from '../document/model.ts';
import { type Problem, problem } from '../errors.ts';
import { analyse } from '../graph/analyse.ts';
import type { NodeRegistry } from '../runtime/node.ts';
import { atWrittenPosition } from './format.ts';
import { type AroundLibrary, libraryAround } from './library.ts';
import { displayPath } from './output.ts';
import { isDash, STDIN_NAME } from './stdio.ts';

/** The verdict on one document. */
export interface FileReport {
  readonly file: string;
  readonly valid: boolean;
  readonly problems: readonly Problem[];
}

/** Every named document checked: one report each, the valid models by file, and the library they used. */
export interface CheckedDocuments {
  readonly reports: readonly FileReport[];
  readonly valid: ReadonlyMap<string, Dag>;
  readonly library: DagLibrary;
}

function names(files: readonly string[], cwd: string): string {
  return files.map((f) => displayPath(f, cwd)).join(', ');
}

/** The named files of each IRI that more than one named document has. */
function namedDuplicates(loaded: readonly { file: string; dag: Dag }[]): Map<string, string[]> {
  const files = new Map<string, string[]>();
  for (const { file, dag } of loaded) files.set(dag.id, [...(files.get(dag.id) ?? []), file]);
  return new Map([...files].filter(([, list]) => list.length > 1));
}

/** Warnings for a document whose IRI other documents share, naming them. */
function duplicateWarnings(
  file: string,
  dag: Dag,
  duplicates: ReadonlyMap<string, readonly string[]>,
  library: AroundLibrary,
  cwd: string,
): Problem[] {
  const where = { file, pointer: '/@id' };
  const named = (duplicates.get(dag.id) ?? []).filter((f) => f !== file);
  const beside = library.shadowed.get(dag.id) ?? [];
  const problems: Problem[] = [];
  if (named.length > 0) {
    problems.push(
      problem(
        'W_DUPLICATE_ID',
        `${displayPath(file, cwd)} and ${names(named, cwd)} have the same @id '${dag.id}', so an embed of it cannot tell them apart — give each document its own @id`,
        where,
      ),
    );
  }
  if (beside.length > 0) {
    problems.push(
      problem(
        'W_DUPLICATE_ID',
        `${displayPath(file, cwd)} and ${names(beside, cwd)} beside it have the same @id '${dag.id}'; embeds use the named document — give each document its own @id`,
        where,
      ),
    );
  }
  return problems;
}

/**
 * E_AMBIGUOUS_DAG for each embed or scatter of `dag` whose IRI several documents define, replacing the
 * E_UNKNOWN_DAG analysis reports for it (the library leaves such an IRI out rather than pick one).
 */
function ambiguities(
  dag: Dag,
  found: readonly Problem[],
  ambiguous: ReadonlyMap<string, readonly string[]>,
  cwd: string,
): Problem[] {
  const problems: Problem[] = [];
  const keys = new Set<string>();
  dag.placements.forEach((placement, index) => {
    if (placement.kind !== 'embed' && placement.kind !== 'scatter') return;
    const files = placement.dag === undefined ? undefined : ambiguous.get(placement.dag);
    if (!files) return;
    keys.add(placement.key);
    problems.push(
      problem(
        'E_AMBIGUOUS_DAG',
        `placement '${placement.key}' runs '${placement.dag}', which ${names(files, cwd)} all define — give each document its own @id, or name the one to use on the command line`,
        { placement: placement.key, pointer: `/placements/${index}/dag` },
      ),
    );
  });
  const rest = found.filter((p) => !(p.code === 'E_UNKNOWN_DAG' && p.placement && keys.has(p.placement)));
  return [...rest, ...problems];
}

/**
 * Loads the named documents in the order given: each path a file or a folder of `*.jsonld`, `-` the text
 * `stdin` read from standard input (named `<stdin>`; named twice, loaded once).
 */
async function loadNamed(
  paths: readonly string[],
  cwd: string,
  stdin: string | undefined,
): Promise<Map<string, LoadResult>> {
  const results = new Map<string, LoadResult>();
  for (const path of paths) {
    if (isDash(path)) {
      if (stdin === undefined)
        throw new Error('checkDocuments: `-` named without the text of standard input');
      if (!results.has(STDIN_NAME)) results.set(STDIN_NAME, await loadDagText(stdin, STDIN_NAME));
      continue;
    }
    // Paths are the user's, relative to the command's working folder.
    for (const [file, result] of (await loadDagFolder([resolve(cwd, path)])).results) {
      if (!results.has(file)) results.set(file, result);
    }
  }
  return results;
}

/**
 * Loads and analyses documents (files, or folders of `*.jsonld`, or `-` with `stdin` the text read from
 * standard input), with the documents around them as the library for embeds; problems carry the line and
 * column where the author wrote the value. Documents that share an `@id` get a warning naming each other; an
 * embed of an IRI that several documents define, none of them named, is an error.
 */
export async function checkDocuments(
  paths: readonly string[],
  cwd: string,
  nodes?: NodeRegistry,
  stdin?: string,
): Promise<CheckedDocuments> {
  const named = { results: await loadNamed(paths, cwd, stdin) };
  const loaded = [...named.results].flatMap(([file, r]) => (r.dag ? [{ file, dag: r.dag }] : []));
  const duplicates = namedDuplicates(loaded);
  const ambiguous = new Map<string, readonly string[]>(duplicates);
  // A document from standard input has no folder: the documents it embeds come from the project's dags/.
  const around = await libraryAround(
    loaded.map((l) => l.dag),
    [...named.results.keys()].filter((file) => file !== STDIN_NAME),
    cwd,
  );
  for (const [id, files] of around.ambiguous) ambiguous.set(id, files);
  const library: DagLibrary = { get: (id) => (ambiguous.has(id) ? undefined : around.get(id)) };
  const reports: FileReport[] = [];
  const valid = new Map<string, Dag>();
  for (const [file, result] of named.results) {
    // The loader's duplicate warnings name files as given; the ones below name them as the user sees them.
    const problems = result.problems.filter((p) => p.code !== 'W_DUPLICATE_ID');
    if (result.dag) {
      const found = analyse(result.dag, { library, file, ...(nodes ? { nodes } : {}) });
      const all = [
        ...ambiguities(result.dag, found, ambiguous, cwd).map((p) => ({ ...p, file })),
        ...duplicateWarnings(file, result.dag, duplicates, around, cwd),
      ];
      problems.push(...all.map((p) => atWrittenPosition(p, result)));
    }
    const ok = result.dag !== undefined && !problems.some((p) => p.severity === 'error');
    if (ok && result.dag) valid.set(file, result.dag);
    reports.push({ file, valid: ok, problems });
  }
  return { reports, valid, library };
}
