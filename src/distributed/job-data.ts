import { SwitchyardError } from '../errors.ts';
import type { ItemState } from '../runtime/item-state.ts';
import type { HandedBack } from './hand-back.ts';

/**
 * The format of the jobs and run specs this version writes; a worker refuses jobs of a newer one. Format 2
 * added phase jobs, and a run's last item adding its post phases' job rather than closing the run, which a
 * worker of format 1 would not do. Format 3 added awaited jobs, and items that park at await placements
 * in Redis rather than in a worker. Format 4 added child jobs: a scatter child's first job carries its list
 * element and its gather record, and the worker makes the child's state from the parent the record holds.
 */
export const JOB_FORMAT = 4;

/** Where a child item reports its ending: the gather record of its scatter or embed execution, and its index. */
export interface ChildOf {
  /** The key of the gather record (see `gather-record.ts`). */
  readonly gather: string;
  readonly index: number;
  /**
   * `node`: the child runs the scatter's body node once; `dag`: it runs the body document; `embed`: it is
   * the item of an embed placement's document, and its parent goes on when it ends.
   */
  readonly body: 'node' | 'dag' | 'embed';
}

/**
 * The data of one BullMQ job: one item of one run at one placement. The item's whole state travels with it
 * (data, budgets, journal, trail, visits, frames), with the last delay of each budget (decorrelated back-off
 * grows from it), so any worker can take the next transition knowing only the run's spec.
 */
export interface ItemJob {
  readonly v: number;
  readonly kind: 'item';
  readonly runId: string;
  /** The placement key the item is at. */
  readonly at: string;
  /** The library IRI of the document the item is in; absent for the run's own DAG. */
  readonly dag?: string;
  readonly state: ItemState;
  /** The last delay of each budget, as entries. */
  readonly delays: readonly (readonly [string, number])[];
  /** Present for a scatter child. */
  readonly child?: ChildOf;
  /** Present when workers that lack the placement's node handed the item back (see `hand-back.ts`). */
  readonly handedBack?: HandedBack;
  /** How often the item found every slot of its placement taken (see `slots.ts`); absent for none. */
  readonly queued?: number;
  /** True on an input item's first job added by a pre-phase job, which runs only if it claims the item. */
  readonly claim?: true;
}

/**
 * The first job of a scatter's child (written from format 4 on): its list element and where it reports, and
 * nothing the worker can make again. The child's state is {@link ItemJob}'s, made from the parent its gather
 * record holds (see `child-jobs.ts`): the parent's state is the same for every sibling, so it is written once
 * on the record rather than with each child. Later jobs of the child (a wait, a hand-back) are item jobs.
 */
export interface ChildJob {
  readonly v: number;
  readonly kind: 'child';
  readonly runId: string;
  /** The key of the gather record the child reports to; its parent field says where the scatter is. */
  readonly gather: string;
  readonly index: number;
  readonly body: 'node' | 'dag';
  /** The child's list element; absent when the element was undefined. */
  readonly item?: unknown;
}

/** The job the last child of a scatter execution adds: the parent item goes on from its gather record. */
export interface GatheredJob {
  readonly v: number;
  readonly kind: 'gathered';
  readonly runId: string;
  readonly gather: string;
}

/**
 * The job that runs a run's pre phases (then adds its input items' jobs) or its post phases (then closes the
 * run), with the run's own phase item (`id` 'run'); see `phase-jobs.ts`.
 */
export interface PhaseJob {
  readonly v: number;
  readonly kind: 'phase';
  readonly runId: string;
  readonly stage: 'pre' | 'post';
  /** For the pre phases: the entrypoint and the input items, whose jobs are added once the phases succeed. */
  readonly entry?: string;
  readonly states?: readonly ItemState[];
  /** Present when workers that lack a phase's node handed the job back (see `hand-back.ts`). */
  readonly handedBack?: HandedBack;
}

/**
 * The job that carries on an item parked at an await placement (see `await-park.ts`): added by the answer
 * (`via` 'answer'), or delayed until the item's deadline (`via` 'deadline'); whichever runs first takes
 * the park, with the answer when one was recorded.
 */
export interface AwaitedJob {
  readonly v: number;
  readonly kind: 'awaited';
  readonly runId: string;
  /** The parked item's answer token. */
  readonly token: string;
  readonly via: 'answer' | 'deadline';
}

/** Any job of a Switchyard queue. */
export type SwitchyardJob = ItemJob | ChildJob | GatheredJob | PhaseJob | AwaitedJob;

/** The format of a job written by a newer version (so this worker leaves it for a newer one), else undefined. */
export function newerFormat(data: unknown): number | undefined {
  const v = (data as { v?: unknown } | null)?.v;
  return typeof v === 'number' && v > JOB_FORMAT ? v : undefined;
}

/**
 * Checks the data of a job before a worker acts on it: a job written by a newer version is refused with a
 * clear error, and one that is not a Switchyard job is refused too (both `E_INPUT`).
 */
export function readJob(data: unknown): SwitchyardJob {
  const job = data as {
    v?: unknown;
    kind?: unknown;
    runId?: unknown;
    at?: unknown;
    gather?: unknown;
    state?: unknown;
  } | null;
  if (typeof job !== 'object' || job === null || typeof job.v !== 'number') {
    throw new SwitchyardError(
      'E_INPUT',
      'a job on the queue is not a Switchyard job; give Switchyard a queue of its own (--queue)',
    );
  }
  if ((job.v as number) > JOB_FORMAT) {
    throw new SwitchyardError(
      'E_INPUT',
      `a job of run '${String(job.runId)}' was written in job format ${job.v}, newer than this worker's ${JOB_FORMAT}; upgrade the worker`,
    );
  }
  if (typeof job.runId !== 'string') throw new SwitchyardError('E_INPUT', 'a job on the queue names no run');
  if (job.kind === 'gathered' && typeof job.gather === 'string') return job as unknown as GatheredJob;
  if (job.kind === 'child') {
    const { index, body } = job as { index?: unknown; body?: unknown };
    if (typeof job.gather === 'string' && typeof index === 'number' && (body === 'node' || body === 'dag'))
      return job as unknown as ChildJob;
    throw new SwitchyardError(
      'E_INPUT',
      `a child job of run '${job.runId}' lacks its gather record or index`,
    );
  }
  if (job.kind === 'awaited') {
    const { token, via } = job as { token?: unknown; via?: unknown };
    if (typeof token === 'string' && (via === 'answer' || via === 'deadline'))
      return job as unknown as AwaitedJob;
    throw new SwitchyardError('E_INPUT', `an awaited job of run '${job.runId}' lacks its token or cause`);
  }
  if (job.kind === 'phase') {
    const stage = (job as { stage?: unknown }).stage;
    if (stage === 'pre' || stage === 'post') return job as unknown as PhaseJob;
    throw new SwitchyardError('E_INPUT', `a phase job of run '${job.runId}' names no stage`);
  }
  if (job.kind !== 'item' || typeof job.at !== 'string' || typeof job.state !== 'object') {
    throw new SwitchyardError('E_INPUT', `a job of run '${job.runId}' lacks its placement or item state`);
  }
  return job as unknown as ItemJob;
}
