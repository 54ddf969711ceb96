import type { Dag } from '../document/model.ts';
import { isSwitchyardError, SwitchyardError } from '../errors.ts';
import type { ItemCheckpoint, RunRecord, RunStore } from '../store/types.ts';
import type { ParkedItem } from './desk.ts';
import {
  type AnswerReceipt,
  type AnswerRequest,
  admittedAnswer,
  awaitsOf,
  resolveAnswer,
} from './request.ts';

/** The parked item a checkpoint records, or undefined when it is not parked at an await. */
export function parkedOfCheckpoint(checkpoint: ItemCheckpoint): ParkedItem | undefined {
  const { position } = checkpoint;
  const wait = position.wait;
  if (checkpoint.status !== 'waiting' || wait?.reason !== 'await' || wait.token === undefined)
    return undefined;
  return {
    token: wait.token,
    item: checkpoint.itemId,
    dag: position.dag,
    placement: position.placement,
    visit: position.visit,
    answers: wait.answers ?? [],
    deadlineAt: wait.until,
    parkedAt: wait.since ?? checkpoint.updatedAt,
  };
}

/** The items of a recorded run parked at await placements, in the order they were first written. */
export async function storedParked(store: RunStore, runId: string): Promise<ParkedItem[]> {
  const parked: ParkedItem[] = [];
  for (const checkpoint of await store.listCheckpoints(runId, 'waiting')) {
    const item = parkedOfCheckpoint(checkpoint);
    if (item !== undefined) parked.push(item);
  }
  return parked;
}

/** The documents a run recorded (its DAG and those it embeds), as models. */
export function recordedDags(record: RunRecord): Dag[] {
  return [record.dag, ...record.documents]
    .map((doc) => doc.document as Dag | undefined)
    .filter((dag): dag is Dag => dag !== undefined && Array.isArray(dag.placements));
}

/**
 * Records an answer in a run's store, for the run to take when it goes on (a resume, or the process that
 * runs it, which looks for answers in its store): checked as the run would check it, against the parked
 * item's placement (or, for an item yet to park, every await of the run's documents), and refused when the
 * item's deadline has passed (`now`, wall time), when the token has an answer (`E_ALREADY_ANSWERED`) or the
 * run has ended (`E_RUN_FINISHED`). A refusal writes nothing.
 */
export async function recordAnswer(
  store: RunStore,
  request: AnswerRequest,
  now: number,
): Promise<AnswerReceipt> {
  const { runId } = request;
  const record = await recordedRun(store, runId);
  if (record.status === 'completed' || record.status === 'failed') {
    throw new SwitchyardError(
      'E_RUN_FINISHED',
      `run '${runId}' already ended (${record.status}): nothing in it waits for an answer`,
    );
  }
  const index = awaitsOf(recordedDags(record));
  const items = (record.options as { readonly items?: unknown } | null)?.items;
  const parkedNow = await storedParked(store, runId);
  const resolved = resolveAnswer(
    request,
    parkedNow,
    record.dag.iri,
    index,
    typeof items === 'number' ? items : 0,
  );
  const parked = resolved.parked;
  if (parked !== undefined && parked.deadlineAt <= now) {
    throw new SwitchyardError(
      'E_ANSWER',
      `item ${parked.item} passed its deadline at '${parked.placement}' (${new Date(parked.deadlineAt).toISOString()}); it takes its deadline route when the run goes on (\`switchyard resume ${runId}\`)`,
    );
  }
  const answer = admittedAnswer(request, resolved, index.awaits);
  const token = resolved.token;
  if ((await store.getAnswer(runId, token)) !== undefined) throw alreadyAnswered(token);
  try {
    await store.commit([{ kind: 'answer', answer: { runId, token, ...answer, answeredAt: now } }]);
  } catch (error) {
    if (isSwitchyardError(error) && error.code === 'E_STORE_CONFLICT') throw alreadyAnswered(token);
    throw error;
  }
  return parked === undefined
    ? { runId, token, output: answer.output, status: 'recorded' }
    : {
        runId,
        token,
        output: answer.output,
        status: 'recorded',
        item: parked.item,
        placement: parked.placement,
      };
}

/** The record of the run an answer is for, or `E_RESUME_UNKNOWN_RUN` when the store has none. */
export async function recordedRun(store: RunStore, runId: string): Promise<RunRecord> {
  const record = await store.getRun(runId);
  if (record === undefined) {
    throw new SwitchyardError(
      'E_RESUME_UNKNOWN_RUN',
      `no run '${runId}' in ${store.location}; list the runs with \`switchyard runs\``,
    );
  }
  return record;
}

/** The refusal of a second answer. */
export function alreadyAnswered(token: string): SwitchyardError {
  return new SwitchyardError(
    'E_ALREADY_ANSWERED',
    `token ${token} was already answered; an await takes one answer, the first (see it with \`switchyard runs show\`)`,
  );
}
