/**
 * Turns a policy as written into a complete {@link RuntimePolicy} (one merge over the defaults), and looks up
 * the timing of one placement.
 */
import { type Problem, SwitchyardError } from '../errors.ts';
import { resolveGates } from '../gates/resolve.ts';
import { DECORRELATED_DEFAULT_FACTOR } from './backoff.ts';
import { deepFreeze, defaultPolicy } from './defaults.ts';
import { validatePolicyInput } from './schema.ts';
import type { BackoffOptions, PolicyInput, RuntimePolicy, TimingOverride, TimingPolicy } from './types.ts';

/** A JSON policy may write `null` for "no deadline"; the typed input writes undefined. */
type Nullable<T> = { -readonly [K in keyof T]?: T[K] | null };

function own(value: object, key: string): boolean {
  return Object.hasOwn(value, key);
}

/** A copy of an object without its undefined fields, so that spreading it never erases a default. */
function defined(value: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

/** A copy of an override with `null` deadlines read as undefined and absent fields left absent. */
function normaliseOverride(input: TimingOverride): TimingOverride {
  const raw = input as Nullable<TimingOverride>;
  const out: Record<string, unknown> = {};
  for (const key of ['backoff', 'jitter', 'retryAfter', 'concurrency'] as const) {
    const value = raw[key];
    if (value !== undefined && value !== null) out[key] = typeof value === 'object' ? defined(value) : value;
  }
  if (own(raw, 'deadlineMs')) out.deadlineMs = raw.deadlineMs ?? undefined;
  return out as TimingOverride;
}

/** Field-by-field back-off merge; switching to `decorrelated` without a factor takes its own default of 3. */
function mergeBackoff(base: BackoffOptions, override: Partial<BackoffOptions> | undefined): BackoffOptions {
  const merged = { ...base, ...override };
  const switched = override?.strategy === 'decorrelated' && base.strategy !== 'decorrelated';
  return switched && override?.factor === undefined
    ? { ...merged, factor: DECORRELATED_DEFAULT_FACTOR }
    : merged;
}

/** Lays one override over a complete timing; `backoff` and `retryAfter` are merged field by field. */
function mergeTiming(base: TimingPolicy, override: TimingOverride | undefined): TimingPolicy {
  if (override === undefined) return base;
  return {
    deadlineMs: own(override, 'deadlineMs') ? (override.deadlineMs ?? undefined) : base.deadlineMs,
    backoff: mergeBackoff(base.backoff, override.backoff),
    jitter: override.jitter ?? base.jitter,
    retryAfter: { ...base.retryAfter, ...override.retryAfter },
    concurrency: override.concurrency ?? base.concurrency,
  };
}

/** Overrides by name, in a null-prototype object: a placement or node may be named `__proto__` or `toString`. */
function normaliseMap(
  map: Readonly<Record<string, TimingOverride>> | undefined,
): Record<string, TimingOverride> {
  const out: Record<string, TimingOverride> = Object.create(null);
  for (const [key, override] of Object.entries(map ?? {})) out[key] = normaliseOverride(override);
  return out;
}

/** The policies {@link resolvePolicy} made: only these skip validation when handed to a dispatcher. */
const resolved = new WeakSet<object>([defaultPolicy]);

/** The resolved policies whose input wrote `defaults.concurrency` (see {@link writtenConcurrency}). */
const defaultConcurrencyWritten = new WeakSet<object>();

/** One line naming every problem, each with its pointer. */
export function policyErrorMessage(problems: readonly Problem[], what = 'the runtime policy'): string {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  const list = problems
    .map((p) =>
      p.line === undefined || p.code === 'E_JSON_SYNTAX'
        ? p.message
        : `${p.message} (line ${p.line}, column ${p.column})`,
    )
    .join('; ');
  return `${what} has ${count}: ${list}`;
}

/**
 * Validates a policy as written and fills every missing field from {@link defaultPolicy}; the result is frozen.
 * Throws `SwitchyardError('E_POLICY')` listing every problem, each with its JSON pointer.
 *
 * @example
 * const policy = resolvePolicy({ defaults: { backoff: { baseMs: 5 } }, run: { deadlineMs: 60_000 } });
 * policy.defaults.backoff; // { strategy: 'exponential', baseMs: 5, factor: 2, capMs: 30000 }
 */
export function resolvePolicy(input?: PolicyInput | RuntimePolicy): RuntimePolicy {
  if (input === undefined) return defaultPolicy;
  if (isResolvedPolicy(input)) return input;
  const problems = validatePolicyInput(input);
  if (problems.length > 0) {
    throw new SwitchyardError('E_POLICY', policyErrorMessage(problems), { problems });
  }
  const run = (input.run ?? {}) as Nullable<RuntimePolicy['run']>;
  const policy: RuntimePolicy = deepFreeze({
    defaults: mergeTiming(defaultPolicy.defaults, input.defaults && normaliseOverride(input.defaults)),
    nodes: normaliseMap(input.nodes),
    placements: normaliseMap(input.placements),
    run: {
      deadlineMs: own(run, 'deadlineMs') ? (run.deadlineMs ?? undefined) : defaultPolicy.run.deadlineMs,
    },
    classification: { ...defaultPolicy.classification, ...input.classification },
    gates: resolveGates(input.gates),
  });
  resolved.add(policy);
  if (input.defaults?.concurrency != null) defaultConcurrencyWritten.add(policy);
  return policy;
}

/**
 * The concurrency a policy as written gives one placement, or undefined where only the built-in default of
 * {@link defaultPolicy} applies. Layers as in {@link timingFor}: defaults < `nodes[nodeIri]` <
 * `placements[key]` < `placements['<dagId>#<key>']`.
 *
 * @example
 * writtenConcurrency(resolvePolicy({ placements: { fetch: { concurrency: 4 } } }), 'urn:x', 'fetch'); // 4
 * writtenConcurrency(resolvePolicy({}), 'urn:x', 'fetch'); // undefined (the default 16 is not written)
 */
export function writtenConcurrency(
  policy: RuntimePolicy,
  dagId: string,
  placementKey: string,
  nodeIri?: string,
): number | undefined {
  const layer = (map: Readonly<Record<string, TimingOverride>>, key: string) =>
    own(map, key) ? map[key]?.concurrency : undefined;
  return (
    layer(policy.placements, `${dagId}#${placementKey}`) ??
    layer(policy.placements, placementKey) ??
    (nodeIri === undefined ? undefined : layer(policy.nodes, nodeIri)) ??
    (writesDefaultConcurrency(policy) ? policy.defaults.concurrency : undefined)
  );
}

/** True when the input of a resolved policy wrote `defaults.concurrency`, false when it is the built-in default. */
export function writesDefaultConcurrency(policy: RuntimePolicy): boolean {
  return defaultConcurrencyWritten.has(policy);
}

/** True for a policy that {@link resolvePolicy} returned (or the default policy), false for anything else. */
export function isResolvedPolicy(value: unknown): value is RuntimePolicy {
  return typeof value === 'object' && value !== null && resolved.has(value);
}

const timingCache = new WeakMap<RuntimePolicy, Map<string, TimingPolicy>>();

/**
 * The timing of one placement: defaults < `nodes[nodeIri]` < `placements[key]` < `placements['<dagId>#<key>']`,
 * `backoff` and `retryAfter` merged field by field. Cached per policy object, so it is cheap on the hot path.
 *
 * @example
 * timingFor(policy, 'urn:switchyard:dag:compose-validate', 'compose', 'urn:switchyard:node:compose').deadlineMs;
 */
export function timingFor(
  policy: RuntimePolicy,
  dagId: string,
  placementKey: string,
  nodeIri?: string,
): TimingPolicy {
  let cache = timingCache.get(policy);
  if (cache === undefined) {
    cache = new Map();
    timingCache.set(policy, cache);
  }
  const cacheKey = `${dagId}\u0000${placementKey}\u0000${nodeIri ?? ''}`;
  const cached = cache.get(cacheKey);
  if (cached !== undefined) return cached;
  // Own keys only: a placement named `toString` has no override unless the policy gives one.
  const override = (map: Readonly<Record<string, TimingOverride>>, key: string) =>
    own(map, key) ? map[key] : undefined;
  let timing = policy.defaults;
  if (nodeIri !== undefined) timing = mergeTiming(timing, override(policy.nodes, nodeIri));
  timing = mergeTiming(timing, override(policy.placements, placementKey));
  timing = mergeTiming(timing, override(policy.placements, `${dagId}#${placementKey}`));
  const frozen = deepFreeze(timing);
  cache.set(cacheKey, frozen);
  return frozen;
}
