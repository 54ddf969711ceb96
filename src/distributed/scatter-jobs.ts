import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ScatterPlacement } from '../document/model.ts';
import type { CompiledPlacement } from '../graph/compile.ts';
import { copyJson } from '../runtime/copy.ts';
import { type ClassifiedError, engineError, summarise } from '../runtime/error-summary.ts';
import type { ChildResult } from '../runtime/gather.ts';
import { countVisit, createChildState, type ItemState } from '../runtime/item-state.ts';
import { scatterSegment } from '../runtime/journal-key.ts';
import type { JournalEntry } from '../runtime/journal-value.ts';
import { getPointer } from '../runtime/pointer.ts';
import type { Prepared } from '../runtime/prepare.ts';
import type { Ending } from '../runtime/runner.ts';
import { FAILED_BODY_OUTPUTS } from '../runtime/scatter.ts';
import { type ItemCarry, type Transition, transit } from '../runtime/step.ts';
import type { TaskOutcome } from '../runtime/task.ts';
import { gatheredJobId, gatherKey, openGather, type ParentAtScatter } from './gather-record.ts';
import { type ChildOf, type GatheredJob, type ItemJob, JOB_FORMAT } from './job-data.ts';
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
 * A placement that fans out (a scatter, an embed) as it starts: its visit counted and its start emitted,
 * the key of its gather record and the parent item as it leaves, and how it fails at once.
 */
export interface Fanning {
  readonly visit: number;
  readonly started: number;
  readonly key: string;
  readonly parent: ParentAtScatter;
  readonly fail: (error: ClassifiedError) => Transition;
}

/** Starts a placement that fans out: see {@link Fanning}. */
export function startFanning(
  wiring: Wiring,
  scope: JobScope,
  where: Whereabouts,
  prep: Prepared,
  state: ItemState,
  at: CompiledPlacement,
  carry: ItemCarry,
): Fanning {
  const run = scope.run;
  carry.waiting = 'node';
  const visit = countVisit(state, at.key);
  const dagId = prep.compiled.dag.id;
  const ev = run.events;
  const started = ev ? run.placementStart(ev, state.id, dagId, at.key, visit) : run.clock.now();
  const parent: ParentAtScatter = {
    at: at.key,
    ...where,
    state,
    delays: carry.delays === undefined ? [] : [...carry.delays],
    startedWall: run.clock.wallNow() - (run.clock.now() - started),
  };
  return {
    visit,
    started,
    key: gatherKey(wiring.keys.base, dagId, state, at.key, visit),
    parent,
    fail: (error) => transit(run, { prep, state, at, carry }, { error }, started),
  };
}

/**
 * Carries out a scatter placement as jobs. Answers the scatter's transition when there is nothing to fan
 * out (not a list, an unknown body document, an empty list), else what adds the children: the parent's
 * gather record first, then one job per list element. The parent item goes on when its last child ends.
 */
export function fanOut(
  wiring: Wiring,
  scope: JobScope,
  where: Whereabouts,
  prep: Prepared,
  state: ItemState,
  at: CompiledPlacement,
  carry: ItemCarry,
): Transition | Spawn {
  const run = scope.run;
  const placement = at.placement as ScatterPlacement;
  const dagId = prep.compiled.dag.id;
  const { visit, started, key, parent, fail } = startFanning(wiring, scope, where, prep, state, at, carry);
  const list = getPointer(state.data, placement.items);
  if (!Array.isArray(list)) {
    const message = `scatter '${at.key}' expects an array at '${placement.items}' in the item's data, found ${list === undefined ? 'nothing' : typeof list}; put the list there before the scatter`;
    return fail(engineError('E_INPUT', message));
  }
  const body = placement.dag === undefined ? undefined : run.env.prepareIri(placement.dag);
  if (placement.dag !== undefined && body === undefined) {
    const message = `scatter '${at.key}' runs DAG '${placement.dag}', which is not in the library; pass it in createDistributedDispatcher({ library })`;
    return fail(engineError('E_UNKNOWN_DAG', message));
  }
  const entry = body?.compiled.entrypoints[0];
  if (list.length === 0 || (body !== undefined && entry === undefined)) {
    carry.gathered = [];
    return transit(run, { prep, state, at, carry }, { output: 'done' }, started);
  }
  const idOfJobs = gatheredJobId(key);
  const childJob = (element: unknown, index: number) => {
    const frame = { kind: 'scatter', dag: dagId, placement: at.key, visit, index } as const;
    const segment = scatterSegment(at.key, index, element);
    const data = { item: copyJson(element), index };
    const childState = createChildState(state, `${state.id}.${index}`, segment, data, frame);
    const job: ItemJob =
      body === undefined || entry === undefined || placement.dag === undefined
        ? {
            v: JOB_FORMAT,
            kind: 'item',
            runId: scope.runId,
            at: at.key,
            ...(where.dag === undefined ? {} : { dag: where.dag }),
            state: childState,
            delays: [],
            child: { gather: key, index, body: 'node' },
          }
        : {
            v: JOB_FORMAT,
            kind: 'item',
            runId: scope.runId,
            at: entry.key,
            dag: placement.dag,
            state: childState,
            delays: [],
            child: { gather: key, index, body: 'dag' },
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

/** A node body's outcome as the child's result. */
export function bodyResult(state: ItemState, outcome: TaskOutcome): ChildReport {
  const value = state.data.result ?? null;
  const journal = ownSteps(state);
  if ('error' in outcome)
    return { index: 0, status: 'failed', value, error: summarise(outcome.error), journal };
  const status = FAILED_BODY_OUTPUTS.has(outcome.output) ? 'failed' : 'completed';
  return { index: 0, status, value, journal };
}

/** A body document's ending as the child's result. */
export function endingResult(state: ItemState, ending: Ending): ChildReport {
  const value = state.data.result ?? null;
  const journal = ownSteps(state);
  if (ending.kind === 'terminal') {
    return { index: 0, status: ending.outcome, value, terminal: ending.placement, journal };
  }
  if (ending.kind === 'failed') {
    return { index: 0, status: 'failed', value, error: summarise(ending.error), journal };
  }
  return { index: 0, status: 'cancelled', value: null, journal };
}

/** The journal entries a child item recorded: those under its scope. */
export function ownSteps(state: ItemState): Record<string, JournalEntry> {
  const scope = state.scope ?? '';
  const own: Record<string, JournalEntry> = {};
  for (const key of Object.keys(state.journal)) {
    if (key.startsWith(scope)) own[key] = state.journal[key] as JournalEntry;
  }
  return own;
}

/** Adds the steps a child recorded to its parent's journal (a step the parent already has is kept). */
export function joinSteps(state: ItemState, steps: Record<string, JournalEntry> | undefined): void {
  if (steps === undefined) return;
  for (const key of Object.keys(steps)) {
    if (!Object.hasOwn(state.journal, key)) state.journal[key] = steps[key] as JournalEntry;
  }
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
