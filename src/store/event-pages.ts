/** Reading a run's events: the checks of a query, and streaming page by page for any store. */
import { SwitchyardError } from '../errors.ts';
import type { EventQuery, EventRecord } from './types.ts';

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
