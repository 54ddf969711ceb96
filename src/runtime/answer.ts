import {
  type AnswerReceipt,
  type AnswerRequest,
  admittedAnswer,
  awaitsOf,
  resolveAnswer,
} from '../awaits/request.ts';
import { alreadyAnswered, recordAnswer } from '../awaits/stored.ts';
import type { Dag } from '../document/model.ts';
import { isSwitchyardError, SwitchyardError } from '../errors.ts';
import type { Clock } from '../policy/types.ts';
import type { RunStore } from '../store/types.ts';
import { reachableDags } from './admit.ts';
import type { RunContext } from './runner.ts';

/** The runs a dispatcher is carrying out now, by id: where an answer given to it goes. */
export type LiveRuns = Map<string, RunContext>;

/**
 * Gives an answer to a run (see `Dispatcher.answer`): to the run itself when this dispatcher carries it
 * out now (recorded first in its store when it is durable), else recorded in `store` for the run to take
 * when it goes on. Refusals (`E_ANSWER`, `E_ALREADY_ANSWERED`, `E_UNKNOWN_TOKEN`, an unknown or ended run)
 * change nothing.
 */
export async function answerRun(
  live: LiveRuns,
  store: RunStore | undefined,
  request: AnswerRequest,
  clock: Clock,
): Promise<AnswerReceipt> {
  checkRequest(request);
  const run = live.get(request.runId);
  if (run === undefined) {
    if (store === undefined) {
      throw new SwitchyardError(
        'E_RESUME_UNKNOWN_RUN',
        `no run '${request.runId}' runs in this dispatcher, and it has no store to record the answer in; give the dispatcher the run's store`,
      );
    }
    return recordAnswer(store, request, clock.wallNow());
  }
  const desk = run.desk;
  const root = run.rootDag as Dag;
  const index = awaitsOf(reachableDags(root, { get: (iri) => run.env.prepareIri(iri)?.compiled.dag }));
  const resolved = resolveAnswer(request, desk.parked(), root.id, index, run.inputItems);
  const { token } = resolved;
  if (desk.hasAnswer(token)) throw alreadyAnswered(token);
  const answer = admittedAnswer(request, resolved, index.awaits);
  const durable = run.durable;
  if (durable !== undefined) {
    const at = clock.wallNow();
    try {
      await durable.recorder.store.commit([
        { kind: 'answer', answer: { runId: request.runId, token, ...answer, answeredAt: at } },
      ]);
    } catch (error) {
      if (isSwitchyardError(error) && error.code === 'E_STORE_CONFLICT') throw alreadyAnswered(token);
      throw error;
    }
  }
  // The store's look-out may have handed the recorded answer over while it was being committed.
  const status = desk.hasAnswer(token) ? 'taken' : desk.give(token, answer);
  const parked = resolved.parked;
  return parked === undefined
    ? { runId: request.runId, token, output: answer.output, status }
    : {
        runId: request.runId,
        token,
        output: answer.output,
        status,
        item: parked.item,
        placement: parked.placement,
      };
}

/** Refuses a request that is no answer at all, before anything is looked up (`E_ANSWER`). */
export function checkRequest(request: AnswerRequest): void {
  if (request === null || typeof request !== 'object') {
    throw new SwitchyardError(
      'E_ANSWER',
      'an answer is an object: { runId, token, output, data? }; give one',
    );
  }
  if (typeof request.runId !== 'string' || request.runId === '') {
    throw new SwitchyardError('E_ANSWER', "an answer names the run it is for; give runId (the run's id)");
  }
  if (typeof request.output !== 'string' || request.output === '') {
    throw new SwitchyardError('E_ANSWER', 'an answer names the output it takes; give output (e.g. approved)');
  }
}
