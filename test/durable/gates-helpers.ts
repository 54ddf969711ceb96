/**
 * A durable run through a gate that a 429 closes, on virtual clocks: the first "process" dies (its store
 * freezes) once the closing is recorded, and a second process resumes the run at a chosen wall time.
 */
import { dag } from '../../src/document/builder.ts';
import type { Dag } from '../../src/document/model.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import type { VirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import type { RunResult } from '../../src/runtime/run.ts';
import type { RunStore, StoreWrite } from '../../src/store/types.ts';
import { httpError } from '../runtime/helpers.ts';
import { never, processClock, WALL_START } from './helpers.ts';

/** `call` (the gated placement) retries itself on a retryable failure (budget `tries`, 3), else done. */
export const GATED: Dag = dag('urn:t:gated', { name: 'gated', version: '1' })
  .budget('tries', 3)
  .entry('call')
  .task('call', 'urn:t:call')
  .route('ok', 'done')
  .retry('retry', 'call', { budget: 'tries', exhausted: 'failed' })
  .terminal('done', 'completed')
  .terminal('failed', 'failed')
  .build();

/** How long one call takes, virtual ms, unless the item's `ms` says otherwise. */
export const CALL_MS = 100;
/** The Retry-After the first call of a `limited` item answers with, seconds. */
export const RETRY_AFTER_S = 60;

/** A policy with gate `api` over `call`, as `gate` says; a back-off shorter than the Retry-After. */
export function gatedPolicy(gate: Record<string, unknown>): PolicyInput {
  return {
    defaults: {
      backoff: { strategy: 'constant', baseMs: 1000, capMs: 1000 },
      jitter: 'none',
      retryAfter: { honour: true, capMs: 600_000 },
    },
    gates: { api: { placements: ['call'], ...gate } },
  };
}

/** One execution of `call`: which process, which item, the wall time it started. */
export interface Call {
  readonly process: number;
  readonly item: string;
  readonly wall: number;
}

/**
 * The node of `call`: takes {@link CALL_MS} (or the item's `ms`), and answers a `limited` item's first call with a 429 and a
 * Retry-After of {@link RETRY_AFTER_S} seconds. A dead process's node does nothing.
 */
function callNode(process: number, clock: VirtualClock, dead: () => boolean, calls: Call[]): NodeDefinition {
  return defineNode({
    id: 'urn:t:call',
    outputs: ['ok'],
    run: async (item, ctx) => {
      if (dead()) return never();
      calls.push({ process, item: item.id, wall: clock.wallNow() });
      await clock.sleep(typeof item.data.ms === 'number' ? item.data.ms : CALL_MS, ctx.signal);
      if (dead()) return never();
      if (item.data.limited === true && ctx.attempts('tries') === 0) {
        throw httpError(429, { 'retry-after': String(RETRY_AFTER_S) });
      }
      return 'ok';
    },
  });
}

/** True when a batch holds a checkpoint of an item waiting (the 429's item in its retry wait). */
function holdsWait(batch: readonly StoreWrite[]): boolean {
  return batch.some((w) => w.kind === 'checkpoint' && w.checkpoint.status === 'waiting');
}

/**
 * `inner` as a process sees it that dies right after the commit holding the first waiting checkpoint:
 * later writes never settle and change nothing. Reads go through.
 */
function dyingStore(inner: RunStore): { store: RunStore; died: Promise<void>; dead: () => boolean } {
  let dead = false;
  let die: () => void = () => undefined;
  const died = new Promise<void>((resolve) => {
    die = resolve;
  });
  const hang = (): Promise<never> => new Promise<never>(() => undefined);
  const store = new Proxy(inner, {
    get(target, key, receiver) {
      if (key === 'commit') {
        return async (batch: readonly StoreWrite[]) => {
          if (dead) return hang();
          await target.commit(batch);
          if (holdsWait(batch)) {
            dead = true;
            die();
          }
        };
      }
      if (key === 'renewLease' || key === 'releaseLease' || key === 'acquireLease') {
        const method = target[key] as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) => (dead ? hang() : method.apply(target, args));
      }
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store, died, dead: () => dead };
}

/** What a run through a crash left. */
export interface Crashed {
  readonly calls: Call[];
  /** The wall time process 1 died at. */
  readonly diedAt: number;
  /** The wall time process 2 resumed at. */
  readonly resumedAt: number;
  /** Process 2's result and events. */
  readonly result: RunResult;
  readonly events: RunEvent[];
}

/**
 * Copies everything `from` holds of run `runId` but its lease into `to`, with the writes a recorder makes
 * (the events as one page).
 */
export async function copyRun(from: RunStore, to: RunStore, runId: string): Promise<void> {
  const run = await from.getRun(runId);
  if (run === undefined) throw new Error(`no run ${runId} to copy`);
  await to.commit([
    { kind: 'run', run },
    ...(await from.listCheckpoints(runId)).map(
      (checkpoint): StoreWrite => ({ kind: 'checkpoint', checkpoint }),
    ),
    ...(await from.listJournal(runId)).map((entry): StoreWrite => ({ kind: 'journal', entry })),
    { kind: 'events', runId, events: await from.readEvents(runId) },
  ]);
}

/**
 * Runs `items` through {@link GATED} with `policy` in process 1 until it dies, then resumes the run in
 * process 2 at wall time `resumeAt(diedAt)`. With `firstStore`, process 1 records into that store, and its
 * records are copied into `store` (see {@link copyRun}) for process 2: a store whose commits take real I/O
 * lets an auto virtual clock jump while they are on their way, so process 1 could not die on time there.
 */
export async function crashAndResume(
  store: RunStore,
  runId: string,
  policy: PolicyInput,
  items: readonly Record<string, unknown>[],
  resumeAt: (diedAt: number) => number,
  firstStore: RunStore = store,
): Promise<Crashed> {
  const calls: Call[] = [];
  const clock1 = processClock(WALL_START);
  const dying = dyingStore(firstStore);
  const first = createDispatcher({
    nodes: [callNode(1, clock1, dying.dead, calls)],
    clock: clock1,
    policy,
    store: dying.store,
  });
  const run = first.run(GATED, {}, { items: structuredClone([...items]), runId });
  void run.then(
    () => undefined,
    () => undefined,
  );
  await Promise.race([
    dying.died,
    run.then(() => {
      throw new Error('the first process ended its run before it died');
    }),
  ]);
  const diedAt = clock1.wallNow();
  if (firstStore !== store) await copyRun(firstStore, store, runId);
  const resumedAt = resumeAt(diedAt);
  const clock2 = processClock(resumedAt);
  const second = createDispatcher({
    nodes: [callNode(2, clock2, () => false, calls)],
    clock: clock2,
    policy,
    store,
  });
  const events: RunEvent[] = [];
  const result = await second.resume(runId, { onEvent: (e) => events.push(e) });
  return { calls, diedAt, resumedAt, result, events };
}
