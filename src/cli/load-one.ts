import { resolve } from 'node:path';
import { loadDagFile } from '../document/load.ts';
import type { Dag, DagLibrary } from '../document/model.ts';
import { SwitchyardError } from '../errors.ts';
import { analyse } from '../graph/analyse.ts';
import type { NodeRegistry } from '../runtime/node.ts';
import { atWrittenPosition, formatProblem } from './format.ts';
import { libraryAround } from './library.ts';
import { displayPath } from './output.ts';

/** A document that loaded and passed analysis, with the library of its sibling documents. */
export interface LoadedDag {
  /** The document's absolute path. */
  readonly file: string;
  readonly dag: Dag;
  readonly library: DagLibrary;
}

/**
 * Loads one document (`file` is resolved against `cwd`) for a command that needs a valid DAG, with the
 * library its embeds resolve against (see {@link libraryAround}). Any error-severity problem throws one SwitchyardError whose message lists
 * them, one a line; `nodes`, when given, also checks node IRIs and outputs.
 */
export async function loadValidDag(file: string, cwd: string, nodes?: NodeRegistry): Promise<LoadedDag> {
  const path = resolve(cwd, file);
  const shown = displayPath(path, cwd);
  const result = await loadDagFile(path);
  const library = await libraryAround(result.dag ? [result.dag] : [], [path], cwd);
  const problems = result.dag
    ? [...result.problems, ...analyse(result.dag, { library, file: path, ...(nodes ? { nodes } : {}) })]
    : [...result.problems];
  const errors = problems.filter((p) => p.severity === 'error');
  const unread = errors.find((p) => p.code === 'E_FILE_NOT_FOUND' || p.code === 'E_FILE_READ');
  if (unread) {
    throw new SwitchyardError(unread.code, unread.message.replaceAll(path, shown), { problems: [unread] });
  }
  if (!result.dag || errors.length > 0) {
    // Read errors name the path they were given; say it as the user would.
    const lines = errors.map((p) =>
      formatProblem({ ...atWrittenPosition(p, result), message: p.message.replaceAll(path, shown) }, cwd),
    );
    throw new SwitchyardError(
      errors[0]?.code ?? 'E_SCHEMA',
      `${shown} is not a valid DAG:\n${lines.join('\n')}`,
      { problems: errors },
    );
  }
  return { file: path, dag: result.dag, library };
}
