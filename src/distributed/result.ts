import type { ItemState } from '../runtime/item-state.ts';
import { ResultLists } from '../runtime/result-lists.ts';
import type { PhaseError, RunResult } from '../runtime/run.ts';
import type { EndingReport, Tally } from './report.ts';

/** An input item's ending as the submitter received it. */
export interface Ended {
  readonly ending: EndingReport;
  readonly state: ItemState;
}

/**
 * A run's status from its endings and its failed phases: aborted when an item was stopped, completed when
 * every item completed and no phase failed, else failed.
 */
export function closingStatus(
  items: number,
  completed: number,
  stopped: number,
  phaseErrors = 0,
): RunResult['status'] {
  if (stopped > 0) return 'aborted';
  return completed === items && phaseErrors === 0 ? 'completed' : 'failed';
}

/**
 * The result of a distributed run, shaped as a local run's: every input item, in input order, in exactly
 * one of `items`, `failures` and `aborted`.
 */
export function assembleResult(
  runId: string,
  dag: string,
  hash: string,
  ended: readonly Ended[],
  tally: Tally,
  durationMs: number,
  phaseErrors: readonly PhaseError[] = [],
): RunResult {
  const lists = new ResultLists();
  for (const { ending, state } of ended) {
    if (ending.kind === 'terminal') lists.terminal(state, ending.placement, ending.outcome);
    else if (ending.kind === 'failed') lists.failed(state, ending.placement, ending.error);
    else lists.stopped(state, ending.placement, ending.waitingFor);
  }
  const { items, failures, aborted, byTerminal, completed } = lists;
  const status = closingStatus(ended.length, completed, aborted.length, phaseErrors.length);
  return {
    runId,
    dag,
    hash,
    status,
    items,
    failures,
    aborted,
    phaseErrors,
    stats: { ...tally, durationMs, byTerminal },
  };
}
