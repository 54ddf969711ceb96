/**
 * The runtime policy of a command: the file named by `--policy`, or `<dag-stem>.policy.json` beside the
 * document, read and checked against the documents it will time, so a misspelt override key is refused
 * instead of silently leaving a deadline at its default.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { Dag, DagLibrary } from '../document/model.ts';
import { isSwitchyardError, SwitchyardError } from '../errors.ts';
import { gateMemberProblems } from '../gates/members.ts';
import { documentsInScope, unknownPolicyKeys } from '../policy/keys.ts';
import { type PolicyFile, parsePolicyText, readPolicyFile } from '../policy/load.ts';
import type { RuntimePolicy } from '../policy/types.ts';
import { formatProblem } from './format.ts';
import type { CliIO } from './io.ts';
import { fileNotFound } from './messages.ts';
import { displayPath } from './output.ts';
import { DASH, isDash, readStdin, STDIN_NAME } from './stdio.ts';

/** Where a command reads a policy from: files against `cwd`, `-` from standard input. */
export type PolicyIO = Pick<CliIO, 'cwd' | 'stdin' | 'err'>;

/** A policy piped to `--policy -`, checked as `readPolicyFile` checks a file, named `<stdin>`. */
async function readPolicyStdin(io: PolicyIO): Promise<PolicyFile> {
  const text = await readStdin(io, 'a runtime policy', 'switchyard run dag.jsonld --policy - < p.json');
  return parsePolicyText(text, STDIN_NAME);
}

/** The document a policy is used with, and the library its embeds are looked up in. */
export interface PolicyTarget {
  readonly dag: Dag;
  readonly library?: DagLibrary;
}

/** A policy file as read for a command: the file, its path as the user sees it, and the command's IO. */
export interface ReadPolicy {
  readonly read: PolicyFile;
  readonly absolute: string;
  readonly shown: string;
  readonly io: PolicyIO;
}

/**
 * Reads the policy file at `path` (resolved against `where`, a folder or a command's IO; `-` is standard
 * input, for an IO) as `readPolicyFile` does, its messages naming the path as the user would see it.
 */
export async function readPolicyAt(path: string, where: PolicyIO | string): Promise<ReadPolicy> {
  // A folder alone (the viewer's callers) reads files only.
  const io: PolicyIO = typeof where === 'string' ? { cwd: where, err: () => {} } : where;
  const absolute = isDash(path) ? STDIN_NAME : resolve(io.cwd, path);
  const shown = displayPath(absolute, io.cwd);
  try {
    const read = isDash(path) ? await readPolicyStdin(io) : await readPolicyFile(absolute);
    return { read, absolute, shown, io };
  } catch (error) {
    if (!isSwitchyardError(error)) throw error;
    // A missing file reads as every missing file a command names does.
    const message =
      error.code === 'E_FILE_NOT_FOUND'
        ? fileNotFound(shown, typeof where === 'string' ? undefined : 'given to --policy').message
        : error.message.replaceAll(absolute, shown);
    throw new SwitchyardError(error.code, message, { cause: error, problems: error.problems });
  }
}

/**
 * Loads the policy file at `path` (as {@link readPolicyAt}) for `target`: every override key naming no
 * placement or node of the document (and of those it embeds) is an `E_POLICY_UNKNOWN_KEY` error at its
 * line and column, with a "did you mean" when a name is close; a placement whose gate the policy cannot
 * tell (`E_GATE_OVERLAP`) is an error there too, and a gate member naming nothing a
 * `W_GATE_UNKNOWN_MEMBER` warning on `io.err`.
 */
export async function loadPolicyFor(
  path: string,
  where: PolicyIO | string,
  target: PolicyTarget,
): Promise<RuntimePolicy> {
  const { read, absolute, shown, io } = await readPolicyAt(path, where);
  const { cwd } = io;
  const dags = documentsInScope(target.dag, target.library);
  const source = { file: absolute, locate: read.locate };
  const gates = gateMemberProblems(read.input, dags, source);
  const problems = [
    ...unknownPolicyKeys(read.input, dags, source),
    ...gates.filter((p) => p.severity === 'error'),
  ];
  const first = problems[0];
  if (first !== undefined) {
    // One problem is the whole message; several print one a line with a summary (see main.ts).
    const message =
      problems.length === 1
        ? formatProblem(first, cwd)
        : first.code === 'E_POLICY_UNKNOWN_KEY'
          ? `${shown}: ${problems.length} override keys name nothing in ${target.dag.id}`
          : `${shown}: ${problems.length} problems with ${target.dag.id}`;
    throw new SwitchyardError(first.code, message, { problems });
  }
  // A gate member naming nothing here may name a placement of another document the dispatcher runs.
  for (const warning of gates) if (warning.severity === 'warning') io.err(formatProblem(warning, cwd));
  return read.policy;
}

/**
 * The policy of a run of `dagFile`: `option` (a path, or `-`) when given, else `<dag-stem>.policy.json`
 * beside the document when it exists, else none (a document read from standard input has nothing beside
 * it); `from` is the path as shown to the user.
 */
export async function policyFor(
  dagFile: string,
  option: string | undefined,
  io: PolicyIO,
  target: PolicyTarget,
): Promise<{ policy: RuntimePolicy | undefined; from: string | undefined }> {
  if (isDash(option)) return { policy: await loadPolicyFor(DASH, io, target), from: STDIN_NAME };
  const path =
    option !== undefined
      ? resolve(io.cwd, option)
      : join(dirname(dagFile), `${basename(dagFile, extname(dagFile))}.policy.json`);
  if (option === undefined && (dagFile === STDIN_NAME || !existsSync(path))) {
    return { policy: undefined, from: undefined };
  }
  return { policy: await loadPolicyFor(path, io, target), from: displayPath(path, io.cwd) };
}
