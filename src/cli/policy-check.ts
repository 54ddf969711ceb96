/**
 * `validate --policy`: the policy file checked on its own (schema, gates) and against every document
 * checked with it, as one more report beside theirs.
 */
import { awaitDeadlineProblems } from '../awaits/check.ts';
import type { Dag, DagLibrary } from '../document/model.ts';
import { isSwitchyardError, type Problem } from '../errors.ts';
import { gateMemberProblems } from '../gates/members.ts';
import { documentsInScope, unknownPolicyKeys } from '../policy/keys.ts';
import type { FileReport } from './check.ts';
import { type PolicyIO, type ReadPolicy, readPolicyAt } from './policy-file.ts';

/** The verdict on the policy file of `validate --policy`. */
export interface PolicyReport extends FileReport {
  readonly kind: 'policy';
}

/** Every document a run of one of `dags` can reach, each once. */
function inScope(dags: Iterable<Dag>, library: DagLibrary): Dag[] {
  const seen = new Map<string, Dag>();
  for (const dag of dags) {
    for (const found of documentsInScope(dag, library)) if (!seen.has(found.id)) seen.set(found.id, found);
  }
  return [...seen.values()];
}

/**
 * The report on the policy at `path` used with the valid documents `dags` (those they embed are looked up
 * in `library`): its own problems (JSON, schema, `E_GATE_*`) when it does not load; else override keys
 * naming nothing in any of them (`E_POLICY_UNKNOWN_KEY`), gate members naming nothing
 * (`W_GATE_UNKNOWN_MEMBER`), placements in two gates (`E_GATE_OVERLAP`) and await placements the policy
 * gives no deadline (`E_AWAIT_NO_DEADLINE`). A file that is not there, or
 * cannot be read, is refused as for every command.
 */
export async function checkPolicyFile(
  path: string,
  io: PolicyIO,
  dags: Iterable<Dag>,
  library: DagLibrary,
): Promise<PolicyReport> {
  let read: ReadPolicy;
  try {
    read = await readPolicyAt(path, io);
  } catch (error) {
    if (!isSwitchyardError(error) || error.problems.length === 0) throw error;
    if (error.code === 'E_FILE_NOT_FOUND' || error.code === 'E_FILE_READ' || error.code === 'E_TOO_LARGE')
      throw error;
    const file = error.problems[0]?.file ?? path;
    return { kind: 'policy', file, valid: false, problems: error.problems };
  }
  const { absolute } = read;
  const documents = inScope(dags, library);
  const problems: Problem[] = [];
  if (documents.length > 0) {
    const source = { file: absolute, locate: read.read.locate };
    const scope = documents.length === 1 ? documents[0]?.id : 'the documents checked';
    problems.push(
      ...unknownPolicyKeys(read.read.input, documents, source, scope),
      ...gateMemberProblems(read.read.input, documents, source, scope),
      ...documents.flatMap((dag) => awaitDeadlineProblems(dag, read.read.policy, { source })),
    );
  }
  const valid = !problems.some((p) => p.severity === 'error');
  return { kind: 'policy', file: absolute, valid, problems };
}
