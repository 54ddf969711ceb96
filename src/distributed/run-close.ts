/**
 * Closing a distributed run, done by the worker whose job ended its last input item (or by the process
 * that aborted it, when that ended the last item), or by the job of the run's post phases: the run's `run.end` event and final status go to the run
 * store in one batch, and the run's working keys are deleted. The ledger stays a day, so that a follower
 * reads the run's counters after its end; then Redis expires it.
 */
import { isSwitchyardError } from '../errors.ts';
import type { Clock } from '../policy/types.ts';
import { openRedisStore } from '../store/redis.ts';
import { gatheredJobId } from './gather-record.ts';
import { readLedger, reserveClosing } from './ledger.ts';
import { closingStatus } from './result.ts';
import type { Wiring } from './scatter-jobs.ts';

/** How long a closed run's ledger is kept (ms). */
export const CLOSED_LEDGER_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Closes run `runId`: writes `run.end` at the seq reserved for it and the status, marks the ledger closed
 * and deletes the spec and gather records. Doing it again (a closer whose job ran again after its worker
 * died) writes nothing twice.
 */
export async function closeRun(
  wiring: Wiring,
  runId: string,
  storePrefix: string,
  clock: Clock,
): Promise<void> {
  const { redis, keys } = wiring;
  const reserved = await reserveClosing(redis, keys);
  const ledger = reserved === undefined ? undefined : await readLedger(redis, keys);
  if (reserved === undefined || ledger === undefined || ledger.closed) return;
  const status = closingStatus(ledger.items, ledger.completed, ledger.stopped, ledger.phaseErrors.length);
  const durationMs = Math.max(0, reserved.now - ledger.start);
  const body = {
    seq: reserved.seq,
    time: durationMs,
    runId,
    type: 'run.end',
    dag: ledger.dag,
    status,
    completed: ledger.completed,
    failed: ledger.items - ledger.completed,
    durationMs,
  };
  // The store's optimistic transactions need a connection of their own (WATCH belongs to a connection).
  const connection = redis.duplicate();
  connection.on('error', () => undefined);
  const store = await openRedisStore(connection, { prefix: storePrefix });
  try {
    const at = clock.wallNow();
    await store.commit([
      { kind: 'event', event: { runId, seq: reserved.seq, type: 'run.end', body } },
      { kind: 'run-status', update: { runId, status, at, finishedAt: at } },
    ]);
  } catch (error) {
    // Another closer wrote the run's end first.
    if (!(isSwitchyardError(error) && error.code === 'E_STORE_CONFLICT')) throw error;
  } finally {
    await store.close();
    connection.disconnect();
  }
  await redis
    .multi()
    .hset(keys.ledger, 'closed', '1')
    .pexpire(keys.ledger, CLOSED_LEDGER_TTL_MS)
    .pexpire(keys.ended, CLOSED_LEDGER_TTL_MS)
    // Reports of a closed run are not written, so their ids are no longer needed.
    .del(keys.reported)
    .exec();
  const gathers = await redis.smembers(keys.gathers);
  for (const key of gathers) await wiring.queue.remove(gatheredJobId(key));
  await redis.del(keys.spec, keys.gathers, keys.claimed, keys.parked, keys.settled, ...gathers);
}
