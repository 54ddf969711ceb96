import type { AwaitPlacement } from '../document/model.ts';
import { isSwitchyardError } from '../errors.ts';
import {
  answeredOutcome,
  arrive,
  emitAwaitEnd,
  emitParked,
  expiredOutcome,
  parkedWait,
} from './kinds/await.ts';
import type { RunContext } from './runner.ts';
import { type ItemAt, type Transition, transit } from './step.ts';

/**
 * An await placement in this process: the item parks (its `await.parked` event and, in a durable run, a
 * checkpoint that waits until its deadline), takes an answer kept for it or waits on the run's
 * {@link AnswerDesk} for one, or for its deadline, and leaves on the answer's output (its data written at
 * the placement's `into`) or on `deadline`. A durable run also looks in its store for an answer given while
 * no process ran it, or by another process.
 */
export async function awaitStep(run: RunContext, item: ItemAt): Promise<Transition> {
  const { prep, state, at, carry } = item;
  const placement = at.placement as AwaitPlacement;
  const resumed = carry.parked;
  carry.parked = undefined;
  const arrival = arrive(run, item, run.runId, resumed);
  if (!('parked' in arrival)) return arrival;
  const { parked, started } = arrival;
  const dagId = prep.compiled.dag.id;
  const ev = run.events;
  const desk = run.desk;
  const durable = run.durable;
  if (durable !== undefined) {
    durable.recorder.parked(dagId, state, at, carry, parkedWait(parked));
    await durable.recorder.settled();
    const stored = await durable.recorder.store.getAnswer(run.runId, parked.token);
    if (stored !== undefined && !desk.hasAnswer(parked.token)) {
      desk.give(parked.token, stored.data === undefined ? { output: stored.output } : stored);
    }
  }
  let misfit: unknown;
  const ending = desk.park(parked, placement, run.signal, (error) => {
    misfit = error;
  });
  // Told once the item is on the desk (and, durable, its checkpoint written), so that an answer given on
  // seeing the event finds it parked and is taken, rather than kept as if it came first.
  if (ev) {
    emitParked(ev, parked, resumed !== undefined);
    if (isSwitchyardError(misfit)) {
      ev.emit({
        type: 'warning',
        code: 'W_ANSWER_IGNORED',
        item: state.id,
        dag: dagId,
        placement: at.key,
        message: `an answer given before item ${state.id} parked does not fit: ${misfit.message}`,
      });
    }
  }
  if (durable !== undefined) run.watchStoredAnswers(durable.recorder.store);
  const end = await ending;
  const wallNow = run.clock.wallNow();
  if (end.kind === 'deadline') {
    if (ev) emitAwaitEnd(ev, parked, undefined, wallNow);
    return transit(run, item, expiredOutcome(), started);
  }
  const outcome = answeredOutcome(at, state, end.answer);
  if (ev) emitAwaitEnd(ev, parked, { output: end.answer.output, early: end.early }, wallNow);
  return transit(run, item, outcome, started);
}
