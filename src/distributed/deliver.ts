/**
 * The worker's side of a run's bookkeeping: each job's report goes to the run's ledger and run store (one
 * script, see `ledger.ts`); the worker that ends the last input item closes the run (see `run-close.ts`), or
 * adds the job of its post phases, which closes it (see `phase-jobs.ts`).
 * What a worker knows of each run beside its spec (the run store's prefix, whether it was aborted) is kept
 * per connection, refreshed by every report and read again when older than {@link RECHECK_MS}.
 */
import type { Redis } from 'ioredis';
import type { Clock } from '../policy/types.ts';
import type { ItemState } from '../runtime/item-state.ts';
import type { Ending } from '../runtime/runner.ts';
import { openRedisStore } from '../store/redis.ts';
import { redisAt } from '../store/redis-connect.ts';
import { runLost } from '../store/store-errors.ts';
import type { ItemWait } from '../store/types.ts';
import type { JobScope } from './job-scope.ts';
import type { ChildCount } from './ledger.ts';
import { addPostPhases } from './phase-jobs.ts';
import type { Report } from './report.ts';
import { writeReport } from './report-write.ts';
import { closeRun } from './run-close.ts';
import { runIsLost } from './run-lost.ts';
import { endedCheckpoint, movingCheckpoint } from './run-record.ts';
import type { Wiring } from './scatter-jobs.ts';

/** How long a worker trusts what it knows of a run's abort before reading it again. */
export const RECHECK_MS = 250;
/** Runs a connection remembers before it forgets them all (each is read again on its next job). */
const REMEMBERED = 10_000;

interface Known {
  readonly storePrefix: string | undefined;
  /** True when the run has post phases, whose job its last item adds. */
  readonly post: boolean;
  aborted: boolean;
  checkedAt: number;
}

const known = new WeakMap<Redis, Map<string, Known>>();

function runsOf(redis: Redis): Map<string, Known> {
  let runs = known.get(redis);
  if (runs === undefined) {
    runs = new Map();
    known.set(redis, runs);
  }
  return runs;
}

/** What this worker knows of run `runId`, read from its ledger when unknown or older than {@link RECHECK_MS}. */
async function knownRun(wiring: Wiring, runId: string, clock: Clock): Promise<Known> {
  const runs = runsOf(wiring.redis);
  const had = runs.get(runId);
  if (had !== undefined && clock.now() - had.checkedAt < RECHECK_MS) return had;
  const [store, aborted, post] = await wiring.redis.hmget(wiring.keys.ledger, 'store', 'aborted', 'post');
  if (runs.size >= REMEMBERED) runs.clear();
  const fresh: Known = {
    storePrefix: store ?? had?.storePrefix,
    post: post !== null || had?.post === true,
    aborted: aborted !== null,
    checkedAt: clock.now(),
  };
  runs.set(runId, fresh);
  return fresh;
}

/**
 * True when someone asked for the run to be aborted (`runs abort`, `dispatcher.abort`): the job then ends
 * its item as aborted instead of running nodes. Costs a read only when this worker has not heard of the
 * run within {@link RECHECK_MS}; every report refreshes it.
 */
export async function runAborted(wiring: Wiring, runId: string, clock: Clock): Promise<boolean> {
  return (await knownRun(wiring, runId, clock)).aborted;
}

/**
 * The prefix of run `runId`'s run store, as its ledger names it; undefined once the run was closed and
 * forgotten. Read as {@link runAborted} reads the abort.
 */
export async function storePrefixOf(
  wiring: Wiring,
  runId: string,
  clock: Clock,
): Promise<string | undefined> {
  return (await knownRun(wiring, runId, clock)).storePrefix;
}

/**
 * Writes a job's report (its events, its counters, an input item's ending, and what {@link ReportParts}
 * adds) to the run's ledger, run store and gather record in one round trip, and closes the run when this
 * ending was the last. Answers, for a child's report, how many children its gather record has left.
 */
export function deliverReport(
  wiring: Wiring,
  scope: JobScope,
  end: { readonly ending: Ending; readonly state: ItemState } | undefined,
  parts: ReportParts = {},
): Promise<number | undefined> {
  const dag = scope.known.prep.compiled.dag.id;
  return deliver(wiring, scope.runId, dag, scope.clock, scope.report(end), parts);
}

/** What a report may carry beside its events, counters and ending. */
export interface ReportParts {
  /** The report's id (a job's id and attempt): written once however often it reaches Redis. */
  readonly id?: string;
  /** Where the job left an input item between placements, for its checkpoint. */
  readonly moving?: Moving;
  /** A scatter or embed child's result, counted off its gather record. */
  readonly child?: ChildCount;
}

/** Where a job left an input item between placements, for its checkpoint (see `movingCheckpoint`). */
export interface Moving {
  readonly state: ItemState;
  readonly placement: string;
  readonly visit: number;
  readonly wait?: ItemWait;
}

/**
 * Writes `report` of run `runId` (whose input items are in document `dag`) and closes the run when its
 * ending was the last; for jobs a worker carried and for those an abort took off the queue. A report with
 * an id (a job's id and attempt) is written once however often it reaches Redis. A child's result is
 * counted off its gather record in the same script; answers how many children the record has left.
 */
export async function deliver(
  wiring: Wiring,
  runId: string,
  dag: string,
  clock: Clock,
  report: Report,
  parts: ReportParts = {},
): Promise<number | undefined> {
  const { id: reportId, moving, child } = parts;
  const run = await knownRun(wiring, runId, clock);
  // A run whose ledger is gone was closed and forgotten: a job run again after that has nothing to report.
  if (run.storePrefix === undefined) return undefined;
  const ended = report.end;
  const ending =
    ended === undefined
      ? undefined
      : {
          itemId: ended.state.id,
          count:
            ended.ending.kind === 'stopped'
              ? ('stopped' as const)
              : ended.ending.kind === 'terminal' && ended.ending.outcome === 'completed'
                ? ('completed' as const)
                : undefined,
          checkpoint: JSON.stringify(endedCheckpoint(runId, dag, ended.state, ended.ending, clock.wallNow())),
        };
  const answer = await writeReport(wiring.redis, wiring.keys, run.storePrefix, {
    runId,
    counters: report.tally,
    events: report.events,
    ...(ending === undefined ? {} : { ending }),
    ...(reportId === undefined ? {} : { id: reportId }),
    ...(moving === undefined
      ? {}
      : {
          moving: {
            itemId: moving.state.id,
            checkpoint: JSON.stringify(
              movingCheckpoint(
                runId,
                dag,
                moving.state,
                moving.placement,
                moving.visit,
                moving.wait,
                clock.wallNow(),
              ),
            ),
          },
        }),
    ...(child === undefined ? {} : { child }),
  });
  if (answer.gone === true && (await lostWhileCarried(wiring, runId, run.storePrefix))) {
    throw runLost(runId, redisAt(wiring.redis));
  }
  run.aborted = answer.aborted;
  run.checkedAt = clock.now();
  if (answer.last) await itemsEnded(wiring, runId, run.storePrefix, run.post, clock);
  return answer.left;
}

/**
 * True when run `runId`, whose ledger the report found gone while the run was being carried, is lost (see
 * `run-lost.ts`), asked of its run store under `storePrefix` in the same Redis.
 */
async function lostWhileCarried(wiring: Wiring, runId: string, storePrefix: string): Promise<boolean> {
  const store = await openRedisStore(wiring.redis, { prefix: storePrefix });
  return runIsLost({ redis: wiring.redis, ledger: wiring.keys.ledger, store }, runId);
}

/**
 * After a run's last input item ended (or at once, for a run of no items): the job of its post phases,
 * which closes the run, or the run's close.
 */
export function itemsEnded(
  wiring: Wiring,
  runId: string,
  storePrefix: string,
  post: boolean,
  clock: Clock,
): Promise<void> {
  if (post) return addPostPhases(wiring.queue, runId);
  return closeRun(wiring, runId, storePrefix, clock);
}
