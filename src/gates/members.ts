/**
 * The members of a policy's gates checked against the documents it is used with. A member naming nothing
 * is a warning, not an error: one policy's gates are shared by every run of a dispatcher, so a gate may list
 * placements of documents that are not loaded now; but a misspelt member silently leaves its executions
 * ungated, as does a member naming only placements that pass no gate (an embed, a phase). A placement
 * listed by one gate whose node another gate lists is an error, as when the document is prepared for a
 * run: an execution passes through one gate.
 */
import type { Dag } from '../document/model.ts';
import { type Problem, problem } from '../errors.ts';
import { closest, escapePointer, type Names, namesOf } from '../policy/keys.ts';
import type { ProblemSource } from '../policy/schema.ts';
import type { GatePolicyInput } from './types.ts';

/** Past this many unknown members, no more "did you mean" is searched for (a guess scans every name). */
const MAX_SUGGESTIONS = 20;

function unknownPlacement(gate: string, member: string, names: Names, suggest: boolean): string | undefined {
  if (names.keys.has(member) || names.qualified.has(member)) return undefined;
  const near = suggest ? closest(member, [...names.keys, ...names.qualified]) : undefined;
  const fix =
    near === undefined ? 'name a placement key or <dag IRI>#<key>, or remove it' : `did you mean '${near}'?`;
  return `gate '${gate}' lists placement '${member}', which names no placement of ${names.scope}, so no execution passes the gate through it — ${fix}`;
}

function unknownNode(gate: string, member: string, names: Names, suggest: boolean): string | undefined {
  if (names.nodes.has(member)) return undefined;
  const near = suggest ? closest(member, names.nodes) : undefined;
  const fix =
    near === undefined ? 'name the IRI of a node placed there, or remove it' : `did you mean '${near}'?`;
  return `gate '${gate}' lists node '${member}', which is placed nowhere in ${names.scope}, so no execution passes the gate through it — ${fix}`;
}

/** True when the executions of `placement` pass a gate: tasks and node-bodied scatters (see prepare.ts). */
function passesGates(placement: Dag['placements'][number]): boolean {
  return placement.kind === 'task' || (placement.kind === 'scatter' && placement.node !== undefined);
}

/** The placement keys, `<dag IRI>#<key>` names and node IRIs of `dags` whose executions pass gates. */
function gatedNames(dags: readonly Dag[]): Set<string> {
  const names = new Set<string>();
  for (const dag of dags) {
    for (const p of dag.placements) {
      if (!passesGates(p)) continue;
      names.add(p.key);
      names.add(`${dag.id}#${p.key}`);
      if ('node' in p && p.node !== undefined) names.add(`node ${p.node}`);
    }
  }
  return names;
}

const UNGATED_FIX =
  'only task placements and scatters with a node body pass gates: list those whose calls the gate should limit, or remove it';

/**
 * The problems of the gates of `policy` (as written, so that `__proto__` members are seen too) against
 * `dags` (the documents in scope, see `documentsInScope`): `W_GATE_UNKNOWN_MEMBER` for each placement key,
 * `<dag IRI>#<key>` or node IRI that names nothing in them, `W_GATE_UNGATED_MEMBER` for one that names only
 * placements whose executions pass no gate (phases, embeds, gathers, terminals, scatters over a document), and `E_GATE_OVERLAP` for each placement listed
 * by one gate whose node another gate lists, or by two gates (once bare, once as `<dag IRI>#<key>`), which
 * `gateOfPlacement` would refuse when the document is prepared. Pointers are into the policy, at the
 * member; `source` adds the file, line and column; `scope` says which documents `dags` are in messages.
 * @example
 * const problems = gateMemberProblems(policyInput, documentsInScope(dag, library), { file, locate });
 */
export function gateMemberProblems(
  policy: { readonly gates?: Readonly<Record<string, GatePolicyInput>> },
  dags: readonly Dag[],
  source: ProblemSource = {},
  scope?: string,
): Problem[] {
  const problems: Problem[] = [];
  const names = namesOf(dags, scope);
  const at = (pointer: string, placement?: string) => {
    const position = source.locate?.(pointer);
    return {
      pointer,
      ...(placement === undefined ? {} : { placement }),
      ...(source.file === undefined ? {} : { file: source.file }),
      ...(position === undefined ? {} : { line: position.line, column: position.column }),
    };
  };
  // Where each member is written, by kind: the first gate to list it (a second is E_GATE_OVERLAP already).
  const placementAt = new Map<string, { gate: string; pointer: string }>();
  const nodeOf = new Map<string, string>();
  let unknown = 0;
  const gated = gatedNames(dags);
  // The kinds of the placements a member names, for saying why none of them passes a gate.
  const kindsOf = (member: string): string => {
    const kinds = new Set<string>();
    for (const dag of dags) {
      for (const p of dag.placements) {
        if (p.key === member || `${dag.id}#${p.key}` === member) {
          kinds.add(
            p.kind === 'scatter'
              ? 'a scatter over a document'
              : `${p.kind === 'embed' ? 'an' : 'a'} ${p.kind} placement`,
          );
        }
      }
    }
    return [...kinds].sort().join(', ');
  };
  for (const [gate, written] of Object.entries(policy.gates ?? {})) {
    const base = `/gates/${escapePointer(gate)}`;
    (written.placements ?? []).forEach((member, index) => {
      const pointer = `${base}/placements/${index}`;
      if (!placementAt.has(member)) placementAt.set(member, { gate, pointer });
      const message = unknownPlacement(gate, member, names, unknown < MAX_SUGGESTIONS);
      if (message !== undefined) {
        unknown++;
        problems.push(problem('W_GATE_UNKNOWN_MEMBER', message, at(pointer)));
      } else if (!gated.has(member)) {
        const ungated = `gate '${gate}' lists placement '${member}', whose executions pass no gate (${kindsOf(member)}) — ${UNGATED_FIX}`;
        problems.push(problem('W_GATE_UNGATED_MEMBER', ungated, at(pointer)));
      }
    });
    (written.nodes ?? []).forEach((member, index) => {
      if (!nodeOf.has(member)) nodeOf.set(member, gate);
      const pointer = `${base}/nodes/${index}`;
      const message = unknownNode(gate, member, names, unknown < MAX_SUGGESTIONS);
      if (message !== undefined) {
        unknown++;
        problems.push(problem('W_GATE_UNKNOWN_MEMBER', message, at(pointer)));
      } else if (!gated.has(`node ${member}`)) {
        const ungated = `gate '${gate}' lists node '${member}', which is placed only as a phase, whose executions pass no gate — ${UNGATED_FIX}`;
        problems.push(problem('W_GATE_UNGATED_MEMBER', ungated, at(pointer)));
      }
    });
  }
  for (const dag of dags) {
    for (const placement of dag.placements) {
      const bare = placementAt.get(placement.key);
      const qualified = placementAt.get(`${dag.id}#${placement.key}`);
      if (bare !== undefined && qualified !== undefined && bare.gate !== qualified.gate) {
        problems.push(
          problem(
            'E_GATE_OVERLAP',
            `placement '${placement.key}' of ${dag.id} is listed by gates '${bare.gate}' and '${qualified.gate}' (one as '${placement.key}', the other as '${dag.id}#${placement.key}'); an execution passes through one gate: list it under one of them`,
            at(qualified.pointer, placement.key),
          ),
        );
        continue;
      }
      if (!passesGates(placement) || !('node' in placement) || placement.node === undefined) continue;
      const byNode = nodeOf.get(placement.node);
      const listed = qualified ?? bare;
      if (byNode === undefined || listed === undefined || listed.gate === byNode) continue;
      problems.push(
        problem(
          'E_GATE_OVERLAP',
          `placement '${placement.key}' of ${dag.id} is listed by gate '${listed.gate}' and its node ${placement.node} by gate '${byNode}'; an execution passes through one gate: list one of them only`,
          at(listed.pointer, placement.key),
        ),
      );
    }
  }
  return problems;
}
