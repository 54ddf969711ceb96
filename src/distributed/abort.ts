/**
 * Aborting a distributed run from any process that reaches its Redis: the abort is written in the run's
 * ledger, which every worker reads (a job of the run then ends its item as aborted instead of running
 * nodes); the run's jobs that wait in the queue (retry waits as delayed jobs, and jobs no worker took yet)
 * are taken off it and their items accounted for as aborted, so that no wait keeps the run open. The run
 * ends `aborted` once its last item ended; the items that were already running end as they end. Items
 * left with no job at all (their submitter died before queueing them) are ended where they were recorded.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { SwitchyardError } from '../errors.ts';
import type { Clock } from '../policy/types.ts';
import type { ItemState } from '../runtime/item-state.ts';
import type { WaitingFor } from '../runtime/run.ts';
import { emptyTally } from '../runtime/run-scope.ts';
import { runLost } from '../store/store-errors.ts';
import type { RunStatus, RunStore } from '../store/types.ts';
import { abortParked, cancelChild } from './abort-job.ts';
import { deliver } from './deliver.ts';
import type { AwaitedJob, ChildJob, ChildOf, ItemJob, PhaseJob } from './job-data.ts';
import { runKeys } from './keys.ts';
import { readLedger } from './ledger.ts';
import { endUnstarted } from './phase-processor.ts';
import { runIsLost } from './run-lost.ts';
import type { Wiring } from './scatter-jobs.ts';

/** How often an abort looks again for the run's waiting jobs while it waits for the run to end (ms). */
const SWEEP_MS = 100;

/** Marks the abort in the ledger once; answers -1 when the run has no ledger. */
const MARK = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
return redis.call('HSETNX', KEYS[1], 'aborted', ARGV[1])
`;

/** What an abort reaches: the queue and prefix of the workers, and the run store the runs are recorded in. */
export interface AbortTarget {
  readonly redis: Redis;
  readonly queue: Queue;
  readonly prefix: string;
  readonly store: RunStore;
  readonly clock: Clock;
}

/** How an abort went. */
export interface AbortOutcome {
  /** The run's status when the abort returned: `aborted` (or what its items made it), or `running` still. */
  readonly status: RunStatus;
  /** Items taken off the queue, or found with no job, and ended as aborted. */
  readonly removed: number;
}

/**
 * Aborts run `runId`, then waits up to `waitMs` (default 30000) for it to end, taking the run's waiting
 * jobs off the queue meanwhile. An unknown run is `E_STORE_UNKNOWN_RUN`; a run that ended is
 * `E_RUN_FINISHED`; a run with no ledger under this prefix (a run one process carries, or another
 * installation's) is `E_USAGE`.
 */
export async function abortRun(
  target: AbortTarget,
  runId: string,
  reason = 'aborted on request',
  waitMs = 30_000,
): Promise<AbortOutcome> {
  const { redis, store, clock } = target;
  const run = await store.getRun(runId);
  if (run === undefined) {
    throw new SwitchyardError(
      'E_STORE_UNKNOWN_RUN',
      `no run '${runId}' in ${store.location}: list the runs with \`switchyard runs --redis <url>\``,
    );
  }
  if (run.status !== 'running') throw finished(runId, run.status);
  const keys = runKeys(target.prefix, runId);
  const marked = Number(await redis.eval(MARK, 1, keys.ledger, reason));
  if (marked === -1) {
    throw new SwitchyardError(
      'E_USAGE',
      `run '${runId}' is not carried by workers under key prefix '${target.prefix}': a run carried by one process is stopped with Ctrl-C in that process; for another installation set $SWITCHYARD_REDIS_PREFIX`,
    );
  }
  const ledger = await readLedger(redis, keys);
  const wiring: Wiring = { redis, queue: target.queue, keys };
  const dag = ledger?.dag ?? run.dag.iri;
  const started = clock.now();
  let removed = 0;
  let jobless = 0;
  for (;;) {
    removed += await sweep(wiring, runId, dag, clock);
    // A run whose records went from Redis while its abort was waited for is lost: nothing will end it.
    if (await runIsLost({ redis, ledger: keys.ledger, store }, runId)) throw runLost(runId, store.location);
    // A record gone while the ledger stays is read as still open: the ledger decides whether it is lost.
    const status = (await store.getRun(runId))?.status ?? 'running';
    if (status !== 'running' || clock.now() - started >= waitMs) return { status, removed };
    // No job of the run anywhere on the queue, twice in a row, while it is still open: its items lost their
    // jobs (a submitter that died between recording the run and queueing its jobs), and no worker will
    // ever end them. They end here as aborted.
    jobless = (await hasJobs(target.queue, runId)) ? 0 : jobless + 1;
    if (jobless >= 2) removed += await endStranded(wiring, store, runId, dag, clock);
    await clock.sleep(SWEEP_MS);
  }
}

/** True when the queue holds a job of run `runId` that a worker holds or may still take. */
async function hasJobs(queue: Queue, runId: string): Promise<boolean> {
  const states = ['active', 'waiting', 'delayed', 'prioritized', 'waiting-children', 'paused'] as const;
  const jobs = await queue.getJobs([...states], 0, -1, true);
  return jobs.some((job) => (job.data as Partial<ItemJob> | undefined)?.runId === runId);
}

/**
 * Ends as aborted, where their checkpoints left them, the run's input items that have not ended. Only for
 * a run with no job left: an item that a job ends after all is counted once, by whichever report comes first.
 */
async function endStranded(
  wiring: Wiring,
  store: RunStore,
  runId: string,
  dag: string,
  clock: Clock,
): Promise<number> {
  const ended = new Set(await wiring.redis.smembers(wiring.keys.ended));
  let count = 0;
  for (const checkpoint of await store.listCheckpoints(runId)) {
    // Input items only: a scatter or embed child's id holds its parent's, joined by '.' or '/'.
    if (checkpoint.status === 'ended' || ended.has(checkpoint.itemId) || /[./]/u.test(checkpoint.itemId))
      continue;
    const state = checkpoint.state as unknown as ItemState;
    const ending = {
      kind: 'stopped',
      placement: checkpoint.position.placement,
      waitingFor: 'queue',
    } as const;
    await deliver(wiring, runId, checkpoint.position.dag ?? dag, clock, {
      events: [],
      tally: emptyTally(),
      end: { ending, state },
    });
    count++;
  }
  return count;
}

/** The error for an abort of a run that ended. */
function finished(runId: string, status: RunStatus): SwitchyardError {
  return new SwitchyardError(
    'E_RUN_FINISHED',
    `run '${runId}' already ended (${status}); there is nothing to abort`,
  );
}

/**
 * Takes the run's delayed and waiting item jobs off the queue and ends their items as aborted (a scatter
 * child is counted off its gather as cancelled), and a pre-phase job with them. A job a worker took
 * meanwhile is left to the worker; so is a post-phase job, since post phases run after an abort too.
 */
async function sweep(wiring: Wiring, runId: string, dag: string, clock: Clock): Promise<number> {
  let removed = 0;
  for (const type of ['delayed', 'waiting'] as const) {
    const waitingFor: WaitingFor = type === 'delayed' ? 'backoff' : 'queue';
    for (const job of await wiring.queue.getJobs([type], 0, -1, true)) {
      const data = job.data as
        | Partial<ItemJob>
        | Partial<ChildJob>
        | Partial<PhaseJob>
        | Partial<AwaitedJob>
        | undefined;
      if (data?.runId !== runId) continue;
      if (data.kind === 'awaited' && typeof data.token === 'string') {
        removed += await removeAwaited(wiring, runId, dag, clock, job, data.token);
        continue;
      }
      if (data.kind === 'phase' && data.stage === 'pre') {
        removed += await removePrePhases(wiring, runId, dag, clock, job, data);
        continue;
      }
      const child = childOfJob(data);
      const item =
        data.kind === 'item' && data.state !== undefined && data.at !== undefined ? data : undefined;
      if (child === undefined && item === undefined) continue;
      try {
        await job.remove();
      } catch {
        continue;
      }
      removed++;
      if (child !== undefined) {
        await cancelChild(wiring, runId, dag, clock, child);
      } else if (item?.at !== undefined && item.state !== undefined) {
        const end = {
          ending: { kind: 'stopped', placement: item.at, waitingFor } as const,
          state: item.state,
        };
        await deliver(wiring, runId, item.dag ?? dag, clock, { events: [], tally: emptyTally(), end });
      }
    }
  }
  return removed;
}

/** The gather record a waiting scatter child's job reports to: a child job's, or an item job's `child`. */
function childOfJob(
  data: Partial<ItemJob> | Partial<ChildJob> | Partial<PhaseJob> | Partial<AwaitedJob>,
): ChildOf | undefined {
  if (data.kind === 'child') {
    const { gather, index, body } = data;
    if (typeof gather !== 'string' || typeof index !== 'number') return undefined;
    return { gather, index, body: body ?? 'node' };
  }
  return data.kind === 'item' ? data.child : undefined;
}

/**
 * Takes a job that carries on a parked item off the queue (its deadline's, waiting delayed, or its
 * answer's), and ends the item as aborted unless another job took its park first. Answers how many items
 * it ended.
 */
async function removeAwaited(
  wiring: Wiring,
  runId: string,
  dag: string,
  clock: Clock,
  job: { remove(): Promise<void> },
  token: string,
): Promise<number> {
  try {
    await job.remove();
  } catch {
    return 0;
  }
  return (await abortParked(wiring, runId, dag, clock, token)) ? 1 : 0;
}

/**
 * Takes a run's waiting pre-phase job off the queue: its phases never ran, and its input items end as
 * aborted at the entrypoint (see `endUnstarted`). Answers how many items it ended.
 */
async function removePrePhases(
  wiring: Wiring,
  runId: string,
  dag: string,
  clock: Clock,
  job: { remove(): Promise<void> },
  data: Partial<PhaseJob>,
): Promise<number> {
  try {
    await job.remove();
  } catch {
    return 0;
  }
  const states = data.states ?? [];
  await endUnstarted(wiring, runId, dag, clock, data.entry ?? '', states);
  return states.length;
}
