import type { AnswerDesk } from '../awaits/desk.ts';
import type { Clock } from '../policy/types.ts';
import type { RunStore } from '../store/types.ts';

/** The first look for answers after an item parks, ms; each look that finds none doubles it, up to the cap. */
const FIRST_LOOK_MS = 250;
/** The longest time between two looks, ms: an answer given by another process is taken within it. */
const LAST_LOOK_MS = 5_000;

/**
 * Looks in a durable run's store for answers given by another process (`switchyard answer`, another
 * dispatcher) while items of the run are parked in this one, and hands each to the item it is for. Runs
 * while anything is parked; the looks grow further apart while none come, so that a long wait costs little.
 * `done` is called in the same turn as the look that finds nothing parked, so that an item parking next
 * starts a new look-out.
 */
export async function pollAnswers(
  store: RunStore,
  runId: string,
  desk: AnswerDesk,
  clock: Clock,
  signal: AbortSignal,
  done: () => void,
): Promise<void> {
  try {
    await look(store, runId, desk, clock, signal, FIRST_LOOK_MS);
  } finally {
    done();
  }
}

async function look(
  store: RunStore,
  runId: string,
  desk: AnswerDesk,
  clock: Clock,
  signal: AbortSignal,
  first: number,
): Promise<void> {
  let gap = first;
  while (desk.parkedCount > 0 && !signal.aborted) {
    await clock.sleep(gap, signal);
    let found = false;
    for (const answer of await store.listAnswers(runId)) {
      if (desk.placementOf(answer.token) === undefined || desk.hasAnswer(answer.token)) continue;
      const given =
        answer.data === undefined ? { output: answer.output } : { output: answer.output, data: answer.data };
      try {
        desk.give(answer.token, given);
        found = true;
      } catch {
        // Checked when it was recorded; a placement changed since then leaves the item to its deadline.
      }
    }
    gap = found ? FIRST_LOOK_MS : Math.min(gap * 2, LAST_LOOK_MS);
  }
}
