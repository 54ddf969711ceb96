import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ItemState } from '../runtime/item-state.ts';
import type { JournalEntry } from '../runtime/journal-value.ts';
import { ownSteps } from '../runtime/kinds/children.ts';
import type { ChildResult } from '../runtime/kinds/gather.ts';
import { childResult } from '../runtime/kinds/scatter.ts';
import type { Ending } from '../runtime/runner.ts';
import type { ScatterChildren } from '../runtime/scatter.ts';
import { type FanOut, fanIn, type Transition } from '../runtime/step.ts';
import { gatheredJobId, gatherKey, openGather, type ParentAtScatter } from './gather-record.ts';
import { type ChildJob, type ChildOf, type GatheredJob, JOB_FORMAT } from './job-data.ts';
import type { JobScope } from './job-scope.ts';
import type { RunKeys } from './keys.ts';
import type { ChildCount } from './ledger.ts';

/** BullMQ's options for every item job: no BullMQ retries (retries are edges of the graph). */
export const ITEM_JOB_OPTIONS = { attempts: 1, removeOnComplete: true, removeOnFail: 1000 } as const;

/** How many children a scatter adds to the queue in one round trip. */
const ADD_CHUNK = 256;

/** Where an item is beside its placement: its document, and its gather record if it is a scatter child. */
export interface Whereabouts {
  readonly dag?: string;
  readonly child?: ChildOf;
}

/** What the scatter jobs need: Redis, the queue, the run's keys. */
export interface Wiring {
  readonly redis: Redis;
  readonly queue: Queue;
  readonly keys: RunKeys;
}

/** Writes what a job leaves for later jobs (the next job, the children, a gather record); run after the job's report. */
export type Spawn = () => Promise<void>;

/**
 * The gather record of a fan out (see `FanOut` in `runtime/step.ts`: the step has counted the visit and
 * emitted the start): its key, and the parent item as it leaves, for the job that takes the parent's
 * transition once the last child is counted off.
 */
export function fanRecord(
  wiring: Wiring,
  scope: JobScope,
  where: Whereabouts,
  fan: FanOut,
): { readonly key: string; readonly parent: ParentAtScatter } {
  const run = scope.run;
  const { prep, state, at, carry } = fan.item;
  const parent: ParentAtScatter = {
    at: at.key,
    ...where,
    state,
    delays: carry.delays === undefined ? [] : [...carry.delays],
    startedWall: run.clock.wallNow() - (run.clock.now() - fan.started),
  };
  return { key: gatherKey(wiring.keys.base, prep.compiled.dag.id, state, at.key, fan.visit), parent };
}

/**
 * Carries out a scatter's fan out as jobs (the children and what they give their gather are the scatter
 * kind's: see `kinds/scatter.ts`): answers the scatter's transition at once for an empty list, else what adds
 * the children: the parent's gather record first, then one job per list element (see `child-jobs.ts`). The
 * parent item goes on when its last child ends.
 */
export function fanOutJobs(
  wiring: Wiring,
  scope: JobScope,
  where: Whereabouts,
  fan: FanOut,
  children: ScatterChildren,
): Transition | Spawn {
  const { list, body } = children;
  if (list.length === 0) return fanIn(scope.run, fan, { results: [] });
  const { key, parent } = fanRecord(wiring, scope, where, fan);
  const idOfJobs = gatheredJobId(key);
  const bodyKind = body === undefined ? 'node' : 'dag';
  // The child's state is made by the worker that takes its job, from the parent on the gather record.
  const childJob = (element: unknown, index: number) => {
    const job: ChildJob = {
      v: JOB_FORMAT,
      kind: 'child',
      runId: scope.runId,
      gather: key,
      index,
      body: bodyKind,
      ...(element === undefined ? {} : { item: element }),
    };
    // A fixed id per child: a scatter job run again after its worker died does not add its children twice.
    return {
      name: 'item',
      data: job,
      opts: { ...ITEM_JOB_OPTIONS, jobId: `${idOfJobs}-${index}` },
    };
  };
  return async () => {
    const counted = await openGather(wiring.redis, key, wiring.keys.gathers, parent, list.length);
    // In chunks, made as they go: the first children run while the rest are added, and a long list's jobs
    // are never all in memory at once. A scatter job run again skips the children counted already (their
    // jobs, removed once completed, would otherwise be added and run again).
    for (let start = 0; start < list.length; start += ADD_CHUNK) {
      const end = Math.min(list.length, start + ADD_CHUNK);
      const chunk = [];
      for (let index = start; index < end; index++) {
        if (!counted.has(index)) chunk.push(childJob(list[index], index));
      }
      if (chunk.length > 0) await wiring.queue.addBulk(chunk);
    }
  };
}

/**
 * A scatter child's result as its job writes it on the gather record: what the gather reduces, and the
 * steps the child recorded, which join the parent's journal when the parent goes on (in one process the
 * child writes them into the parent's journal directly).
 */
export type ChildReport = Omit<ChildResult, 'order'> & { readonly journal: Record<string, JournalEntry> };

/** A scatter child's report once it ended (see {@link ChildReport}); `subDag` for a child of a body document. */
export function childReport(state: ItemState, ending: Ending, subDag: boolean): ChildReport {
  // With an empty journal there are no steps to pick by scope, and a scatter child's scope (a digest of its
  // element) is not worked out for nothing.
  const journal = isEmpty(state.journal) ? {} : ownSteps(state);
  return { ...childResult(state, ending, 0, subDag), journal };
}

function isEmpty(record: object): boolean {
  for (const _key in record) return false;
  return true;
}

/** A child's result as its report counts it off its gather record (see `ledger.ts`). */
export function childCount(child: ChildOf, result: object): ChildCount {
  return {
    gather: child.gather,
    index: child.index,
    result: JSON.stringify({ ...result, index: child.index }),
  };
}

/** Adds the gathered job that takes the parent of gather record `gather` on, once its last child ended. */
export async function addGathered(wiring: Wiring, runId: string, gather: string): Promise<void> {
  const job: GatheredJob = { v: JOB_FORMAT, kind: 'gathered', runId, gather };
  // Kept once completed, so that a repeat of the last child's ending finds the id taken and adds nothing.
  await wiring.queue.add('gathered', job, {
    jobId: gatheredJobId(gather),
    attempts: 1,
    removeOnComplete: false,
    removeOnFail: false,
  });
}
