import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Dag, DagLibrary } from '../document/model.ts';
import { SwitchyardError } from '../errors.ts';
import type { NodeRegistry } from '../runtime/node.ts';
import { checkDocuments } from './check.ts';
import { formatProblem } from './format.ts';
import type { CliIO } from './io.ts';
import { displayPath } from './output.ts';
import { isDash, readStdin, STDIN_NAME } from './stdio.ts';

/** The distinct codes of `problems`, at most five, for a one-line summary. */
function summary(problems: readonly { code: string }[]): string {
  const codes = [...new Set(problems.map((p) => p.code))];
  return codes.length > 5 ? `${codes.slice(0, 5).join(', ')}, …` : codes.join(', ');
}

/**
 * The text of a DAG document piped to a command given `-` (`E_INPUT` when nothing was piped).
 * @example
 * const text = await stdinDocument(io);
 */
export function stdinDocument(io: Pick<CliIO, 'stdin' | 'err'>): Promise<string> {
  return readStdin(io, 'a DAG document', 'switchyard validate - < dags/review.jsonld');
}

/** A document that loaded and passed analysis, with the library of its sibling documents. */
export interface LoadedDag {
  /** The document's absolute path, or `<stdin>` for one read from standard input. */
  readonly file: string;
  readonly dag: Dag;
  readonly library: DagLibrary;
}

/**
 * Loads one document (`file` is resolved against `cwd`; `-` reads standard input through `io`) for a
 * command that needs a valid DAG: the checks of `validate` ({@link checkDocuments}), with `nodes`, when
 * given, checking node IRIs and outputs too. Any error-severity problem throws one SwitchyardError: one
 * problem is its one line (`file:line:col error CODE …`), several are listed one a line under a line naming
 * their codes.
 */
export async function loadValidDag(
  file: string,
  io: Pick<CliIO, 'cwd' | 'stdin' | 'err'>,
  nodes?: NodeRegistry,
): Promise<LoadedDag> {
  const { cwd } = io;
  const stdin = isDash(file) ? await stdinDocument(io) : undefined;
  const path = stdin === undefined ? resolve(cwd, file) : STDIN_NAME;
  const shown = displayPath(path, cwd);
  if (stdin === undefined && (await stat(path).catch(() => undefined))?.isDirectory()) {
    throw new SwitchyardError(
      'E_FILE_READ',
      `${shown} is a folder — name one .jsonld document (validate and render take folders)`,
    );
  }
  const { reports, valid, library } = await checkDocuments(
    [stdin === undefined ? path : file],
    cwd,
    nodes,
    stdin,
  );
  const errors = (reports[0]?.problems ?? []).filter((p) => p.severity === 'error');
  const unread = errors.find((p) => p.code === 'E_FILE_NOT_FOUND' || p.code === 'E_FILE_READ');
  // Problems name the path they were given; say it as the user would.
  const said = (message: string) => message.replaceAll(path, shown);
  if (unread) throw new SwitchyardError(unread.code, said(unread.message), { problems: [unread] });
  const dag = valid.get(path);
  if (dag === undefined) {
    const lines = errors.map((p) => formatProblem({ ...p, message: said(p.message) }, cwd));
    // One problem is one line, with its place and code, as every refusal is.
    if (lines.length === 1) {
      throw new SwitchyardError(errors[0]?.code ?? 'E_SCHEMA', lines[0] as string, { problems: errors });
    }
    throw new SwitchyardError(
      errors[0]?.code ?? 'E_SCHEMA',
      // Every line names a code, the first one too: the codes found, then each problem on a line of its own.
      `${shown} is not a valid DAG (${summary(errors)}):\n${lines.join('\n')}`,
      {
        problems: errors,
      },
    );
  }
  return { file: path, dag, library };
}
