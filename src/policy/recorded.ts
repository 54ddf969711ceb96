/**
 * A resolved policy read back from its JSON (a durable run's record, a distributed run's spec) and resolved
 * again, so that a resumed or distributed run keeps the policy it was started with.
 */
import { resolvePolicy } from './resolve.ts';
import type { PolicyInput, RuntimePolicy } from './types.ts';

/**
 * Resolves the JSON of a resolved policy. Its gates carry their own `name`, which a policy as written
 * leaves to the gate's key in `gates` (and refuses as a field): it is dropped before the policy is checked.
 * Throws `E_POLICY` as {@link resolvePolicy} does for anything else that is not a policy.
 */
export function resolveRecordedPolicy(value: unknown): RuntimePolicy {
  if (typeof value !== 'object' || value === null) return resolvePolicy(value as PolicyInput);
  const gates = (value as { gates?: unknown }).gates;
  if (typeof gates !== 'object' || gates === null) return resolvePolicy(value as PolicyInput);
  const written: Record<string, unknown> = {};
  for (const [name, gate] of Object.entries(gates)) {
    if (typeof gate === 'object' && gate !== null && (gate as { name?: unknown }).name === name) {
      const { name: _named, ...rest } = gate as Record<string, unknown>;
      written[name] = rest;
    } else written[name] = gate;
  }
  return resolvePolicy({ ...(value as PolicyInput), gates: written } as PolicyInput);
}
