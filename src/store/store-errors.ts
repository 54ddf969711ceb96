/**
 * The errors every run store gives for the same mistakes, built in one place so that the memory and SQLite
 * stores say the same thing. Each is one line: what is wrong, then what to do.
 */
import { SwitchyardError } from '../errors.ts';
import type { Lease } from './types.ts';

/** A write names a run the store does not hold. */
export function unknownRun(runId: string, what: string): SwitchyardError {
  return new SwitchyardError(
    'E_STORE_UNKNOWN_RUN',
    `cannot write ${what} of run '${runId}': the store holds no such run; write the run first`,
  );
}

/** A write would replace a record that must stay as it was written. */
export function conflict(message: string): SwitchyardError {
  return new SwitchyardError('E_STORE_CONFLICT', message);
}

/** A new run's id is one the store already holds. */
export function runTaken(runId: string): SwitchyardError {
  return conflict(`a run with id '${runId}' is already stored; give each run a new id`);
}

/** An answer names a token of a run that already has one: the first answer given stays. */
export function alreadyAnswered(runId: string, token: string): SwitchyardError {
  return conflict(
    `token '${token}' of run '${runId}' was already answered; an await takes one answer, and the first one given stays (read it with getAnswer)`,
  );
}

/** Someone else holds the run's lease and it has not expired. */
export function leaseHeld(held: Lease): SwitchyardError {
  return new SwitchyardError(
    'E_STORE_LEASE_HELD',
    `run '${held.runId}' is held by process ${held.pid} on ${held.host} until ${new Date(held.expiresAt).toISOString()}; ` +
      'wait for that process to end (or for its lease to expire) and try again',
  );
}

/** A renewal found the lease gone or taken over. */
export function leaseLost(lease: Lease, now?: Lease): SwitchyardError {
  const by = now === undefined ? 'released' : `taken over by process ${now.pid} on ${now.host}`;
  return new SwitchyardError(
    'E_STORE_LEASE_LOST',
    `the lease of run '${lease.runId}' was ${by}; stop moving this run on, another process owns it`,
  );
}

/** The store was used after `close()`. */
export function closed(location: string): SwitchyardError {
  return new SwitchyardError(
    'E_STORE_CLOSED',
    `the run store ${location} is closed; open it again to use it`,
  );
}

/**
 * The records of a run that was being followed or carried are gone from the Redis at `location`: it was
 * restarted without persistence, or flushed, so nothing can end the run.
 */
export function runLost(runId: string, location: string): SwitchyardError {
  return new SwitchyardError(
    'E_STORE_RUN_LOST',
    `${runLostFact(runId, location)}, so no worker can end it; submit it again, and give Redis persistence (appendonly yes) to keep runs across restarts`,
  );
}

/** What {@link runLost} says happened, for a line that says what is done about it (a worker's). */
export function runLostFact(runId: string, location: string): string {
  return `run '${runId}' is gone from Redis at ${location}: its records were lost (Redis restarted without persistence, or was flushed)`;
}
