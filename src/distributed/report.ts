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
 * (as text without their stamp: the ledger numbers them with the run-wide seq), the counters it added, and
 * the item's ending when an input item ended.
 */
export interface Report {
  readonly events: ReportEvents;
  readonly tally: Tally;
  readonly end?: { readonly ending: EndingReport; readonly state: ItemState };
}

/** `count` events' JSON texts without `seq`, `time` and `runId` (see {@link eventText}), joined by commas. */
export interface JoinedEvents {
  readonly count: number;
  readonly text: string;
}

/** A report's events: each event's JSON text without `seq`, `time` and `runId`, or several already joined. */
export type ReportEvents = readonly string[] | JoinedEvents;

/** An event as a stream stamped it, back to its body. */
export function unstamped(event: RunEvent): EventBody {
  const { seq: _seq, time: _time, runId: _runId, ...body } = event;
  return body as EventBody;
}

/** The end of the JSON text of every event a stream of run `runId` stamped (see {@link eventText}). */
export function runIdTail(runId: string): string {
  return `,"runId":${JSON.stringify(runId)}}`;
}

/**
 * An event as a worker's stream of one run stamped it, as the text a report carries: its body's JSON text
 * without `seq`, `time` and `runId`. The stream stamps a body by adding those three last, so they are cut
 * off its text (`tail` is {@link runIdTail} of the run); a body that holds them elsewhere is written again
 * without them.
 */
export function eventText(event: RunEvent, tail: string): string {
  const text = JSON.stringify(event);
  const end = text.length - tail.length;
  const seq = text.lastIndexOf(',"seq":', end);
  const time = text.lastIndexOf(',"time":', end);
  // Between `seq` and the run id only numbers and the key of `time`, so no other key.
  if (
    seq > 0 &&
    time > seq &&
    text.endsWith(tail) &&
    text.indexOf('"', seq + 6) === time + 1 &&
    text.indexOf('"', time + 7) === end + 1
  ) {
    return `${text.slice(0, seq)}}`;
  }
  return JSON.stringify(unstamped(event));
}

/** An ending as JSON. */
export function endingReport(ending: Ending): EndingReport {
  return ending.kind === 'failed'
    ? { kind: 'failed', placement: ending.placement, error: summarise(ending.error) }
    : ending;
}
