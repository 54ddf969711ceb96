/** Streaming a run's events page by page, for any store that can read a page after a sequence number. */
import type { EventRecord } from './types.ts';

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
