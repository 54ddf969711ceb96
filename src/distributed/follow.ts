/**
 * Following a distributed run from its run store: its events in seq order, as the workers write them, into
 * a local event stream, until the `run.end` the closing worker writes; then the result, assembled from the
 * stored endings of the input items and the ledger's counters, shaped as a local run's.
 */
import type { Redis } from 'ioredis';
import { SwitchyardError } from '../errors.ts';
import type { Clock } from '../policy/types.ts';
import type { EventStream } from '../runtime/event-stream.ts';
import type { RunEvent } from '../runtime/events.ts';
import type { RunResult } from '../runtime/run.ts';
import { emptyTally } from '../runtime/run-scope.ts';
import type { RedisRunStore } from '../store/redis.ts';
import { runLost } from '../store/store-errors.ts';
import type { RunStore } from '../store/types.ts';
import type { RunKeys } from './keys.ts';
import { readLedger } from './ledger.ts';
import { unstamped } from './report.ts';
import { assembleResult, type Ended } from './result.ts';
import { runIsLost } from './run-lost.ts';
import { endedOf } from './run-record.ts';

/** Events read from the store per round trip. */
const PAGE = 1000;
/** The first and the longest pause between reads that found nothing new (ms). */
const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 50;
/** How long a follower hears nothing new before it checks again that the run's records are in Redis (ms). */
const LOST_CHECK_MS = 500;

/** What a follower reads and where it writes. */
export interface Following {
  readonly redis: Redis;
  readonly store: RedisRunStore;
  readonly keys: RunKeys;
  readonly runId: string;
  readonly clock: Clock;
  /** Stops following (the dispatcher closed). */
  readonly signal: AbortSignal;
}

/**
 * Emits the run's stored events on `stream` in seq order, as they come, until its `run.end`; then answers
 * the run's result. Pauses between reads that find nothing grow from 2 to 50 ms. While nobody listens to
 * `stream`, it reads only the run's ledger until the run closes, not its events (see {@link waitQuietly});
 * a listener that comes later hears the events from then on, as on a local run. A run lost from Redis
 * (restarted without persistence, or flushed; see {@link runIsLost}) fails with `E_STORE_RUN_LOST`
 * within {@link LOST_CHECK_MS} of its last event, instead of being waited for forever.
 */
export async function followRun(following: Following, stream: EventStream): Promise<RunResult> {
  const { store, runId, clock, signal } = following;
  let after: number | undefined;
  let pause = FIRST_PAUSE_MS;
  let hash = '';
  let end: { dag: string; durationMs: number } | undefined;
  const stopped = () =>
    new SwitchyardError(
      'E_ABORTED',
      `stopped following run '${runId}': the dispatcher was closed; the workers carry the run on (see switchyard runs show ${runId})`,
    );
  if (!stream.active) {
    const quiet = await waitQuietly(following, stream).catch((error: unknown) => {
      throw signal.aborted ? stopped() : error;
    });
    if (quiet.kind === 'ended') return storedResult(following, quiet.dag, quiet.hash, quiet.durationMs);
    after = quiet.after;
    // The listener hears the stored seqs from there on, as every listener of the run does.
    if (after !== undefined) stream.continueAfter(after);
  }
  let checked = clock.now();
  while (end === undefined) {
    if (signal.aborted) throw stopped();
    // A read cut off by the dispatcher closing its store is the close's, not a fault of the store.
    const events = await store
      .readEvents(runId, after === undefined ? { limit: PAGE } : { after, limit: PAGE })
      .catch((error: unknown) => {
        throw signal.aborted ? stopped() : error;
      });
    for (const event of events) {
      after = event.seq;
      const stamped = event.body as RunEvent;
      const body = unstamped(stamped);
      const time = typeof stamped.time === 'number' ? stamped.time : 0;
      if (body.type === 'run.start') hash = body.hash;
      stream.emit(body, time);
      if (body.type === 'run.end') {
        end = { dag: body.dag, durationMs: body.durationMs };
        break;
      }
    }
    if (end !== undefined) break;
    if (events.length > 0) {
      pause = FIRST_PAUSE_MS;
      checked = clock.now();
      continue;
    }
    // A run that goes quiet is checked now and then: a Redis restarted empty or flushed took its records,
    // and its `run.end` would never come. The closer writes `run.end` before it marks the ledger closed,
    // and a closed ledger stays a day, so a run that ended is never taken for a lost one.
    if (clock.now() - checked >= LOST_CHECK_MS) {
      checked = clock.now();
      const where = { redis: following.redis, ledger: following.keys.ledger, store };
      const gone = await runIsLost(where, runId).catch((error: unknown) => {
        throw signal.aborted ? stopped() : error;
      });
      if (gone) throw runLost(runId, store.location);
    }
    await clock.sleep(pause, signal).catch(() => undefined);
    if (signal.aborted) throw stopped();
    pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
  }
  return storedResult(following, end.dag, hash, end.durationMs);
}

/** How a quiet wait ended: the run closed, or a listener came (events after `after` are for it). */
type QuietEnd =
  | { readonly kind: 'ended'; readonly dag: string; readonly hash: string; readonly durationMs: number }
  | { readonly kind: 'listening'; readonly after: number | undefined };

/**
 * Waits for a run nobody listens to by reading its ledger (`closed`, the seq of `run.end`, the next seq),
 * not its events, so that following costs Redis and this process next to nothing per event. Answers the
 * run's end (read from its `run.start` and `run.end`) once the ledger says it is closed, or where a
 * listener that came starts hearing events; a run whose ledger is gone is read from its events instead.
 */
async function waitQuietly(following: Following, stream: EventStream): Promise<QuietEnd> {
  const { redis, store, keys, runId, clock, signal } = following;
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    const [closed, closing, seq] = await redis.hmget(keys.ledger, 'closed', 'closing', 'seq');
    if (seq === null) return { kind: 'listening', after: undefined };
    if (closed !== null && closing !== null) {
      const [start, last] = await Promise.all([
        store.readEvents(runId, { limit: 1 }),
        store.readEvents(runId, { after: Number(closing) - 1, limit: 1 }),
      ]);
      const first = start[0]?.body as RunEvent | undefined;
      const ending = last[0]?.body as RunEvent | undefined;
      if (ending?.type !== 'run.end') return { kind: 'listening', after: undefined };
      const hash = first?.type === 'run.start' ? first.hash : '';
      return { kind: 'ended', dag: ending.dag, hash, durationMs: ending.durationMs };
    }
    if (stream.active) return { kind: 'listening', after: Number(seq) - 1 };
    await clock.sleep(pause, signal);
    pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
  }
}

/** The result of an ended run, from its input items' checkpoints and its ledger. */
export async function storedResult(
  following: Pick<Following, 'redis' | 'keys' | 'runId'> & { readonly store: RunStore },
  dag: string,
  hash: string,
  durationMs: number,
): Promise<RunResult> {
  const { redis, store, keys, runId } = following;
  const [checkpoints, ledger] = await Promise.all([
    store.listCheckpoints(runId, 'ended'),
    readLedger(redis, keys),
  ]);
  // Input items are numbered from 1 in input order; a scatter child's id has a dot and is not listed here.
  const ended: Ended[] = checkpoints
    .filter((checkpoint) => /^\d+$/u.test(checkpoint.itemId))
    .sort((a, b) => Number(a.itemId) - Number(b.itemId))
    .map(endedOf);
  const tally = ledger?.counters ?? emptyTally();
  return assembleResult(runId, dag, hash, ended, { ...tally }, durationMs, ledger?.phaseErrors ?? []);
}
