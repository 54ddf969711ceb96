/**
 * A run's events in any store: the checks of a query and of a page of events written as one record, and
 * streaming page by page.
 */
import { SwitchyardError } from '../errors.ts';
import { conflict } from './store-errors.ts';
import type { EventPageWrite, EventQuery, EventRecord } from './types.ts';

/** Refuses an event query every store would read differently: `after` must be a number, `limit` a whole one ≥ 0. */
export function checkEventQuery(query: EventQuery): void {
  if (query.after !== undefined && Number.isNaN(query.after)) {
    throw new SwitchyardError('E_USAGE', 'events are read after a sequence number; pass a number as after');
  }
  if (query.limit !== undefined && !(Number.isInteger(query.limit) && query.limit >= 0)) {
    throw new SwitchyardError('E_USAGE', `events are read a whole number at a time (got ${query.limit})`);
  }
}

/** Events per page when a stream sets no page size. */
export const DEFAULT_EVENT_PAGE = 500;

/**
 * Yields every event after `after`, reading `pageSize` at a time until a page comes back short; events
 * appended while the stream is read are yielded too, since each page starts after the last event yielded.
 */
export async function* pageEvents(
  read: (after: number | undefined, limit: number) => Promise<readonly EventRecord[]>,
  after: number | undefined,
  pageSize: number = DEFAULT_EVENT_PAGE,
): AsyncGenerator<EventRecord> {
  if (!(Number.isInteger(pageSize) && pageSize > 0)) {
    throw new RangeError(`an event stream needs a positive whole page size (got ${pageSize})`);
  }
  let from = after;
  for (;;) {
    const page = await read(from, pageSize);
    for (const event of page) yield event;
    const last = page.at(-1);
    if (last === undefined || page.length < pageSize) return;
    from = last.seq;
  }
}

/**
 * Refuses a page of events every store would misread: each event must belong to the page's run and come
 * after the one before it. Returns the page's first and last seq, or undefined for an empty page.
 */
export function checkEventPage(write: EventPageWrite): { first: number; last: number } | undefined {
  const { runId, events } = write;
  let last = Number.NEGATIVE_INFINITY;
  for (const event of events) {
    if (event.runId !== runId) {
      throw new SwitchyardError(
        'E_USAGE',
        `event ${event.seq} of run '${event.runId}' was written in a page of run '${runId}'; page each run's events apart`,
      );
    }
    if (!(event.seq > last)) {
      throw new SwitchyardError(
        'E_USAGE',
        `event ${event.seq} follows event ${last} in a page of run '${runId}'; order a page by increasing seq`,
      );
    }
    last = event.seq;
  }
  const first = events[0]?.seq;
  return first === undefined ? undefined : { first, last };
}

/** The conflict of events `first` to `last` of a run with events already stored. */
export function eventsTaken(runId: string, first: number, last: number): SwitchyardError {
  const what =
    first === last
      ? `event ${first} of run '${runId}' is already stored, or lies within a stored page of events`
      : `events ${first} to ${last} of run '${runId}' overlap events already stored`;
  return conflict(`${what}; number each event once`);
}
