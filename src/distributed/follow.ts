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
import type { RunStore } from '../store/types.ts';
import type { RunKeys } from './keys.ts';
import { readLedger } from './ledger.ts';
import { unstamped } from './report.ts';
import { assembleResult, type Ended } from './result.ts';
import { endedOf } from './run-record.ts';

/** Events read from the store per round trip. */
const PAGE = 1000;
/** The first and the longest pause between reads that found nothing new (ms). */
const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 50;

/** What a follower reads and where it writes. */
export interface Following {
  readonly redis: Redis;
  readonly store: RunStore;
  readonly keys: RunKeys;
  readonly runId: string;
  readonly clock: Clock;
  /** Stops following (the dispatcher closed). */
  readonly signal: AbortSignal;
}

/**
 * Emits the run's stored events on `stream` in seq order, as they come, until its `run.end`; then answers
 * the run's result. Pauses between reads that find nothing grow from 2 to 50 ms.
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
      continue;
    }
    await clock.sleep(pause, signal).catch(() => undefined);
    if (signal.aborted) throw stopped();
    pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
  }
  return storedResult(following, end.dag, hash, end.durationMs);
}

/** The result of an ended run, from its input items' checkpoints and its ledger. */
export async function storedResult(
  following: Pick<Following, 'redis' | 'store' | 'keys' | 'runId'>,
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
  return assembleResult(runId, dag, hash, ended, { ...tally }, durationMs);
}
