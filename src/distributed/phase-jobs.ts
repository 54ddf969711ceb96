/**
 * The jobs of a distributed run's phases. A run with pre phases is submitted as one pre-phase job, which
 * runs the phases in a worker and then adds the input items' jobs; a run with post phases has its post
 * phases' job added by whoever ends its last input item (a worker, or an abort), and that job closes the
 * run. Each job's id is fixed by its run, stage and hand-back, so that adding it again while it is on the
 * queue (a closer whose job ran again after its worker died) adds nothing.
 */
import { createHash } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { ItemState } from '../runtime/item-state.ts';
import type { HandedBack } from './hand-back.ts';
import { JOB_FORMAT, type PhaseJob } from './job-data.ts';
import { ITEM_JOB_OPTIONS } from './scatter-jobs.ts';

/** The id of run `runId`'s job for `stage`, handed back `times` times. */
export function phaseJobId(runId: string, stage: PhaseJob['stage'], times = 0): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([runId, stage, times]))
    .digest('hex');
  return `phase-${stage}-${digest.slice(0, 32)}`;
}

/** Adds the job of a run's pre phases, which adds the jobs of `states` at `entry` once the phases succeed. */
export async function addPrePhases(
  queue: Queue,
  runId: string,
  entry: string,
  states: readonly ItemState[],
): Promise<void> {
  const job: PhaseJob = { v: JOB_FORMAT, kind: 'phase', runId, stage: 'pre', entry, states };
  await queue.add('phase', job, { ...ITEM_JOB_OPTIONS, jobId: phaseJobId(runId, 'pre') });
}

/** Adds the job of a run's post phases, once its last input item ended. */
export async function addPostPhases(queue: Queue, runId: string): Promise<void> {
  const job: PhaseJob = { v: JOB_FORMAT, kind: 'phase', runId, stage: 'post' };
  await queue.add('phase', job, { ...ITEM_JOB_OPTIONS, jobId: phaseJobId(runId, 'post') });
}

/** Adds `job` again after `delayMs`, handed back once more by a worker that lacks one of its phases' nodes. */
export async function handPhasesBack(
  queue: Queue,
  job: PhaseJob,
  handedBack: HandedBack,
  delayMs: number,
): Promise<void> {
  const again: PhaseJob = { ...job, handedBack };
  const jobId = phaseJobId(job.runId, job.stage, handedBack.times);
  await queue.add('phase', again, { ...ITEM_JOB_OPTIONS, delay: delayMs, jobId });
}
