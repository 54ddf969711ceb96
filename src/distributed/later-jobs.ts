import { createHash } from 'node:crypto';
import type { CompiledPlacement } from '../graph/compile.ts';
import { type ClassifiedError, engineError } from '../runtime/error-summary.ts';
import type { ItemState } from '../runtime/item-state.ts';
import type { Prepared } from '../runtime/prepare.ts';
import type { ItemCarry } from '../runtime/step.ts';
import { type HandedBack, nextHandBack, type ProcessorFaults } from './hand-back.ts';
import { type ItemJob, JOB_FORMAT } from './job-data.ts';
import type { JobScope } from './job-scope.ts';
import { ITEM_JOB_OPTIONS, type Spawn, type Whereabouts, type Wiring } from './scatter-jobs.ts';

/**
 * What adds the job that carries an item on from `at` after `delayMs`: a retry's wait, or a hand-back.
 * The item's state travels whole, with the last delay of each budget. The job's id is fixed by where the
 * item stands (see {@link laterJobId}), so that adding it again (a command ioredis sends again after Redis
 * came back, a job run again after its worker died while the first copy still waits) adds nothing.
 */
export function later(
  wiring: Wiring,
  runId: string,
  where: Whereabouts,
  at: CompiledPlacement,
  state: ItemState,
  carry: ItemCarry,
  delayMs: number,
  handedBack?: HandedBack,
  queued?: number,
): Spawn {
  const next: ItemJob = {
    v: JOB_FORMAT,
    kind: 'item',
    runId,
    at: at.key,
    ...where,
    state,
    delays: carry.delays === undefined ? [] : [...carry.delays],
    ...(handedBack === undefined ? {} : { handedBack }),
    ...(queued === undefined ? {} : { queued }),
  };
  const jobId = laterJobId(runId, at, state, handedBack, queued);
  return async () =>
    void (await wiring.queue.add('item', next, { ...ITEM_JOB_OPTIONS, delay: delayMs, jobId }));
}

/**
 * The id of the job that carries an item on from `at`: the same for the same item (its id and the frames
 * of the embeds and scatters it is in, visits included) at the same point of its trail, hand-back and
 * try for a slot.
 */
export function laterJobId(
  runId: string,
  at: CompiledPlacement,
  state: ItemState,
  handedBack?: HandedBack,
  queued?: number,
): string {
  const where = JSON.stringify([
    runId,
    state.id,
    state.frames ?? [],
    at.key,
    state.trail.length,
    handedBack?.times ?? 0,
    ...(queued === undefined ? [] : [queued]),
  ]);
  return `later-${createHash('sha256').update(where).digest('hex').slice(0, 32)}`;
}

/**
 * Leaves an item whose placement needs node `node`, which this worker lacks, for another worker: the same
 * item at the same placement as a delayed job, with one more hand-back counted, and a line said once per
 * node (see {@link nextHandBack}). Once the item has been handed back for the give-up time, answers the
 * `E_NODE_NOT_REGISTERED` error it fails with instead.
 */
export function leaveForAnother(
  faults: ProcessorFaults,
  wiring: Wiring,
  scope: JobScope,
  where: Whereabouts,
  prep: Prepared,
  state: ItemState,
  at: CompiledPlacement,
  carry: ItemCarry,
  node: string,
  previous: HandedBack | undefined,
): Spawn | ClassifiedError {
  const now = scope.clock.wallNow();
  const next = nextHandBack(faults, node, `placement '${at.key}'`, prep.compiled.dag.id, now, previous);
  if (next === undefined) {
    const giveUp = faults.handBack.giveUpAfterMs;
    const message = `item ${state.id} was handed back ${previous?.times ?? 0} times in ${giveUp} ms at placement '${at.key}': no worker that took it registers node '${node}'; start a worker whose --nodes module registers it`;
    return engineError('E_NODE_NOT_REGISTERED', message);
  }
  return later(wiring, scope.runId, where, at, state, carry, next.delayMs, next.handedBack);
}
