/**
 * A run whose records are gone from Redis (restarted without persistence, flushed, or its ledger evicted):
 * its ledger went, and with it every way to end it. A worker that meets one says so once per run, in one
 * line, and drops the run's jobs instead of carrying them on into nothing; a follower or an abort waiting
 * for one fails with `E_STORE_RUN_LOST`.
 */
import type { Redis } from 'ioredis';
import { isSwitchyardError, type SwitchyardError } from '../errors.ts';
import { runLost, runLostFact } from '../store/store-errors.ts';
import type { RunStore } from '../store/types.ts';
import type { OnceLog } from './hand-back.ts';
import { runKeys } from './keys.ts';

/** Where a run's fate is read: its ledger in Redis, and the run store it is recorded in (when known). */
export interface RunWhereabouts {
  readonly redis: Redis;
  /** The key of the run's ledger. */
  readonly ledger: string;
  readonly store: Pick<RunStore, 'getRun'> | undefined;
}

/**
 * True when run `runId` is lost: its ledger is gone and the run store holds no ended record of it (none, or
 * one still `running`; with no store known, the ledger alone decides). A run that ended keeps its ended
 * record after its ledger expires, a day after its end: such a run is over, not lost. The ledger is read
 * first, so that a run that goes on costs one lookup.
 */
export async function runIsLost(where: RunWhereabouts, runId: string): Promise<boolean> {
  if ((await where.redis.exists(where.ledger)) === 1) return false;
  const run = await where.store?.getRun(runId);
  return run === undefined || run.status === 'running';
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
 * run, when the run is lost (see {@link runIsLost}; a job whose spec was gone); else `error` itself.
 */
export async function lostRunOr(check: LostRunCheck, runId: string, error: unknown): Promise<unknown> {
  if (isSwitchyardError(error) && error.code === 'E_STORE_RUN_LOST') return said(check, runId, error);
  const where = { redis: check.redis, ledger: runKeys(check.prefix, runId).ledger, store: check.store };
  const gone = await runIsLost(where, runId).catch(() => false);
  return gone ? said(check, runId, runLost(runId, check.location)) : error;
}

function said(check: LostRunCheck, runId: string, error: SwitchyardError): SwitchyardError {
  check.log.say(
    `lost ${runId}`,
    () => `switchyard worker: ${runLostFact(runId, check.location)}; this worker drops its jobs`,
  );
  return error;
}
