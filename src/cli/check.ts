import { loadDagFolder } from '../document/load.ts';
import type { Dag, DagLibrary } from '../document/model.ts';
import type { Problem } from '../errors.ts';
import { analyse } from '../graph/analyse.ts';
import type { NodeRegistry } from '../runtime/node.ts';
import { atWrittenPosition } from './format.ts';
import { libraryAround } from './library.ts';

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

/**
 * Loads and analyses documents (files, or folders of `*.jsonld`), with the documents around them as the
 * library for embeds; problems carry the line and column where the author wrote the value.
 */
export async function checkDocuments(
  paths: readonly string[],
  cwd: string,
  nodes?: NodeRegistry,
): Promise<CheckedDocuments> {
  const named = await loadDagFolder(paths);
  const loaded = [...named.results.values()].flatMap((r) => (r.dag ? [r.dag] : []));
  const library = await libraryAround(loaded, [...named.results.keys()], cwd);
  const reports: FileReport[] = [];
  const valid = new Map<string, Dag>();
  for (const [file, result] of named.results) {
    const problems = [...result.problems];
    if (result.dag) {
      const found = analyse(result.dag, { library, file, ...(nodes ? { nodes } : {}) });
      problems.push(...found.map((p) => atWrittenPosition(p, result)));
    }
    const ok = result.dag !== undefined && !problems.some((p) => p.severity === 'error');
    if (ok && result.dag) valid.set(file, result.dag);
    reports.push({ file, valid: ok, problems });
  }
  return { reports, valid, library };
}
