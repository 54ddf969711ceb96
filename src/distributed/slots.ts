/**
 * A task placement's concurrency across workers, and a scatter's (its children in flight). A `concurrency`
 * the policy writes bounds the items of one run executing a placement at once, whichever worker carries
 * them: each execution holds a slot, a member of a sorted set per run and placement scored by the time
 * (Redis's clock) its lease ends. A slot is given back when the execution ends; the slot of a worker that
 * died frees itself when its lease ends. An item that finds every slot taken waits on the queue as a
 * delayed job and tries again.
 *
 * The built-in default (16) bounds one process; a distributed run leaves it to each worker's own
 * `concurrency`, so that adding workers adds capacity unless the policy asks for a limit.
 */
import type { Redis } from 'ioredis';
import type { CompiledPlacement } from '../graph/compile.ts';
import { steadyDelay } from '../policy/backoff.ts';
import { writtenConcurrency } from '../policy/resolve.ts';
import type { RuntimePolicy } from '../policy/types.ts';
import type { ItemState } from '../runtime/item-state.ts';
import type { Prepared } from '../runtime/prepare.ts';
import { ownValue } from '../runtime/record.ts';
import { entryTag, type RunKeys } from './keys.ts';
import { evalScript } from './scripts.ts';

/**
 * Takes slot ARGV[1] of set KEYS[1] for ARGV[3] ms when fewer than ARGV[2] are held (leases that ended are
 * dropped first); a holder that has the slot already (its job run again) keeps it. Answers 1 when held.
 */
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + lease, ARGV[1])
  redis.call('PEXPIRE', KEYS[1], lease)
  return 1
end
return 0
`;

/** How long a slot is held past the placement's deadline before it frees itself; the lease with no deadline. */
const LEASE_MARGIN_MS = 30_000;
const LEASE_WITHOUT_DEADLINE_MS = 10 * 60_000;

/** The wait of an item that found every slot taken: 25 ms, doubled on each try up to 1 s. */
const QUEUE_BACKOFF = Object.freeze({ strategy: 'exponential', baseMs: 25, factor: 2, capMs: 1000 } as const);

/** A slot an execution takes: the set, the holder, the limit and the lease. */
export interface Slot {
  readonly key: string;
  readonly holder: string;
  readonly limit: number;
  readonly leaseMs: number;
}

/**
 * The slot an execution of task placement `at` by `state` needs, or undefined when the policy writes no
 * concurrency for the placement (or a batch node's `maxBatch` bounds it instead, as in one process).
 */
export function slotOf(
  policy: RuntimePolicy,
  prep: Prepared,
  at: CompiledPlacement,
  keys: RunKeys,
  state: ItemState,
): Slot | undefined {
  if (at.placement.kind !== 'task' || prep.nodes[at.index]?.batch !== undefined) return undefined;
  // The item, the entries it is inside and the visit it is about to make: one holder per execution, the same
  // for a job run again. Worked out only for a placement with a limit: most have none.
  const holder = () => `${state.id}@${(ownValue(state.visits, at.key) ?? 0) + 1}${entryTag(state.frames)}`;
  return limitedSlot(policy, prep, at, keys, holder, prep.timings[at.index]?.deadlineMs);
}

/**
 * The slot a scatter child of `at` needs while it runs, when the policy writes a concurrency for the
 * scatter: as in one process, the limit bounds the children in flight of every execution of the scatter in
 * the run. A node body's child holds it while the node runs (the scatter's deadline bounds its lease); a
 * sub-DAG's child from its first job until it ends, each of its jobs taking it again, which renews the
 * lease. `holder` names the child and its entry (see `entryTag`), called only when the scatter has a limit.
 */
export function childSlotOf(
  policy: RuntimePolicy,
  prep: Prepared,
  at: CompiledPlacement,
  keys: RunKeys,
  holder: () => string,
  body: 'node' | 'dag',
): Slot | undefined {
  if (at.placement.kind !== 'scatter') return undefined;
  const deadline = body === 'node' ? prep.timings[at.index]?.deadlineMs : undefined;
  return limitedSlot(policy, prep, at, keys, holder, deadline);
}

/**
 * A slot of placement `at` for `holder` when the policy writes a finite concurrency for it, leased for the
 * execution's deadline plus a margin (or {@link LEASE_WITHOUT_DEADLINE_MS} without one). `holder` is called
 * only then.
 */
function limitedSlot(
  policy: RuntimePolicy,
  prep: Prepared,
  at: CompiledPlacement,
  keys: RunKeys,
  holder: () => string,
  deadlineMs: number | undefined,
): Slot | undefined {
  const limit = limitsOf(policy, prep)[at.index];
  if (limit === undefined || !Number.isFinite(limit)) return undefined;
  return {
    key: `${keys.base}:slots:${prep.compiled.dag.id}#${at.key}`,
    holder: holder(),
    limit: Math.max(1, limit),
    leaseMs: deadlineMs === undefined ? LEASE_WITHOUT_DEADLINE_MS : deadlineMs + LEASE_MARGIN_MS,
  };
}

const limits = new WeakMap<Prepared, readonly (number | undefined)[]>();

/** The written concurrency of each placement of a prepared document (by index), worked out once. */
function limitsOf(policy: RuntimePolicy, prep: Prepared): readonly (number | undefined)[] {
  let found = limits.get(prep);
  if (found === undefined) {
    const dagId = prep.compiled.dag.id;
    found = prep.compiled.placements.map((p, i) =>
      writtenConcurrency(policy, dagId, p.key, prep.nodeIris[i]),
    );
    limits.set(prep, found);
  }
  return found;
}

/** Takes `slot`; false when the placement's every slot is held. */
export async function takeSlot(redis: Redis, slot: Slot): Promise<boolean> {
  const taken = await evalScript(redis, TAKE, 1, slot.key, slot.holder, slot.limit, slot.leaseMs);
  return Number(taken) === 1;
}

/** Gives `slot` back. */
export async function releaseSlot(redis: Redis, slot: Slot): Promise<void> {
  await redis.zrem(slot.key, slot.holder);
}

/** The wait before try number `times` (from 1) of an item that found every slot taken. */
export function queueDelay(times: number): number {
  return steadyDelay(times, QUEUE_BACKOFF);
}
