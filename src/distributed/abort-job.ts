/**
 * A job of an aborted run: its item runs no node. An input item ends aborted where it stood (in the run
 * result's `aborted` list, as a local abort reports it); a scatter child is counted off its gather record
 * as cancelled, and the last one ends the parent aborted where it waited for its children.
 */
import type { Clock } from '../policy/types.ts';
import { emptyTally } from '../runtime/run-scope.ts';
import type { Ending } from '../runtime/runner.ts';
import { takePark } from './await-park.ts';
import { deliver, deliverReport } from './deliver.ts';
import { completeChild, readGather } from './gather-record.ts';
import type { AwaitedJob, ChildOf, GatheredJob, ItemJob } from './job-data.ts';
import { type JobScope, revive } from './job-scope.ts';
import type { Wiring } from './scatter-jobs.ts';

/** A child's result when its run was aborted before it ended. */
const CANCELLED = { index: 0, status: 'cancelled', value: null } as const;

/**
 * Counts a scatter child off its gather record as cancelled; when it was the last, ends the parent
 * aborted at its scatter here rather than adding the gathered job (which a worker that has not heard of the
 * abort yet would carry through the gather).
 */
export async function cancelChild(
  wiring: Wiring,
  runId: string,
  dag: string,
  clock: Clock,
  child: ChildOf,
): Promise<void> {
  const left = await completeChild(wiring.redis, child.gather, child.index, CANCELLED);
  if (left !== 0) return;
  const gathered = await readGather(wiring.redis, child.gather);
  if (gathered === undefined) return;
  const { parent } = gathered;
  if (parent.child !== undefined) return cancelChild(wiring, runId, dag, clock, parent.child);
  const ending = { kind: 'stopped', placement: parent.at, waitingFor: 'node' } as const;
  const tally = emptyTally();
  await deliver(wiring, runId, parent.dag ?? dag, clock, {
    events: [],
    tally,
    end: { ending, state: parent.state },
  });
}

/**
 * Ends as aborted the item parked with `token`, when the abort takes its park first (see `takePark`): an
 * input item where it waited for its answer, a child counted off as cancelled. Answers whether it ended one.
 */
export async function abortParked(
  wiring: Wiring,
  runId: string,
  dag: string,
  clock: Clock,
  token: string,
): Promise<boolean> {
  const taken = await takePark(wiring, { runId, clock }, { token, via: 'abort' });
  if (taken === undefined) return false;
  const { record } = taken;
  if (record.child !== undefined) {
    await cancelChild(wiring, runId, dag, clock, record.child);
    return true;
  }
  const ending = { kind: 'stopped', placement: record.at, waitingFor: 'answer' } as const;
  await deliver(wiring, runId, record.dag ?? dag, clock, {
    events: [],
    tally: emptyTally(),
    end: { ending, state: record.state },
  });
  return true;
}

/**
 * Ends the item of `job` as aborted: its report (written once, by `reportId`), then the count on a gather
 * record it belongs to.
 */
export async function endAbortedJob(
  wiring: Wiring,
  scope: JobScope,
  job: ItemJob | GatheredJob | AwaitedJob,
  reportId?: string,
): Promise<void> {
  const dag = scope.known.prep.compiled.dag.id;
  const parts = reportId === undefined ? {} : { id: reportId };
  let child: ChildOf | undefined;
  if (job.kind === 'awaited') {
    await abortParked(wiring, job.runId, dag, scope.clock, job.token);
    return;
  }
  if (job.kind === 'gathered') {
    const gathered = await readGather(wiring.redis, job.gather);
    if (gathered !== undefined) {
      const { parent } = gathered;
      if (parent.child !== undefined) child = parent.child;
      else {
        const ending: Ending = { kind: 'stopped', placement: parent.at, waitingFor: 'node' };
        await deliverReport(wiring, scope, { ending, state: revive(parent.state) }, parts);
        return;
      }
    }
  } else if (job.child !== undefined) {
    child = job.child;
  } else {
    const ending: Ending = { kind: 'stopped', placement: job.at, waitingFor: 'queue' };
    await deliverReport(wiring, scope, { ending, state: revive(job.state) }, parts);
    return;
  }
  await deliverReport(wiring, scope, undefined, parts);
  if (child !== undefined) await cancelChild(wiring, job.runId, dag, scope.clock, child);
}
