/**
 * A distributed run's phases, carried by a worker as a local run carries them: the pre phases before any
 * input item starts, the post phases once every item ended (after an abort too), each phase once, with the
 * run's own phase item (`id` 'run'), whose data the pre phases leave for the post phases in the run's
 * ledger. A pre phase that fails fails every input item; a phase that fails is in the run result's
 * `phaseErrors` and fails the run. A job run again after its worker died does not run its phases again
 * once their outcome is in the ledger.
 */
import type { CompiledPlacement } from '../graph/compile.ts';
import type { Clock } from '../policy/types.ts';
import type { ClassifiedError } from '../runtime/error-summary.ts';
import { createItemState, type ItemState, restoreItemState } from '../runtime/item-state.ts';
import { POST_PHASE_DEADLINE_MS, runPhases } from '../runtime/phases.ts';
import type { PhaseError } from '../runtime/run.ts';
import { emptyTally } from '../runtime/run-scope.ts';
import type { RunStore } from '../store/types.ts';
import { deliver, deliverReport, itemsEnded, runAborted } from './deliver.ts';
import { nextHandBack, type ProcessorFaults } from './hand-back.ts';
import { type ItemJob, JOB_FORMAT, type PhaseJob } from './job-data.ts';
import { JobScope, revive } from './job-scope.ts';
import { journalInStore } from './journal-sink.ts';
import { endPhases, readLedger } from './ledger.ts';
import { handPhasesBack } from './phase-jobs.ts';
import { closingStatus } from './result.ts';
import { closeRun } from './run-close.ts';
import { ITEM_JOB_OPTIONS, type Wiring } from './scatter-jobs.ts';
import { lacksNode } from './worker-admissions.ts';

/** How many input items' jobs a pre-phase job adds in one round trip. */
const ADD_CHUNK = 256;

/** What a phase job runs with. */
export interface PhaseWork {
  readonly wiring: Wiring;
  readonly scope: JobScope;
  /** The run store `ctx.step` values are committed to, when the worker was given one. */
  readonly store: RunStore | undefined;
  readonly faults: ProcessorFaults;
}

/** Carries a phase job: its phases, then the input items' jobs (pre) or the run's close (post). */
export function runPhaseJob(work: PhaseWork, job: PhaseJob, reportId?: string): Promise<void> {
  return job.stage === 'pre' ? runPre(work, job, reportId) : runPost(work, job, reportId);
}

async function runPre(work: PhaseWork, job: PhaseJob, reportId: string | undefined): Promise<void> {
  const { wiring, scope } = work;
  const { redis, keys } = wiring;
  const prep = scope.known.prep;
  const entry = job.entry ?? prep.compiled.entrypoints[0]?.key ?? '';
  const states = (job.states ?? []).map(revive);
  const ledger = await readLedger(redis, keys);
  // A run whose ledger is gone was closed and forgotten.
  if (ledger === undefined) return;
  const dagId = prep.compiled.dag.id;
  if (ledger.runItem === undefined && (await runAborted(wiring, job.runId, scope.clock))) {
    // Aborted before the phases ran: no node runs.
    return endUnstarted(wiring, job.runId, dagId, scope.clock, entry, states);
  }
  let failure = ledger.phaseErrors[0];
  if (ledger.runItem === undefined) {
    if (await handedBack(work, job, prep.compiled.pre)) return;
    const runItem = createItemState('run', { items: states.length });
    if (work.store !== undefined) await journalInStore(work.store, job.runId, runItem, work.scope.clock);
    failure = await runPhases(scope.run, prep, prep.compiled.pre, runItem, scope.run);
    await deliverReport(wiring, scope, undefined, reportId === undefined ? {} : { id: reportId });
    await endPhases(redis, keys, 'runItem', JSON.stringify(runItem), failure);
  }
  if (failure !== undefined) {
    const error = preFailure(failure);
    for (const state of states) {
      const itemScope = new JobScope(scope.known, job.runId, scope.clock);
      const ending = itemScope.run.failed(dagId, state, failure.placement, error);
      await deliverReport(wiring, itemScope, { ending, state });
    }
  } else {
    await addInputs(wiring, job.runId, entry, states, ledger.added);
  }
  if (states.length === 0) await itemsEnded(wiring, job.runId, ledger.storePrefix, ledger.post, scope.clock);
}

/**
 * Ends the input items of a run whose pre phases never ran (an abort came first) as aborted at the
 * entrypoint, waiting for the queue; with none, the run goes on to its post phases or its close.
 */
export async function endUnstarted(
  wiring: Wiring,
  runId: string,
  dag: string,
  clock: Clock,
  entry: string,
  states: readonly ItemState[],
): Promise<void> {
  for (const state of states) {
    const end = { ending: { kind: 'stopped', placement: entry, waitingFor: 'queue' } as const, state };
    await deliver(wiring, runId, dag, clock, { events: [], tally: emptyTally(), end });
  }
  if (states.length > 0) return;
  const ledger = await readLedger(wiring.redis, wiring.keys);
  if (ledger !== undefined) await itemsEnded(wiring, runId, ledger.storePrefix, ledger.post, clock);
}

/**
 * Adds the jobs of the input items from `from` on, a chunk at a time, counting them in the ledger's
 * `added` after each chunk, so that a pre-phase job run again adds only the items it had not added. A chunk
 * added again (its worker died before counting it) runs once: each job claims its item first (see
 * {@link claimInput}).
 */
async function addInputs(
  wiring: Wiring,
  runId: string,
  entry: string,
  states: readonly ItemState[],
  from: number,
): Promise<void> {
  for (let start = from; start < states.length; start += ADD_CHUNK) {
    const chunk = states.slice(start, start + ADD_CHUNK);
    await wiring.queue.addBulk(
      chunk.map((state) => {
        const data: ItemJob = {
          v: JOB_FORMAT,
          kind: 'item',
          runId,
          at: entry,
          state,
          delays: [],
          claim: true,
        };
        return { name: 'item', data, opts: ITEM_JOB_OPTIONS };
      }),
    );
    await wiring.redis.hset(wiring.keys.ledger, 'added', start + chunk.length);
  }
}

async function runPost(work: PhaseWork, job: PhaseJob, reportId: string | undefined): Promise<void> {
  const { wiring, scope } = work;
  const { redis, keys } = wiring;
  const prep = scope.known.prep;
  const ledger = await readLedger(redis, keys);
  if (ledger === undefined || ledger.closed) return;
  if (!ledger.postDone) {
    if (await handedBack(work, job, prep.compiled.post)) return;
    const runItem =
      ledger.runItem === undefined
        ? createItemState('run', { items: ledger.items })
        : restoreItemState(JSON.parse(ledger.runItem) as ItemState);
    if (work.store !== undefined) await journalInStore(work.store, job.runId, runItem, work.scope.clock);
    const { items, completed, stopped } = ledger;
    runItem.data.status = closingStatus(items, completed, stopped, ledger.phaseErrors.length);
    runItem.data.completed = completed;
    runItem.data.failed = items - completed;
    // Post phases run after an abort too, on a signal of their own, each bounded by its deadline.
    const failure = await runPhases(
      scope.run,
      prep,
      prep.compiled.post,
      runItem,
      { signal: new AbortController().signal },
      POST_PHASE_DEADLINE_MS,
    );
    await deliverReport(wiring, scope, undefined, reportId === undefined ? {} : { id: reportId });
    await endPhases(redis, keys, 'postDone', '1', failure);
  }
  await closeRun(wiring, job.runId, ledger.storePrefix, scope.clock);
}

/**
 * Hands the job back for another worker when this one lacks the node of one of `phases` (see
 * {@link nextHandBack}); answers false once the job was handed back for the give-up time, when the phases
 * run and the one whose node no worker registers fails with `E_NODE_NOT_REGISTERED`.
 */
async function handedBack(
  work: PhaseWork,
  job: PhaseJob,
  phases: readonly CompiledPlacement[],
): Promise<boolean> {
  const prep = work.scope.known.prep;
  for (const at of phases) {
    const node = lacksNode(prep, at.index);
    if (node === undefined) continue;
    const now = work.scope.clock.wallNow();
    const dag = prep.compiled.dag.id;
    const next = nextHandBack(work.faults, node, `phase '${at.key}'`, dag, now, job.handedBack);
    if (next === undefined) return false;
    await handPhasesBack(work.wiring.queue, job, next.handedBack, next.delayMs);
    return true;
  }
  return false;
}

/** The error every input item fails with when pre phase `failure.placement` failed, as in one process. */
function preFailure(failure: PhaseError): ClassifiedError {
  return {
    engineCode: failure.error.code,
    code: failure.error.code,
    message: `pre phase '${failure.placement}' failed: ${failure.error.message}`,
    retryable: failure.error.retryable,
    kind: failure.error.kind ?? 'error',
  };
}

/** Claims input item ARGV[1] for job ARGV[2] in KEYS[1]; answers 1 when the item is this job's. */
const CLAIM = `
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 1 then return 1 end
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return 1 end
return 0
`;

/**
 * True when job `jobId` may carry input item `itemId` from the entrypoint: the first job to ask claims the
 * item, and only it (run again after its worker died, too) gets true; a second copy of the item's first
 * job gets false, and ends without doing anything.
 */
export async function claimInput(wiring: Wiring, itemId: string, jobId: string): Promise<boolean> {
  return Number(await wiring.redis.eval(CLAIM, 1, wiring.keys.claimed, itemId, jobId)) === 1;
}
