/**
 * A run whose records are gone from Redis (restarted without persistence, or flushed): its spec, its ledger
 * and its run record went, and with them every way to end it. A worker that meets one says so once per run,
 * in one line, and drops the run's jobs instead of carrying them on into nothing.
 */
import type { Redis } from 'ioredis';
import { isSwitchyardError, type SwitchyardError } from '../errors.ts';
import { redisKeys } from '../store/redis-keys.ts';
import { runLost } from '../store/store-errors.ts';
import type { RunStore } from '../store/types.ts';
import type { OnceLog } from './hand-back.ts';
import { type RunKeys, runKeys } from './keys.ts';

/**
 * True when run `runId`'s ledger is gone and so is its record in the Redis run store under `storePrefix`
 * (when known). A closed run's ledger expires a day after its end while its record stays: such a run is
 * over, not lost.
 */
export async function recordsGone(
  redis: Redis,
  keys: Pick<RunKeys, 'ledger'>,
  runId: string,
  storePrefix: string | undefined,
): Promise<boolean> {
  if ((await redis.exists(keys.ledger)) === 1) return false;
  if (storePrefix === undefined) return true;
  return (await redis.exists(redisKeys(storePrefix).run(runId))) === 0;
}

/** What a worker needs to tell a lost run from a job that failed. */
export interface LostRunCheck {
  readonly redis: Redis;
  /** The key prefix of the runs' keys. */
  readonly prefix: string;
  /** Where Redis is, for the line. */
  readonly location: string;
  /** The run store runs are recorded in, when the worker was given it. */
  readonly store: RunStore | undefined;
  readonly log: OnceLog;
}

/**
 * The error a job of run `runId` that failed with `error` ends with: `E_STORE_RUN_LOST`, said once per
 * run, when the run's ledger is gone and the run store holds no ended record of it (a job whose spec was
 * gone); else `error` itself.
 */
export async function lostRunOr(check: LostRunCheck, runId: string, error: unknown): Promise<unknown> {
  if (isSwitchyardError(error) && error.code === 'E_STORE_RUN_LOST') return said(check, runId, error);
  const gone = await isLost(check, runId).catch(() => false);
  return gone ? said(check, runId, runLost(runId, check.location)) : error;
}

async function isLost(check: LostRunCheck, runId: string): Promise<boolean> {
  if ((await check.redis.exists(runKeys(check.prefix, runId).ledger)) === 1) return false;
  const run = await check.store?.getRun(runId);
  return run === undefined || run.status === 'running';
}

function said(check: LostRunCheck, runId: string, error: SwitchyardError): SwitchyardError {
  check.log.say(
    `lost ${runId}`,
    () =>
      `switchyard worker: run '${runId}' is gone from Redis at ${check.location}: its records were lost (Redis restarted without persistence, or was flushed); this worker drops its jobs`,
  );
  return error;
}
