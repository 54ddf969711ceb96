import { summarise } from '../runtime/error-summary.ts';
import type { EventBody } from '../runtime/event-stream.ts';
import type { ErrorSummary, RunEvent } from '../runtime/events.ts';
import type { ItemState } from '../runtime/item-state.ts';
import type { WaitingFor } from '../runtime/run.ts';
import type { Tally } from '../runtime/run-scope.ts';
import type { Ending } from '../runtime/runner.ts';

/** The counters of a run a worker adds to with one job. */
export type { Tally } from '../runtime/run-scope.ts';

/** How an item ended, as JSON: a failure carries its error's summary. */
export type EndingReport =
  | { readonly kind: 'terminal'; readonly placement: string; readonly outcome: 'completed' | 'failed' }
  | { readonly kind: 'failed'; readonly placement: string; readonly error: ErrorSummary }
  | { readonly kind: 'stopped'; readonly placement: string; readonly waitingFor: WaitingFor };

/**
 * What a worker writes to a run's ledger and run store after each job (see `ledger.ts`): the job's events
 * (unstamped: the ledger numbers them with the run-wide seq), the counters it added, and the item's ending
 * when an input item ended.
 */
export interface Report {
  readonly events: readonly EventBody[];
  readonly tally: Tally;
  readonly end?: { readonly ending: EndingReport; readonly state: ItemState };
}

/** An event as a worker's stream stamped it, back to its body. */
export function unstamped(event: RunEvent): EventBody {
  const { seq: _seq, time: _time, runId: _runId, ...body } = event;
  return body as EventBody;
}

/** An ending as JSON. */
export function endingReport(ending: Ending): EndingReport {
  return ending.kind === 'failed'
    ? { kind: 'failed', placement: ending.placement, error: summarise(ending.error) }
    : ending;
}
