/**
 * The policy side of "every wait ends": an await placement's deadline is runtime policy (the `deadlineMs` its
 * timing resolves to), and a policy that gives an await none would let an unanswered item wait for ever. A
 * pure check, shared by `validate --policy` and the dispatcher's admission of a run.
 */
import type { Dag, DagLibrary } from '../document/model.ts';
import { type Problem, problem } from '../errors.ts';
import type { CompiledDag } from '../graph/compile.ts';
import { documentsInScope, escapePointer } from '../policy/keys.ts';
import { timingFor } from '../policy/resolve.ts';
import type { ProblemSource } from '../policy/schema.ts';
import type { RuntimePolicy } from '../policy/types.ts';

/** What {@link awaitDeadlineProblems} may use beyond the document and the policy. */
export interface AwaitDeadlineOptions {
  /** Documents embedded or scattered through: their awaits are checked too. */
  readonly library?: DagLibrary;
  /** The policy's file and positions, set on every problem (pointers are into the policy). */
  readonly source?: ProblemSource;
}

/** The override of the policy that names an await, as a pointer into the policy; undefined when none does. */
function overridePointer(policy: RuntimePolicy, dag: Dag, key: string): string | undefined {
  const names = [`${dag.id}#${key}`, key];
  const named = names.find((name) => Object.hasOwn(policy.placements, name));
  return named === undefined ? undefined : `/placements/${escapePointer(named)}`;
}

/**
 * `E_AWAIT_NO_DEADLINE` for every await placement of `dag` (and of the documents it runs, found in
 * `options.library`) whose timing under `policy` has no `deadlineMs` (see `timingFor`: defaults <
 * `placements[key]` < `placements['<dag IRI>#<key>']`). Each problem names the placement (`placement`, and
 * `dag` in its message when the await is in an embedded document); its pointer is the policy's override for
 * the placement when it writes one (a `deadlineMs` of `null` there is what removed the deadline).
 * @example
 * const problems = awaitDeadlineProblems(dag, resolvePolicy({ placements: { review: { deadlineMs: 86_400_000 } } }));
 * problems.length; // 0 when 'review' is the document's only await
 */
export function awaitDeadlineProblems(
  dag: Dag | CompiledDag,
  policy: RuntimePolicy,
  options: AwaitDeadlineOptions = {},
): Problem[] {
  const top = 'dag' in dag ? dag.dag : dag;
  const { source = {} } = options;
  const problems: Problem[] = [];
  for (const document of documentsInScope(top, options.library)) {
    for (const placement of document.placements) {
      if (placement.kind !== 'await') continue;
      if (timingFor(policy, document.id, placement.key).deadlineMs !== undefined) continue;
      const own = document.id === top.id;
      const name = own ? placement.key : `${document.id}#${placement.key}`;
      const where = own ? '' : ` of ${document.id}`;
      const pointer = overridePointer(policy, document, placement.key);
      const position = pointer === undefined ? undefined : source.locate?.(pointer);
      problems.push(
        problem(
          'E_AWAIT_NO_DEADLINE',
          `await placement '${placement.key}'${where} has no deadline: give it deadlineMs in the policy's placements (e.g. "placements": { "${name}": { "deadlineMs": 86400000 } }), so that an item nobody answers leaves on its 'deadline' route`,
          {
            placement: placement.key,
            ...(pointer === undefined ? {} : { pointer }),
            ...(source.file === undefined ? {} : { file: source.file }),
            ...(position === undefined ? {} : { line: position.line, column: position.column }),
          },
        ),
      );
    }
  }
  return problems;
}
