/**
 * Follows one run for a server-sent event stream: polls the store for the events after the last one sent,
 * says `ready` once it follows the store, `changed` when the run stalls or moves on again without an event (a
 * process that stops renewing its lease leaves none), and `end` when the run ends (a run waiting for an
 * answer has not: it is followed until an answer moves it on and it ends), leaves the store (pruned)
 * or the store file is removed or replaced. SQLite's WAL lets this read-only reader see each commit of the
 * process that runs the run.
 */
import type { SSEStreamingApi } from 'hono/streaming';
import { isLive } from '../store/lease.ts';
import type { StoreAccess } from './store-access.ts';

/** What {@link followRun} needs besides the stream. */
export interface FollowOptions {
  readonly access: StoreAccess;
  readonly runId: string;
  /** The last event sequence number the client has; all events when undefined. */
  readonly after: number | undefined;
  /** Wall time in ms, for the lease. */
  readonly now: () => number;
  readonly pollMs: number;
}

/** One look at the store: the run's new events, the run, and whether it is stalled; or that it is gone. */
async function look(options: FollowOptions, after: number | undefined, file: string | undefined) {
  const held = await options.access.hold();
  if (!held.ok) return undefined;
  try {
    if (file !== undefined && held.file !== file) return undefined;
    const store = held.store;
    const events = await store.readEvents(options.runId, after === undefined ? {} : { after });
    const run = await store.getRun(options.runId);
    if (run === undefined) return undefined;
    const lease = run.status === 'running' ? await store.getLease(options.runId) : undefined;
    const stalled = lease !== undefined && !isLive(lease, options.now());
    return { file: held.file, events, run, stalled };
  } finally {
    held.release();
  }
}

/**
 * Writes the run's events to `stream` as they are recorded, until the run ends or the client goes.
 * @example
 * await followRun(stream, { access, runId, after: 41, now: Date.now, pollMs: 250 });
 */
export async function followRun(stream: SSEStreamingApi, options: FollowOptions): Promise<void> {
  let closed = false;
  stream.onAbort(() => {
    closed = true;
  });
  let after = options.after;
  let file: string | undefined;
  let stalled: boolean | undefined;
  while (!closed) {
    const seen = await look(options, after, file);
    if (seen === undefined) {
      const message = `the run is no longer in ${options.access.shown}: it was pruned, or the file was removed or replaced`;
      await stream.writeSSE({ event: 'end', data: JSON.stringify({ status: 'unknown', message }) });
      return;
    }
    if (seen.events.length > 0) {
      after = seen.events.at(-1)?.seq;
      await stream.writeSSE({
        event: 'events',
        data: JSON.stringify({ status: seen.run.status, events: seen.events.map((e) => e.body) }),
      });
    }
    if (stalled !== undefined && seen.stalled !== stalled) {
      await stream.writeSSE({ event: 'changed', data: JSON.stringify({ stalled: seen.stalled }) });
    }
    stalled = seen.stalled;
    // Said once the stream follows the store: a client may count on what it reads from then on.
    if (file === undefined) await stream.writeSSE({ event: 'ready', data: '{}' });
    file = seen.file;
    // A waiting run moves on again once answered: followed until it ends.
    if (seen.run.status !== 'running' && seen.run.status !== 'waiting') {
      await stream.writeSSE({ event: 'end', data: JSON.stringify({ status: seen.run.status }) });
      return;
    }
    await stream.sleep(options.pollMs);
  }
}
