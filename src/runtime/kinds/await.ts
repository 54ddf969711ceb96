/**
 * What an await placement does, written once for every executor: where an item parks (its token and
 * deadline), the checkpoint wait that records it, the events of its wait, and the outcome an answer or the
 * deadline gives it. The executors only hold the item until one of them comes: a promise in process, a
 * parked record in Redis across workers.
 */

import type { GivenAnswer } from '../../awaits/answer-check.ts';
import type { ParkedItem } from '../../awaits/desk.ts';
import { answerToken } from '../../awaits/token.ts';
import type { AwaitPlacement } from '../../document/model.ts';
import { AWAIT_DEADLINE_OUTPUT } from '../../document/model.ts';
import { SwitchyardError } from '../../errors.ts';
import type { CompiledPlacement } from '../../graph/compile.ts';
import type { ItemWait } from '../../store/types.ts';
import type { Outcome } from '../decide.ts';
import { engineFailure } from '../error-summary.ts';
import type { EventStream } from '../event-stream.ts';
import { countVisit, type ItemState } from '../item-state.ts';
import { setPointer } from '../pointer.ts';
import type { Ending, RunContext } from '../runner.ts';
import type { ItemAt } from '../step.ts';

/** A parked item's wait as its checkpoint kept it, for the item to park again where it was after a restart. */
export interface ParkedCarry {
  readonly visit: number;
  readonly deadlineAt: number;
  readonly parkedAt: number;
}

/** What an item needs to park: the run, the document, and the item's visit of the placement. */
export interface ParkingContext {
  readonly runId: string;
  readonly dag: string;
  readonly visit: number;
  /** Wall time now. */
  readonly wallNow: number;
  /** The policy's deadline for the placement, ms; undefined when it gives none. */
  readonly deadlineMs: number | undefined;
  /** Set when the item parked before a restart: its deadline and parking time stay as they were. */
  readonly resumed?: ParkedCarry;
}

/**
 * Where the item parks: its answer token (see {@link answerToken}), the outputs an answer may name, and the
 * absolute wall time its deadline passes: `deadlineMs` after it first parked, kept across restarts.
 * Throws `E_AWAIT_NO_DEADLINE` when the policy gives the placement no deadline (admission refuses such a
 * run first; this guards a policy changed under a resumed run).
 */
export function parkingOf(at: CompiledPlacement, state: ItemState, ctx: ParkingContext): ParkedItem {
  const placement = at.placement as AwaitPlacement;
  const resumed = ctx.resumed;
  let deadlineAt = resumed?.deadlineAt;
  if (deadlineAt === undefined) {
    if (ctx.deadlineMs === undefined) throw noDeadline(at.key);
    deadlineAt = ctx.wallNow + ctx.deadlineMs;
  }
  return {
    token: answerToken({
      runId: ctx.runId,
      item: state.id,
      dag: ctx.dag,
      placement: at.key,
      visit: ctx.visit,
    }),
    item: state.id,
    dag: ctx.dag,
    placement: at.key,
    visit: ctx.visit,
    answers: placement.answers,
    deadlineAt,
    parkedAt: resumed?.parkedAt ?? ctx.wallNow,
  };
}

/** An item arrived at an await: where it parks, and the clock time the placement started (for `placement.end`). */
export interface Arrival {
  readonly parked: ParkedItem;
  readonly started: number;
}

/**
 * An item arriving at an await placement, in any executor: its visit counted (kept, for an item that had
 * parked before a restart), `placement.start` reported, and where it parks (see {@link parkingOf}); or its
 * failure, when the policy gives the placement no deadline.
 */
export function arrive(
  run: RunContext,
  item: ItemAt,
  runId: string,
  resumed: ParkedCarry | undefined,
): Arrival | Ending {
  const { prep, state, at, carry } = item;
  carry.waiting = 'answer';
  const visit = resumed?.visit ?? countVisit(state, at.key);
  const dag = prep.compiled.dag.id;
  const ev = run.events;
  const started = ev ? run.placementStart(ev, state.id, dag, at.key, visit) : run.clock.now();
  try {
    const parked = parkingOf(at, state, {
      runId,
      dag,
      visit,
      wallNow: run.clock.wallNow(),
      deadlineMs: prep.timings[at.index]?.deadlineMs,
      ...(resumed === undefined ? {} : { resumed }),
    });
    return { parked, started };
  } catch (error) {
    return run.failed(dag, state, at.key, engineFailure(error, at.key));
  }
}

/** The error of an await placement the policy gives no deadline. */
export function noDeadline(key: string): SwitchyardError {
  return new SwitchyardError(
    'E_AWAIT_NO_DEADLINE',
    `await placement '${key}' has no deadline in the runtime policy; give it deadlineMs under placements.${key} (every wait must end)`,
  );
}

/** The wait a parked item's checkpoint records: until its deadline, with its token and expected answers. */
export function parkedWait(parked: ParkedItem): ItemWait {
  return {
    until: parked.deadlineAt,
    reason: 'await',
    token: parked.token,
    answers: parked.answers,
    since: parked.parkedAt,
  };
}

/** The checkpointed wait as the item's carry, when `wait` is an await's. */
export function parkedCarry(
  wait: ItemWait | undefined,
  visit: number,
  updatedAt: number,
): ParkedCarry | undefined {
  if (wait?.reason !== 'await') return undefined;
  return { visit, deadlineAt: wait.until, parkedAt: wait.since ?? updatedAt };
}

/** Reports the item parked (`resumed` when it parks again after a restart). */
export function emitParked(ev: EventStream, parked: ParkedItem, resumed: boolean): void {
  const { item, dag, placement, visit, token, answers, deadlineAt } = parked;
  ev.emit(
    resumed
      ? { type: 'await.parked', item, dag, placement, visit, token, answers, deadlineAt, resumed }
      : { type: 'await.parked', item, dag, placement, visit, token, answers, deadlineAt },
  );
}

/**
 * The outcome of an answer: its output, with its data (checked already, see `checkAnswer`) written into
 * the item's data at the placement's `into`.
 */
export function answeredOutcome(at: CompiledPlacement, state: ItemState, answer: GivenAnswer): Outcome {
  const placement = at.placement as AwaitPlacement;
  if (answer.data !== undefined && placement.into !== undefined) {
    state.data = setPointer(state.data, placement.into, answer.data);
  }
  return { output: answer.output };
}

/** The outcome of a deadline that passed without an answer. */
export function expiredOutcome(): Outcome {
  return { output: AWAIT_DEADLINE_OUTPUT };
}

/** Reports how the wait ended: the answer taken, or the deadline. */
export function emitAwaitEnd(
  ev: EventStream,
  parked: ParkedItem,
  end: { readonly output: string; readonly early?: boolean } | undefined,
  wallNow: number,
): void {
  const { item, dag, placement, token } = parked;
  const waitedMs = Math.max(0, wallNow - parked.parkedAt);
  if (end === undefined) {
    ev.emit({ type: 'await.expired', item, dag, placement, token, waitedMs });
    return;
  }
  const { output } = end;
  ev.emit(
    end.early === true
      ? { type: 'await.answered', item, dag, placement, token, output, waitedMs, early: true }
      : { type: 'await.answered', item, dag, placement, token, output, waitedMs },
  );
}
