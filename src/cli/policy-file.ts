/**
 * The runtime policy of a command: the file named by `--policy`, or `<dag-stem>.policy.json` beside the
 * document, read and checked against the documents it will time, so a misspelt override key is refused
 * instead of silently leaving a deadline at its default.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { Dag, DagLibrary } from '../document/model.ts';
import { isSwitchyardError, SwitchyardError } from '../errors.ts';
import { documentsInScope, unknownPolicyKeys } from '../policy/keys.ts';
import { readPolicyFile } from '../policy/load.ts';
import type { RuntimePolicy } from '../policy/types.ts';
import { formatProblem } from './format.ts';
import { displayPath } from './output.ts';

/** The document a policy is used with, and the library its embeds are looked up in. */
export interface PolicyTarget {
  readonly dag: Dag;
  readonly library?: DagLibrary;
}

/**
 * Loads the policy file at `path` for `target`: its messages name the path as the user would see it, and
 * every override key naming no placement or node of the document (and of those it embeds) is an
 * `E_POLICY_UNKNOWN_KEY` error at its line and column, with a "did you mean" when a name is close.
 */
export async function loadPolicyFor(path: string, cwd: string, target: PolicyTarget): Promise<RuntimePolicy> {
  const absolute = resolve(cwd, path);
  const shown = displayPath(absolute, cwd);
  let read: Awaited<ReturnType<typeof readPolicyFile>>;
  try {
    read = await readPolicyFile(absolute);
  } catch (error) {
    if (!isSwitchyardError(error)) throw error;
    const message = error.message.replaceAll(absolute, shown);
    throw new SwitchyardError(error.code, message, { cause: error, problems: error.problems });
  }
  const problems = unknownPolicyKeys(read.input, documentsInScope(target.dag, target.library), {
    file: absolute,
    locate: read.locate,
  });
  if (problems.length > 0) {
    // One problem is the whole message; several print one a line with a summary (see main.ts).
    const message =
      problems.length === 1
        ? formatProblem(problems[0] as (typeof problems)[number], cwd)
        : `${shown}: ${problems.length} override keys name nothing in ${target.dag.id}`;
    throw new SwitchyardError('E_POLICY_UNKNOWN_KEY', message, { problems });
  }
  return read.policy;
}

/**
 * The policy of a run of `dagFile`: `option` (a path) when given, else `<dag-stem>.policy.json` beside the
 * document when it exists, else none; `from` is the path as shown to the user.
 */
export async function policyFor(
  dagFile: string,
  option: string | undefined,
  cwd: string,
  target: PolicyTarget,
): Promise<{ policy: RuntimePolicy | undefined; from: string | undefined }> {
  const path =
    option !== undefined
      ? resolve(cwd, option)
      : join(dirname(dagFile), `${basename(dagFile, extname(dagFile))}.policy.json`);
  if (option === undefined && !existsSync(path)) return { policy: undefined, from: undefined };
  return { policy: await loadPolicyFor(path, cwd, target), from: displayPath(path, cwd) };
}
