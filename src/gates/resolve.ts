/**
 * Gates as a policy writes them, made complete (defaults filled, checked beyond what the schema can say),
 * and the gate each placement of a document passes through.
 */
import { SwitchyardError } from '../errors.ts';
import type { CompiledPlacement } from '../graph/compile.ts';
import { compileKeys, gatePolicyProblems } from './check.ts';
import type { GatePolicy, GatePolicyInput, GateRef } from './types.ts';

/** Statuses that close a gate unless its policy says otherwise. */
export const DEFAULT_CLOSE_ON = Object.freeze({
  statuses: Object.freeze([429]),
  statusesWithHint: Object.freeze([503]),
});

/**
 * Every gate of `input` with its defaults, in a null-prototype map. Throws the first problem
 * {@link gatePolicyProblems} finds: `E_GATE_OVERLAP` when a placement or node is listed by two gates (an
 * execution passes through one gate), `E_GATE_KEYS` when a gate's `keys` is not a regular expression,
 * `E_GATE_RATE` when a rate has no finite pace.
 */
export function resolveGates(
  input: Readonly<Record<string, GatePolicyInput>> | undefined,
): Record<string, GatePolicy> {
  const problems = gatePolicyProblems(input);
  const first = problems[0];
  if (first !== undefined) throw new SwitchyardError(first.code, first.message, { problems });
  const gates: Record<string, GatePolicy> = Object.create(null);
  for (const [name, gate] of Object.entries(input ?? {})) {
    gates[name] = {
      name,
      placements: [...(gate.placements ?? [])],
      nodes: [...(gate.nodes ?? [])],
      concurrency: gate.concurrency,
      rate:
        gate.rate === undefined
          ? undefined
          : { limit: gate.rate.limit, periodMs: gate.rate.periodMs ?? 1000, burst: gate.rate.burst ?? 1 },
      pauseOnRetryAfter: gate.pauseOnRetryAfter ?? true,
      maxClosedMs: gate.maxClosedMs,
      closeOn: {
        statuses: [...(gate.closeOn?.statuses ?? DEFAULT_CLOSE_ON.statuses)],
        statusesWithHint: [...(gate.closeOn?.statusesWithHint ?? DEFAULT_CLOSE_ON.statusesWithHint)],
      },
      keys: gate.keys,
    };
  }
  return gates;
}

const patterns = new Map<string, RegExp>();

/** The whole-match regular expression of a gate's `keys`; `E_GATE_KEYS` when it does not compile. */
export function keyPattern(gate: string, keys: string): RegExp {
  let found = patterns.get(keys);
  if (found === undefined) {
    const compiled = compileKeys(gate, keys);
    if (typeof compiled === 'string') throw new SwitchyardError('E_GATE_KEYS', compiled);
    found = compiled;
    patterns.set(keys, found);
  }
  return found;
}

/**
 * The gate the executions of placement `at` (of document `dagId`, placing node `nodeIri`) pass through:
 * the gate listing `<dagId>#<key>` or `<key>`, else the one listing the node. `E_GATE_OVERLAP` when the
 * placement is listed by one gate and its node by another, or by two gates (once bare, once with its IRI).
 */
export function gateOfPlacement(
  gates: Readonly<Record<string, GatePolicy>>,
  dagId: string,
  at: CompiledPlacement,
  nodeIri: string | undefined,
): GatePolicy | undefined {
  let byPlacement: GatePolicy | undefined;
  let byNode: GatePolicy | undefined;
  for (const name in gates) {
    const gate = gates[name] as GatePolicy;
    if (gate.placements.includes(`${dagId}#${at.key}`) || gate.placements.includes(at.key)) {
      if (byPlacement !== undefined) {
        throw new SwitchyardError(
          'E_GATE_OVERLAP',
          `placement '${at.key}' of ${dagId} is listed by gates '${byPlacement.name}' and '${name}' (one as '${at.key}', the other as '${dagId}#${at.key}'); an execution passes through one gate: list it under one of them`,
        );
      }
      byPlacement = gate;
    }
    if (nodeIri !== undefined && gate.nodes.includes(nodeIri)) byNode = gate;
  }
  if (byPlacement !== undefined && byNode !== undefined && byPlacement !== byNode) {
    throw new SwitchyardError(
      'E_GATE_OVERLAP',
      `placement '${at.key}' of ${dagId} is listed by gate '${byPlacement.name}' and its node ${nodeIri} by gate '${byNode.name}'; an execution passes through one gate: list one of them only`,
    );
  }
  return byPlacement ?? byNode;
}

/**
 * The key an execution passes: the gate's own name, or `<gate>:<key>` for the finer `key` a node names.
 * `E_GATE_KEY` when the gate declares no `keys`, or `key` does not match them.
 */
export function gateRef(gate: GatePolicy, key: string | undefined): GateRef {
  if (key === undefined) return { gate, key: gate.name };
  if (gate.keys === undefined) {
    throw new SwitchyardError(
      'E_GATE_KEY',
      `a node named the key ${JSON.stringify(key)} of gate '${gate.name}', which declares no keys; add "keys": "<regular expression>" to the gate in the policy, or name no key`,
    );
  }
  if (typeof key !== 'string' || !keyPattern(gate.name, gate.keys).test(key)) {
    throw new SwitchyardError(
      'E_GATE_KEY',
      `a node named the key ${JSON.stringify(key)} of gate '${gate.name}', which does not match its keys /${gate.keys}/; name a key that matches, or widen the pattern in the policy`,
    );
  }
  return { gate, key: `${gate.name}:${key}` };
}
