import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { GatherPlacement } from '../document/model.ts';
import { SwitchyardError } from '../errors.ts';
import type { CompiledPlacement } from '../graph/compile.ts';
import { wallElapsed } from '../policy/clock.ts';
import type { Clock, Random } from '../policy/types.ts';
import { engineFailure } from '../runtime/error-summary.ts';
import { isThenable } from '../runtime/execute.ts';
import type { ItemState } from '../runtime/item-state.ts';
import { bodyEnding } from '../runtime/kinds/scatter.ts';
import type { NodeRegistry } from '../runtime/node.ts';
import type { Prepared } from '../runtime/prepare.ts';
import { ownValue } from '../runtime/record.ts';
import type { Ending } from '../runtime/runner.ts';
import { bodyOutcome } from '../runtime/scatter.ts';
import { fanIn, fanStep, freshCarry, type ItemCarry, step, type Transition } from '../runtime/step.ts';
import type { TaskOutcome } from '../runtime/task.ts';
import type { ItemWait, RunStore } from '../store/types.ts';
import type { Tracing } from '../telemetry/tracing.ts';
import { endAbortedJob } from './abort-job.ts';
import { parkAt, resumeParked, takePark } from './await-park.ts';
import { childItemJob, GatherParents } from './child-jobs.ts';
import { deliverReport, type Moving, runAborted } from './deliver.ts';
import { embedJobs, embedReport, gatheredDone } from './embed-jobs.ts';
import { readGather } from './gather-record.ts';
import type { HandedBack, ProcessorFaults } from './hand-back.ts';
import {
  type AwaitedJob,
  type ChildJob,
  type ChildOf,
  type ItemJob,
  readJob,
  type SwitchyardJob,
} from './job-data.ts';
import { JobScope, type KnownRun, revive } from './job-scope.ts';
import { journalInStore } from './journal-sink.ts';
import { entryTag } from './keys.ts';
import { KnownRuns } from './known-runs.ts';
import { later, leaveForAnother } from './later-jobs.ts';
import type { ChildCount } from './ledger.ts';
import { claimInput, runPhaseJob } from './phase-processor.ts';
import { RedisGates } from './redis-gates.ts';
import {
  addGathered,
  childCount,
  childReport,
  fanOutJobs,
  type Spawn,
  type Whereabouts,
  type Wiring,
} from './scatter-jobs.ts';
import { childSlotOf, queueDelay, releaseSlot, type Slot, slotOf, takeSlot } from './slots.ts';
import { lacksNode } from './worker-admissions.ts';

export { ITEM_JOB_OPTIONS } from './scatter-jobs.ts';

/** What an {@link ItemProcessor} works with: its worker's nodes, connections, run store, clock and random. */
export interface ProcessorSetup {
  readonly registry: NodeRegistry;
  readonly redis: Redis;
  /** The queue the jobs an item leaves for later go to. */
  readonly queue: Queue;
  /** The key prefix of the queue and the runs' keys. */
  readonly prefix: string;
  /** Handed to every node as `ctx.services`. */
  readonly services: unknown;
  /** Where `ctx.step` values are committed, when the worker has a run store. */
  readonly store: RunStore | undefined;
  readonly faults: ProcessorFaults;
  /** Time for every job: events, deadlines, the wall time of waits and journal entries. */
  readonly clock: Clock;
  /** The source of back-off jitter. */
  readonly random: Random;
  /** The tracer of a worker given a tracer provider: the jobs of a traced run make spans in its trace. */
  readonly tracing?: () => Promise<Tracing>;
}

/**
 * Carries one job at a time through the same {@link step} function as the in-process loop. An item moves
 * on through placements with no wait in this worker; at a wait (a retry's back-off or a Retry-After) it
 * becomes a delayed job, so no worker is held while it waits. A scatter becomes one job per child (see
 * `scatter-jobs.ts`), and the last child to end adds the job that takes the parent through its gather; an
 * embed is a scatter of one child, the embedded document's item (see `embed-jobs.ts`). A placement whose
 * node this worker does not register is left for another worker (see `later-jobs.ts`). Each job ends by
 * writing its report (events, counters, an input item's ending) to the run's ledger and run
 * store (see `deliver.ts`).
 */
export class ItemProcessor {
  /** The runs this worker carries, each read once for the jobs it takes (see {@link KnownRuns}). */
  private readonly runs: KnownRuns;
  private readonly redis: Redis;
  private readonly queue: Queue;
  private readonly store: RunStore | undefined;
  private readonly faults: ProcessorFaults;
  private readonly clock: Clock;
  private readonly tracing: (() => Promise<Tracing>) | undefined;
  /** The parents of the gather records whose children this worker carries, read once each. */
  private readonly parents: GatherParents;
  /** The gates of the runtime policies, kept in Redis under the worker's prefix: shared with every worker. */
  private readonly gates: RedisGates;

  constructor(setup: ProcessorSetup) {
    this.redis = setup.redis;
    this.queue = setup.queue;
    this.store = setup.store;
    this.faults = setup.faults;
    this.clock = setup.clock;
    this.tracing = setup.tracing;
    this.parents = new GatherParents(setup.redis);
    this.gates = new RedisGates({
      redis: setup.redis,
      prefix: setup.prefix,
      clock: setup.clock,
      onLost: (error) =>
        setup.faults.log.say(
          'gates redis',
          () =>
            `switchyard worker: a call to Redis for a gate failed (${(error as Error).message}); items at gates wait and try again with back-off. Check that Redis runs and answers`,
        ),
    });
    this.runs = new KnownRuns({ ...setup, gates: this.gates });
  }

  /**
   * Carries one job's item until it ends, waits or fans out. The job's report goes out before anything it
   * leaves for later jobs is written, so the reports of a job come before those of the jobs it adds; a
   * worker that dies in between leaves the job active, and BullMQ's stalled-job check runs it again.
   * `reportId` (the job's id and attempt) makes the report's write happen once, even when the connection
   * sends it again after Redis came back; `jobId` lets an input item's first job claim the item.
   */
  async process(data: unknown, reportId?: string, jobId?: string): Promise<void> {
    const read = readJob(data);
    const known = await this.runs.of(read.runId);
    const scope = new JobScope(known, read.runId, this.clock);
    const job = read.kind === 'child' ? await this.childJob(scope, read) : read;
    // A child whose gather record is gone belongs to a run that was closed: there is nothing to carry.
    if (job === undefined) return;
    // A child job's state was made here (see `childItemJob`), not read from JSON.
    const live = read.kind === 'child';
    const trace = known.spec.trace;
    const spans =
      this.tracing === undefined || trace === undefined
        ? undefined
        : scope.traced(await this.tracing(), trace);
    try {
      await this.carry(job, known, scope, { reportId, jobId, live });
    } finally {
      spans?.flush();
    }
  }

  /** A child job as the item job it stands for (see `child-jobs.ts`); undefined once its record is gone. */
  private async childJob(scope: JobScope, job: ChildJob): Promise<ItemJob | undefined> {
    const parent = await this.parents.of(job.gather);
    if (parent === undefined) return undefined;
    const prep = this.prepared(scope, parent.dag, job.runId);
    return childItemJob(job, parent, prep, (iri) => scope.prepOf(iri));
  }

  /**
   * Carries the job in `scope`, as {@link ItemProcessor.process} says; `live` when the item job's state is
   * the engine's own already (a child job's), rather than JSON to revive.
   */
  private async carry(
    job: Exclude<SwitchyardJob, ChildJob>,
    known: KnownRun,
    scope: JobScope,
    { reportId, jobId, live }: { reportId: string | undefined; jobId: string | undefined; live: boolean },
  ): Promise<void> {
    const wiring: Wiring = { redis: this.redis, queue: this.queue, keys: known.keys };
    if (job.kind === 'phase') {
      const work = { wiring, scope, store: this.store, faults: this.faults };
      return runPhaseJob(work, job, reportId);
    }
    // A second copy of an input item's first job (its pre-phase job ran again) leaves the item to the first.
    if (job.kind === 'item' && job.claim === true && jobId !== undefined) {
      if (!(await claimInput(wiring, job.state.id, jobId))) return;
    }
    // A job of an aborted run runs no node: its item ends aborted.
    if (await runAborted(wiring, job.runId, scope.clock)) return endAbortedJob(wiring, scope, job, reportId);
    let after: After = {};
    // The scatter child this job carries, whose slot is given back once it ended.
    let child: { readonly state: ItemState; readonly of: ChildOf } | undefined;
    if (job.kind === 'gathered') {
      const gathered = await readGather(this.redis, job.gather);
      if (gathered !== undefined) {
        const { parent, results } = gathered;
        const where = whereabouts(parent.dag, parent.child);
        const prep = this.prepared(scope, where.dag, job.runId);
        const state = revive(parent.state);
        if (parent.child !== undefined) child = { state, of: parent.child };
        if (this.store !== undefined) await journalInStore(this.store, job.runId, state, scope.clock);
        const carry = carryOf(parent.delays);
        const at = placementOf(prep, parent.at, job.runId);
        const clock = scope.clock;
        const started = clock.now() - wallElapsed(clock, parent.startedWall);
        // The parent stood at its placement, its node done, while its children ran (as in process).
        carry.waiting = 'node';
        let moved: Transition;
        try {
          moved = fanIn(scope.run, { item: { prep, state, at, carry }, started }, gatheredDone(at, results));
        } catch (error) {
          moved = scope.run.failed(prep.compiled.dag.id, state, at.key, engineFailure(error, at.key));
        }
        if (moved.kind === 'move') {
          after = await this.carryOn(wiring, scope, where, prep, state, at, carry, moved);
        } else after = this.ending(where, state, moved);
      }
    } else if (job.kind === 'awaited') {
      const resumed = await this.awaited(wiring, scope, job);
      after = resumed.after;
      child = resumed.child;
    } else {
      const where = whereabouts(job.dag, job.child);
      const prep = this.prepared(scope, job.dag, job.runId);
      const state = live ? job.state : revive(job.state);
      if (job.child !== undefined) child = { state, of: job.child };
      if (this.store !== undefined) await journalInStore(this.store, job.runId, state, scope.clock);
      const at = placementOf(prep, job.at, job.runId);
      const missing = job.child?.body === 'node' || !fansOut(at) ? lacksNode(prep, at.index) : undefined;
      // A scatter child runs in a slot of its scatter's written concurrency, across every worker.
      const slot = scope.pastDeadline ? undefined : this.childSlot(scope, state, job.child);
      if (slot !== undefined && !(await takeSlot(this.redis, slot))) {
        const tries = (job.queued ?? 0) + 1;
        const delays = carryOf(job.delays);
        after = {
          spawn: later(wiring, job.runId, where, at, state, delays, queueDelay(tries), undefined, tries),
        };
      } else if (missing !== undefined && !scope.pastDeadline) {
        after = this.handBack(
          wiring,
          scope,
          where,
          prep,
          state,
          at,
          carryOf(job.delays),
          missing,
          job.handedBack,
        );
      } else if (job.child?.body === 'node') {
        try {
          const pending = bodyOutcome(scope.run, prep, at, state);
          const ending = bodyEnding(at, isThenable<TaskOutcome>(pending) ? await pending : pending);
          after = { child: childCount(job.child, childReport(state, ending, false)) };
        } finally {
          if (slot !== undefined) await releaseSlot(this.redis, slot);
        }
      } else if (scope.pastDeadline) {
        // The run deadline is checked when a delayed job fires, as the in-process run stops a back-off.
        after = this.ending(where, state, scope.deadlineEnding(prep, state, at.key));
      } else {
        const carry = carryOf(job.delays);
        after = await this.carryOn(wiring, scope, where, prep, state, at, carry, undefined, job.queued);
      }
    }
    const left = await deliverReport(wiring, scope, after.end, {
      ...(reportId === undefined ? {} : { id: reportId }),
      ...(after.moving === undefined ? {} : { moving: after.moving }),
      ...(after.child === undefined ? {} : { child: after.child }),
    });
    // A sub-DAG's child that ended gives its slot back once it is counted.
    if (after.child !== undefined && child?.of.body === 'dag') {
      const slot = this.childSlot(scope, child.state, child.of);
      if (slot !== undefined) await releaseSlot(this.redis, slot);
    }
    if (after.child !== undefined && left === 0) await addGathered(wiring, job.runId, after.child.gather);
    if (after.spawn !== undefined) await after.spawn();
  }

  /**
   * Moves the item on from `at` (or from `first`, a transition already taken) until it ends, waits or fans
   * out, and says what follows: an input item's ending for the report, or what to write after it (the
   * delayed job of a wait, a scatter's children, a scatter child's count on its gather record).
   */
  private async carryOn(
    wiring: Wiring,
    scope: JobScope,
    where: Whereabouts,
    prep: Prepared,
    state: ItemState,
    start: CompiledPlacement,
    carry: ItemCarry,
    first?: Transition,
    queued = 0,
  ): Promise<After> {
    const run = scope.run;
    let at = start;
    let moved = first;
    // How often the item found every slot of `start` taken before this job.
    let tries = queued;
    let ending: Ending;
    try {
      for (;;) {
        if (moved === undefined) {
          // A scatter that fans out runs its body node in its children's jobs, which check for it there.
          const missing = fansOut(at) ? undefined : lacksNode(prep, at.index);
          if (missing !== undefined)
            return this.handBack(wiring, scope, where, prep, state, at, carry, missing);
          if (at.placement.kind === 'await') {
            const parking = await parkAt(wiring, scope, where, { prep, state, at, carry });
            if (parking.kind === 'parked') {
              const { moving, spawn } = parking;
              return where.child === undefined ? { spawn, moving } : { spawn };
            }
            moved = parking;
          } else if (at.placement.kind === 'embed' || fansOut(at)) {
            // The step makes the children (or the transition of an input it cannot fan out); this
            // executor's part is to carry the fan out out as jobs.
            const effect = fanStep(run, { prep, state, at, carry });
            if (effect.kind === 'fan out') {
              const { children } = effect;
              const spawn =
                children.kind === 'embed'
                  ? embedJobs(wiring, scope, where, effect, children)
                  : fanOutJobs(wiring, scope, where, effect, children);
              if (typeof spawn === 'function') return leaving(where, state, at.key, spawn);
              moved = spawn;
            } else moved = effect;
          } else {
            // A placement with a concurrency limit runs only in one of its slots, across every worker.
            const slot = slotOf(scope.known.spec.policy, prep, at, wiring.keys, state);
            if (slot !== undefined && !(await takeSlot(this.redis, slot))) {
              const delay = queueDelay(tries + 1);
              const spawn = later(wiring, scope.runId, where, at, state, carry, delay, undefined, tries + 1);
              const wait = { until: scope.clock.wallNow() + delay, reason: 'queue' } as const;
              return leaving(where, state, at.key, spawn, wait);
            }
            try {
              const pending = step(run, prep, state, at, carry);
              moved = isThenable<Transition>(pending) ? await pending : pending;
            } finally {
              if (slot !== undefined) await releaseSlot(this.redis, slot);
            }
            tries = 0;
          }
        }
        if (moved.kind !== 'move') {
          ending = moved;
          break;
        }
        at = moved.to;
        if (moved.delayMs > 0) {
          const spawn = later(wiring, scope.runId, where, at, state, carry, moved.delayMs);
          const wait = { until: scope.clock.wallNow() + moved.delayMs, reason: moved.reason ?? 'backoff' };
          return leaving(where, state, at.key, spawn, wait);
        }
        moved = undefined;
      }
    } catch (error) {
      // An error of the engine itself fails the item, as in process: the run still hears of every item.
      ending = run.failed(prep.compiled.dag.id, state, at.key, engineFailure(error, at.key));
    }
    return this.ending(where, state, ending);
  }

  /**
   * Carries on an item parked at an await, once the first of its answer's job and its deadline's took the
   * park (see `await-park.ts`); nothing when another job took it. Past the run deadline the item fails, as
   * an in-process run fails an item it stopped there.
   */
  private async awaited(
    wiring: Wiring,
    scope: JobScope,
    job: AwaitedJob,
  ): Promise<{ after: After; child?: { readonly state: ItemState; readonly of: ChildOf } }> {
    const taken = await takePark(wiring, scope, job);
    if (taken === undefined) return { after: {} };
    const { record } = taken;
    const where = whereabouts(record.dag, record.child);
    const prep = this.prepared(scope, record.dag, job.runId);
    const state = revive(record.state);
    const child = record.child === undefined ? undefined : { state, of: record.child };
    if (this.store !== undefined) await journalInStore(this.store, job.runId, state, scope.clock);
    const at = placementOf(prep, record.at, job.runId);
    const carry = carryOf(record.delays);
    // Without an answer, a deadline job for a run deadline before the await's came for the run deadline.
    const runDeadline = scope.known.spec.deadlineAt;
    const forRun =
      taken.answer === undefined && runDeadline !== undefined && runDeadline < record.parked.deadlineAt;
    if (scope.pastDeadline || forRun) {
      const ending = scope.deadlineEnding(prep, state, at.key, 'answer');
      return { after: this.ending(where, state, ending), ...(child === undefined ? {} : { child }) };
    }
    const moved = resumeParked(wiring, scope, { prep, state, at, carry }, taken);
    const after =
      typeof moved === 'function'
        ? { spawn: moved }
        : await this.carryOn(wiring, scope, where, prep, state, at, carry, moved);
    return { after, ...(child === undefined ? {} : { child }) };
  }

  /** Leaves the item for a worker that registers `node`, or fails it once it was handed back too long. */
  private handBack(
    wiring: Wiring,
    scope: JobScope,
    where: Whereabouts,
    prep: Prepared,
    state: ItemState,
    at: CompiledPlacement,
    carry: ItemCarry,
    node: string,
    previous?: HandedBack,
  ): After {
    const left = leaveForAnother(this.faults, wiring, scope, where, prep, state, at, carry, node, previous);
    if (typeof left === 'function') return { spawn: left };
    if (where.child?.body === 'node') {
      return { child: childCount(where.child, childReport(state, bodyEnding(at, { error: left }), false)) };
    }
    const failed = scope.run.failed(prep.compiled.dag.id, state, at.key, left);
    return this.ending(where, state, failed);
  }

  /** An input item's ending goes in the report; a scatter child's is counted on its gather record with it. */
  private ending(where: Whereabouts, state: ItemState, ending: Ending): After {
    if (where.child === undefined) return { end: { ending, state } };
    const body = where.child.body;
    const result = body === 'embed' ? embedReport(state, ending) : childReport(state, ending, body === 'dag');
    return { child: childCount(where.child, result) };
  }

  /**
   * The slot a scatter child needs (see `childSlotOf`): of the scatter in its innermost frame, when the
   * policy writes a concurrency for it; none for an embed's child.
   */
  private childSlot(scope: JobScope, state: ItemState, of: ChildOf | undefined): Slot | undefined {
    if (of === undefined || of.body === 'embed') return undefined;
    const frame = state.frames?.at(-1);
    if (frame?.kind !== 'scatter') return undefined;
    const known = scope.known;
    const prep = frame.dag === known.prep.compiled.dag.id ? known.prep : known.env.prepareIri(frame.dag);
    const at = prep?.compiled.byKey.get(frame.placement);
    if (prep === undefined || at === undefined) return undefined;
    const holder = () => `${state.id}${entryTag(state.frames)}`;
    return childSlotOf(known.spec.policy, prep, at, known.keys, holder, of.body);
  }

  /** The prepared document of an item, or an error naming the run. */
  private prepared(scope: JobScope, dag: string | undefined, runId: string): Prepared {
    const prep = scope.prepOf(dag);
    if (prep === undefined)
      throw new SwitchyardError('E_UNKNOWN_DAG', `run '${runId}' has no document '${dag ?? ''}'`);
    return prep;
  }
}

/**
 * What follows a job: an input item's ending for its report, or where the job left it between placements,
 * and what to write after the report; a scatter or embed child's result, counted off with the report.
 */
interface After {
  readonly end?: { readonly ending: Ending; readonly state: ItemState };
  readonly moving?: Moving;
  readonly spawn?: Spawn;
  readonly child?: ChildCount;
}

/**
 * A job that leaves its item at `placement` until `spawn`'s job takes it on: waiting until `wait.until`, or
 * for its children. An input item's position goes in the report, for `runs show`; the item enters
 * `placement` next when it waits, and is in it (its visit counted) when its children run.
 */
function leaving(
  where: Whereabouts,
  state: ItemState,
  placement: string,
  spawn: Spawn,
  wait?: ItemWait,
): After {
  if (where.child !== undefined) return { spawn };
  const counted = ownValue(state.visits, placement) ?? 0;
  const visit = wait === undefined ? counted : counted + 1;
  return { spawn, moving: { state, placement, visit, ...(wait === undefined ? {} : { wait }) } };
}

/** An item's document and gather record, without absent fields. */
function whereabouts(dag: string | undefined, child: ChildOf | undefined): Whereabouts {
  return { ...(dag === undefined ? {} : { dag }), ...(child === undefined ? {} : { child }) };
}

/** A scatter runs as child jobs unless its gather takes the first result, which cancels the rest in process. */
function fansOut(at: CompiledPlacement): boolean {
  if (at.placement.kind !== 'scatter') return false;
  const done = at.routes.get('done')?.target.placement;
  return !(done?.kind === 'gather' && (done as GatherPlacement).reducer === 'first');
}

/** A fresh carry with the last delays of the item's budgets. */
function carryOf(delays: readonly (readonly [string, number])[]): ItemCarry {
  const carry = freshCarry();
  if (delays.length > 0) carry.delays = new Map(delays);
  return carry;
}

/** The placement `key` of a prepared document. */
function placementOf(prep: Prepared, key: string, runId: string): CompiledPlacement {
  const at = prep.compiled.byKey.get(key);
  if (at === undefined) throw new SwitchyardError('E_INPUT', `run '${runId}' has no placement '${key}'`);
  return at;
}
