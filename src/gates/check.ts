/**
 * What is wrong with a policy's gates beyond what the schema can say, as problems with their pointers into
 * the policy: a member listed by two gates, `keys` that are not a regular expression, a rate whose pace is
 * not a number of milliseconds. `resolveGates` refuses the same; a policy file reports them at their line.
 */
import { pointerSegment } from '../document/json.ts';
import { type Problem, problem } from '../errors.ts';
import type { ProblemSource } from '../policy/schema.ts';
import type { GatePolicyInput } from './types.ts';

/** The whole-match regular expression of a gate's `keys`, or the message saying why it is none. */
export function compileKeys(gate: string, keys: string): RegExp | string {
  try {
    return new RegExp(`^(?:${keys})$`, 'u');
  } catch (error) {
    return `gate '${gate}' has keys ${JSON.stringify(keys)}, which is not a regular expression (${(error as Error).message}); write one such as '^gpt-[a-z0-9.-]+$'`;
  }
}

/**
 * Why a gate's rate gives no pace one can wait for (undefined when it does): `periodMs / limit`, the time
 * between two starts, must be a finite number of milliseconds. Tiny limits over huge periods overflow it.
 */
function rateProblem(name: string, rate: GatePolicyInput['rate']): string | undefined {
  if (rate === undefined) return undefined;
  const periodMs = rate.periodMs ?? 1000;
  const interval = periodMs / rate.limit;
  if (Number.isFinite(interval) && interval >= 0) return undefined;
  return `gate '${name}' has a rate of ${rate.limit} per ${periodMs} ms, one start every ${interval} ms, which no clock can wait for; give a limit and periodMs whose quotient is a finite number of milliseconds`;
}

/**
 * Every problem of the gates of a policy as written (`gates` after the schema accepted it), in the order
 * they are written: `E_GATE_OVERLAP` for a placement or node listed by a second gate (an execution passes
 * through one gate), `E_GATE_KEYS` for `keys` that do not compile, `E_GATE_RATE` for a rate with no finite
 * pace. Pointers are into the policy; `source` adds the file, line and column.
 */
export function gatePolicyProblems(
  gates: Readonly<Record<string, GatePolicyInput>> | undefined,
  source: ProblemSource = {},
): Problem[] {
  const problems: Problem[] = [];
  const at = (pointer: string) => {
    const position = source.locate?.(pointer);
    return {
      pointer,
      ...(source.file === undefined ? {} : { file: source.file }),
      ...(position === undefined ? {} : { line: position.line, column: position.column }),
    };
  };
  // Keyed by kind and member in a Map, so that members named like Object.prototype's are as any other.
  const owner = new Map<string, string>();
  for (const [name, gate] of Object.entries(gates ?? {})) {
    const base = `/gates/${pointerSegment(name)}`;
    for (const [what, field, list] of [
      ['placement', 'placements', gate.placements ?? []],
      ['node', 'nodes', gate.nodes ?? []],
    ] as const) {
      list.forEach((member, index) => {
        const other = owner.get(`${what} ${member}`);
        if (other === undefined) {
          owner.set(`${what} ${member}`, name);
          return;
        }
        problems.push(
          problem(
            'E_GATE_OVERLAP',
            `${what} '${member}' is listed by gates '${other}' and '${name}'; an execution passes through one gate: list it under one of them`,
            at(`${base}/${field}/${index}`),
          ),
        );
      });
    }
    if (gate.keys !== undefined) {
      const keys = compileKeys(name, gate.keys);
      if (typeof keys === 'string') problems.push(problem('E_GATE_KEYS', keys, at(`${base}/keys`)));
    }
    const rate = rateProblem(name, gate.rate);
    if (rate !== undefined) problems.push(problem('E_GATE_RATE', rate, at(`${base}/rate`)));
  }
  return problems;
}
