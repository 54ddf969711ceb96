import type { Dag } from '../document/model.ts';
import type { Clock, RuntimePolicy } from '../policy/types.ts';
import { newRunRecord } from '../runtime/durable-run.ts';
import type { ItemState } from '../runtime/item-state.ts';
import { ownValue } from '../runtime/record.ts';
import type { ItemCheckpoint, ItemEnding, ItemWait, RunStore, StoreWrite } from '../store/types.ts';
import type { EndingReport } from './report.ts';
import type { Ended } from './result.ts';

/** What the submitter records of a distributed run. */
export interface DistributedRecord {
  readonly store: RunStore;
  readonly runId: string;
  readonly dag: Dag;
  readonly documents: readonly Dag[];
  readonly policy: RuntimePolicy;
  readonly states: readonly ItemState[];
  readonly entrypoint: string;
  readonly deadlineMs: number | undefined;
}

/**
 * Records a distributed run in a run store as a local durable run is recorded: the run (documents, policy,
 * input, options), `running`, with each input item active at the entrypoint, in one transaction. No process
 * holds a lease on it: the workers write each job's events and each input item's ending (see `ledger.ts`), and the worker that ends the last item writes the status, so
 * `switchyard runs` lists it and `runs show` and `runs events` read it from any machine.
 */
export async function recordRun(record: DistributedRecord, clock: Clock): Promise<void> {
  const options = {
    entrypoint: record.entrypoint,
    items: record.states.length,
    files: {},
    ...(record.deadlineMs === undefined ? {} : { deadlineMs: record.deadlineMs }),
  };
  const run = await newRunRecord(
    {
      runId: record.runId,
      dag: record.dag,
      documents: record.documents,
      policy: record.policy,
      input: record.states.map((state) => state.data),
      options,
    },
    clock,
  );
  // Each input item's first checkpoint, at the entrypoint: `runs show` lists the items in input order, and
  // those not ended yet as they started. One transaction with the run, before any job is queued.
  const at = clock.wallNow();
  const position = { dag: record.dag.id, placement: record.entrypoint, visit: 1, frames: [] };
  await record.store.commit([
    { kind: 'run', run },
    ...record.states.map(
      (state): StoreWrite => ({
        kind: 'checkpoint',
        checkpoint: {
          runId: record.runId,
          itemId: state.id,
          status: 'active',
          state: state as unknown as ItemCheckpoint['state'],
          position,
          updatedAt: at,
        },
      }),
    ),
  ]);
}

/** An input item's ending as a run store records it, with its error's classification for a failure. */
export function storedEnding(ending: EndingReport): ItemEnding {
  if (ending.kind === 'terminal') return ending;
  if (ending.kind === 'failed') {
    const { code, message, ...classification } = ending.error;
    return {
      kind: 'failure',
      code,
      message,
      placement: ending.placement,
      error: classification,
    } as ItemEnding;
  }
  return { kind: 'aborted', reason: ending.waitingFor };
}

/**
 * The checkpoint of an input item a job left between placements, so that `runs show` says where it is: at
 * `placement` of the run's document on `visit`, waiting until `wait.until` when it waits out a delay (a
 * delayed job), else active (its children run, or it is on the queue).
 */
export function movingCheckpoint(
  runId: string,
  dag: string,
  state: ItemState,
  placement: string,
  visit: number,
  wait: ItemWait | undefined,
  at: number,
): ItemCheckpoint {
  return {
    runId,
    itemId: state.id,
    status: wait === undefined ? 'active' : 'waiting',
    state: state as unknown as ItemCheckpoint['state'],
    position: { dag, placement, visit, frames: [], ...(wait === undefined ? {} : { wait }) },
    updatedAt: at,
  };
}

/** The checkpoint of an input item that ended, as the run store keeps it: its whole state and its ending. */
export function endedCheckpoint(
  runId: string,
  dag: string,
  state: ItemState,
  ending: EndingReport,
  at: number,
): ItemCheckpoint {
  return {
    runId,
    itemId: state.id,
    status: 'ended',
    state: state as unknown as ItemCheckpoint['state'],
    position: {
      dag,
      placement: ending.placement,
      visit: ownValue(state.visits, ending.placement) ?? 0,
      frames: [],
    },
    ending: storedEnding(ending),
    updatedAt: at,
  };
}

/** An input item's ending read back from its checkpoint, as a run result takes it. */
export function endedOf(checkpoint: ItemCheckpoint): Ended {
  const state = checkpoint.state as unknown as ItemState;
  const ending = checkpoint.ending as ItemEnding;
  const placement = checkpoint.position.placement;
  if (ending.kind === 'terminal') return { state, ending };
  if (ending.kind === 'failure') {
    const { error } = ending as { error?: Record<string, unknown> };
    const summary = { code: ending.code, message: ending.message, retryable: false, ...error };
    return { state, ending: { kind: 'failed', placement: ending.placement ?? placement, error: summary } };
  }
  const reason = ending.reason;
  const waitingFor = reason === 'backoff' || reason === 'node' || reason === 'answer' ? reason : 'queue';
  return { state, ending: { kind: 'stopped', placement, waitingFor } };
}
