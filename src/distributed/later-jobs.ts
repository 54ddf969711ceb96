import { createHash } from 'node:crypto';
import type { CompiledPlacement } from '../graph/compile.ts';
import { type ClassifiedError, engineError } from '../runtime/error-summary.ts';
import type { ItemState } from '../runtime/item-state.ts';
import type { Prepared } from '../runtime/prepare.ts';
import type { ItemCarry } from '../runtime/step.ts';
import { type HandBackOptions, type HandedBack, handBackDelay, type OnceLog } from './hand-back.ts';
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

/** How a worker meets the jobs it cannot carry (see `hand-back.ts`). */
export interface ProcessorFaults {
  readonly log: OnceLog;
  readonly handBack: HandBackOptions;
}

/**
 * Leaves an item whose placement needs node `node`, which this worker lacks, for another worker: the same
 * item at the same placement as a delayed job, with one more hand-back counted, and a line said once per
 * node. Once the item has been handed back for the give-up time, answers the `E_NODE_NOT_REGISTERED` error
 * it fails with instead.
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
  const { log, handBack: options } = faults;
  log.say(
    `node ${node}`,
    () =>
      `switchyard worker: this worker does not register node '${node}' (placement '${at.key}' of DAG '${prep.compiled.dag.id}'); it leaves such jobs for workers that do. Add the node to this worker's --nodes module, or start a worker that registers it`,
  );
  const now = scope.clock.wallNow();
  const since = previous?.since ?? now;
  if (now - since >= options.giveUpAfterMs) {
    const message = `item ${state.id} was handed back ${previous?.times ?? 0} times in ${options.giveUpAfterMs} ms at placement '${at.key}': no worker that took it registers node '${node}'; start a worker whose --nodes module registers it`;
    return engineError('E_NODE_NOT_REGISTERED', message);
  }
  const handedBack: HandedBack = { since, times: (previous?.times ?? 0) + 1 };
  const delay = handBackDelay(options, handedBack.times);
  return later(wiring, scope.runId, where, at, state, carry, delay, handedBack);
}
