import { dirname } from 'node:path';
import { loadDagFolder } from '../document/load.ts';
import type { Dag, DagLibrary } from '../document/model.ts';
import { SwitchyardError } from '../errors.ts';
import { analyse } from '../graph/analyse.ts';
import { atWrittenPosition, formatProblem } from './format.ts';

/** A document that loaded and passed analysis, with the library of its sibling documents. */
export interface LoadedDag {
  readonly file: string;
  readonly dag: Dag;
  readonly library: DagLibrary;
}

/**
 * Loads one document for a command that needs a valid DAG; its folder's other documents form the library
 * (for embeds). Any error-severity problem throws one SwitchyardError whose message lists them, one a line.
 */
export async function loadValidDag(file: string, cwd: string): Promise<LoadedDag> {
  const { results } = await loadDagFolder([file]);
  const result = results.get(file) ?? [...results.values()][0];
  if (!result) {
    throw new SwitchyardError('E_FILE_NOT_FOUND', `no DAG document at ${file} — name a .jsonld file`);
  }
  const siblings = await loadDagFolder([dirname(file)]);
  const library: DagLibrary = {
    get: (id) => (result.dag?.id === id ? result.dag : siblings.library.get(id)),
  };
  const problems = result.dag
    ? [...result.problems, ...analyse(result.dag, { library, file })]
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
