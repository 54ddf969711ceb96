import { loadDagFile } from '../document/load.ts';
import type { Dag, DagLibrary } from '../document/model.ts';
import { SwitchyardError } from '../errors.ts';
import { analyse } from '../graph/analyse.ts';
import type { NodeRegistry } from '../runtime/node.ts';
import { atWrittenPosition, formatProblem } from './format.ts';
import { libraryAround } from './library.ts';

/** A document that loaded and passed analysis, with the library of its sibling documents. */
export interface LoadedDag {
  readonly file: string;
  readonly dag: Dag;
  readonly library: DagLibrary;
}

/**
 * Loads one document for a command that needs a valid DAG, with the library its embeds resolve against
 * (see {@link libraryAround}). Any error-severity problem throws one SwitchyardError whose message lists
 * them, one a line; `nodes`, when given, also checks node IRIs and outputs.
 */
export async function loadValidDag(file: string, cwd: string, nodes?: NodeRegistry): Promise<LoadedDag> {
  const result = await loadDagFile(file);
  const library = await libraryAround(result.dag ? [result.dag] : [], [file], cwd);
  const problems = result.dag
    ? [...result.problems, ...analyse(result.dag, { library, file, ...(nodes ? { nodes } : {}) })]
    : [...result.problems];
  const errors = problems.filter((p) => p.severity === 'error');
  if (!result.dag || errors.length > 0) {
    const lines = errors.map((p) => formatProblem(atWrittenPosition(p, result), cwd));
    throw new SwitchyardError(
      errors[0]?.code ?? 'E_SCHEMA',
      `${file} is not a valid DAG:\n${lines.join('\n')}`,
      {
        problems: errors,
      },
    );
  }
  return { file, dag: result.dag, library };
}
