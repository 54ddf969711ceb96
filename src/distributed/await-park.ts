/**
 * Items parked at await placements across workers. The job that brings an item to an await reports it
 * parked (its `await.parked` event, and an input item's checkpoint waiting with its token), then registers
 * the park in the run's `parked` hash and adds a job delayed until the item's deadline: the job completes,
 * and no worker holds the item while it waits. An answer (see `await-answer.ts`) is recorded in the run
 * store's answers and, when its item is parked, adds the job that carries it on. The first of the answer's
 * job and the deadline's takes the park with one script, with the answer when one was recorded, so exactly
 * one of them moves the item. What the wait does (token, deadline, events, outcomes) is the await kind's
 * (`kinds/await.ts`); this module only holds the item.
 */
import type { Queue } from 'bullmq';
import type { GivenAnswer } from '../awaits/answer-check.ts';
import { checkAnswer } from '../awaits/answer-check.ts';
import type { ParkedItem } from '../awaits/desk.ts';
import type { AwaitPlacement } from '../document/model.ts';
import { isSwitchyardError } from '../errors.ts';
import type { CompiledPlacement } from '../graph/compile.ts';
import { wallElapsed } from '../policy/clock.ts';
import type { ItemState } from '../runtime/item-state.ts';
import {
  answeredOutcome,
  arrive,
  emitAwaitEnd,
  emitParked,
  expiredOutcome,
  parkedWait,
} from '../runtime/kinds/await.ts';
import type { Prepared } from '../runtime/prepare.ts';
import { type ItemAt, type Transition, transit } from '../runtime/step.ts';
import { redisKeys } from '../store/redis-keys.ts';
import type { AnswerRecord } from '../store/types.ts';
import { type Moving, storePrefixOf } from './deliver.ts';
import { type AwaitedJob, type ChildOf, JOB_FORMAT } from './job-data.ts';
import type { JobScope } from './job-scope.ts';
import { ITEM_JOB_OPTIONS, type Spawn, type Whereabouts, type Wiring } from './scatter-jobs.ts';
import { evalScript } from './scripts.ts';

/** A parked item as the run's `parked` hash keeps it: where it is, its whole state, and its wait. */
export interface ParkRecord {
  /** The await placement's key. */
  readonly at: string;
  /** The library IRI of the document it is in; absent for the run's own DAG. */
  readonly dag?: string;
  /** Present for a scatter or embed child. */
  readonly child?: ChildOf;
  readonly state: ItemState;
  /** The last delay of each budget, as entries. */
  readonly delays: readonly (readonly [string, number])[];
  readonly parked: ParkedItem;
  /** Wall time the await placement started, for its `placement.end`. */
  readonly startedWall: number;
}

/**
 * Registers a park. KEYS: the run's parked and settled hashes, the run store's answers and answer order of
 * the run. ARGV: the token, the park record as JSON, '1' to drop the answer recorded for the token first (it
 * did not fit the placement; the item parks again). Answers 1 when the token has an answer already (the
 * item goes on at once), 0 when it waits, -1 when its park was taken already (the parking job ran again
 * after its worker died, and the item went on meanwhile).
 */
const PARK = `
if ARGV[3] == '1' then
  if redis.call('HDEL', KEYS[3], ARGV[1]) == 1 then redis.call('LREM', KEYS[4], 0, ARGV[1]) end
  redis.call('HDEL', KEYS[2], ARGV[1])
elseif redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then
  return -1
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return redis.call('HEXISTS', KEYS[3], ARGV[1])
`;

/**
 * Takes a park. KEYS: the run's parked hash, its settled hash, the run store's answers of the run. ARGV: the
 * token, and what takes it: 'answer' (only when the token has an answer), 'deadline' (with the answer when
 * one was recorded first) or 'abort' (without). Answers nothing when the park was taken already, else the
 * park record and the answer, if any. The token is marked settled by what took it: a later answer to a park
 * its deadline or an abort took is refused, and the park is not registered again.
 */
const TAKE = `
local park = redis.call('HGET', KEYS[1], ARGV[1])
if not park then return false end
local answer = false
if ARGV[2] ~= 'abort' then answer = redis.call('HGET', KEYS[3], ARGV[1]) end
if ARGV[2] == 'answer' and not answer then return false end
redis.call('HDEL', KEYS[1], ARGV[1])
if answer then
  redis.call('HSET', KEYS[2], ARGV[1], 'answer')
  return {park, answer}
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return {park}
`;

/** An item that parked: its checkpoint for the report, and what registers the park after it. */
export interface Parking {
  readonly kind: 'parked';
  readonly moving: Moving;
  readonly spawn: Spawn;
}

/**
 * Brings an item to await placement `at` in a job: its visit counted, `placement.start` and `await.parked`
 * emitted as in process. An answer kept for its token (given before it parked) that fits is taken at once:
 * the item's transition comes back, and it goes on in this job. Otherwise the item parks: its checkpoint
 * waits until its deadline with its token, and the park is registered once the job's report is written.
 */
export async function parkAt(
  wiring: Wiring,
  scope: JobScope,
  where: Whereabouts,
  item: ItemAt,
): Promise<Transition | Parking> {
  const { prep, state, at, carry } = item;
  const run = scope.run;
  const arrival = arrive(run, item, scope.runId, undefined);
  if (!('parked' in arrival)) return arrival;
  const { parked, started } = arrival;
  const _dagId = prep.compiled.dag.id;
  const ev = run.events;
  if (ev) emitParked(ev, parked, false);
  const storePrefix = await storePrefixOf(wiring, scope.runId, scope.clock);
  let drop = false;
  if (storePrefix !== undefined) {
    const kept = await wiring.redis.hget(redisKeys(storePrefix).answers(scope.runId), parked.token);
    if (kept !== null) {
      const answer = fitting(scope, item, parked, JSON.parse(kept) as AnswerRecord);
      if (answer !== undefined) return answered(scope, item, parked, answer, true, started);
      drop = true;
    }
  }
  const record: ParkRecord = {
    at: at.key,
    ...where,
    state,
    delays: carry.delays === undefined ? [] : [...carry.delays],
    parked,
    startedWall: run.clock.wallNow() - (run.clock.now() - started),
  };
  const moving: Moving = { state, placement: at.key, visit: parked.visit, wait: parkedWait(parked) };
  const spawn: Spawn = async () => {
    if (storePrefix !== undefined) await registerPark(wiring, scope, storePrefix, record, drop);
  };
  return { kind: 'parked', moving, spawn };
}

/**
 * Registers a park (see {@link PARK}) and adds the job that carries the item on: at once when its token has
 * an answer already (given while this job ran), else delayed until its deadline, or the run deadline when
 * that comes first.
 */
export async function registerPark(
  wiring: Wiring,
  scope: JobScope,
  storePrefix: string,
  record: ParkRecord,
  drop: boolean,
): Promise<void> {
  const { token } = record.parked;
  const store = redisKeys(storePrefix);
  const runId = scope.runId;
  const found = await evalScript(
    wiring.redis,
    PARK,
    4,
    wiring.keys.parked,
    wiring.keys.settled,
    store.answers(runId),
    store.answerOrder(runId),
    token,
    JSON.stringify(record),
    drop ? '1' : '0',
  );
  if (Number(found) === -1) return;
  // An answer given while this job parked the item came once its parking was reported: not an early one.
  if (Number(found) === 1) {
    await addAwaited(wiring.queue, { v: JOB_FORMAT, kind: 'awaited', runId, token, via: 'answer' });
    return;
  }
  const runDeadline = scope.known.spec.deadlineAt ?? Number.POSITIVE_INFINITY;
  const until = Math.min(record.parked.deadlineAt, runDeadline);
  const job: AwaitedJob = { v: JOB_FORMAT, kind: 'awaited', runId, token, via: 'deadline' };
  await addAwaited(wiring.queue, job, Math.max(0, until - scope.clock.wallNow()));
}

/**
 * Adds an awaited job after `delayMs`. Its id is fixed by the token and its cause, so adding it again (an
 * answer's job added by the parker and the answerer alike) adds nothing while it waits.
 */
export async function addAwaited(queue: Queue, job: AwaitedJob, delayMs = 0): Promise<void> {
  await queue.add('awaited', job, { ...ITEM_JOB_OPTIONS, delay: delayMs, jobId: awaitedJobId(job) });
}

/** The id of an awaited job: `await-<token>-<answer|deadline>`. */
export function awaitedJobId(job: Pick<AwaitedJob, 'token' | 'via'>): string {
  return `await-${job.token}-${job.via}`;
}

/** A park as a job took it: the record, the answer recorded for it (if any), and where answers are kept. */
export interface TakenPark {
  readonly record: ParkRecord;
  readonly answer?: AnswerRecord;
  readonly storePrefix: string;
}

/** What takes a park: an awaited job, or an abort (which takes it without its answer). */
export interface ParkTaker {
  readonly token: string;
  readonly via: AwaitedJob['via'] | 'abort';
}

/**
 * Takes the park `taker` names (see {@link TAKE}) for an answer, its deadline or an abort; undefined when
 * another job took it first, or the run was closed and forgotten.
 */
export async function takePark(
  wiring: Wiring,
  scope: Pick<JobScope, 'runId' | 'clock'>,
  taker: ParkTaker,
): Promise<TakenPark | undefined> {
  const storePrefix = await storePrefixOf(wiring, scope.runId, scope.clock);
  if (storePrefix === undefined) return undefined;
  const answers = redisKeys(storePrefix).answers(scope.runId);
  const { parked, settled } = wiring.keys;
  const taken = (await evalScript(wiring.redis, TAKE, 3, parked, settled, answers, taker.token, taker.via)) as
    | [string, string?]
    | null;
  if (taken === null) return undefined;
  const record = JSON.parse(taken[0]) as ParkRecord;
  return taken[1] === undefined
    ? { record, storePrefix }
    : { record, answer: JSON.parse(taken[1]) as AnswerRecord, storePrefix };
}

/**
 * Carries a taken park on: with its answer (`await.answered`, its data written at `into`), or on
 * `deadline` (`await.expired`); the item's transition from the await. An answer that does not fit the
 * placement (kept before the item parked, for another await) is dropped with a warning, and the item parks
 * again: the spawn that registers it comes back instead.
 */
export function resumeParked(
  wiring: Wiring,
  scope: JobScope,
  item: ItemAt,
  taken: TakenPark,
): Transition | Spawn {
  const { record } = taken;
  const clock = scope.clock;
  const started = clock.now() - wallElapsed(clock, record.startedWall);
  item.carry.waiting = 'answer';
  if (taken.answer === undefined) {
    const ev = scope.run.events;
    if (ev) emitAwaitEnd(ev, record.parked, undefined, clock.wallNow());
    return transit(scope.run, item, expiredOutcome(), started);
  }
  const answer = fitting(scope, item, record.parked, taken.answer);
  if (answer === undefined) return () => registerPark(wiring, scope, taken.storePrefix, record, true);
  return answered(scope, item, record.parked, answer, false, started);
}

/** The item's transition on `answer`, reported as `await.answered`. */
function answered(
  scope: JobScope,
  item: ItemAt,
  parked: ParkedItem,
  answer: GivenAnswer,
  early: boolean,
  started: number,
): Transition {
  const ev = scope.run.events;
  if (ev) emitAwaitEnd(ev, parked, { output: answer.output, early }, scope.clock.wallNow());
  return transit(scope.run, item, answeredOutcome(item.at, item.state, answer), started);
}

/**
 * A recorded answer checked against the placement its item parked at; undefined, after a `W_ANSWER_IGNORED`
 * warning, when it does not fit (an answer given by token before the item parked is checked then only
 * against the awaits of the run as a whole).
 */
function fitting(
  scope: JobScope,
  item: { readonly prep: Prepared; readonly state: ItemState; readonly at: CompiledPlacement },
  parked: ParkedItem,
  record: AnswerRecord,
): GivenAnswer | undefined {
  const given =
    record.data === undefined ? { output: record.output } : { output: record.output, data: record.data };
  try {
    return checkAnswer(item.at.placement as AwaitPlacement, given);
  } catch (error) {
    const ev = scope.run.events;
    if (ev && isSwitchyardError(error)) {
      ev.emit({
        type: 'warning',
        code: 'W_ANSWER_IGNORED',
        item: parked.item,
        dag: parked.dag,
        placement: parked.placement,
        message: `an answer given before item ${parked.item} parked does not fit: ${error.message}`,
      });
    }
    return undefined;
  }
}
