/**
 * The lease rules, as pure functions shared by every store: a store reads the current lease, asks here what
 * to do, and writes the answer in the same transaction.
 */
import { leaseHeld, leaseLost } from './store-errors.ts';
import type { Lease, LeaseRequest } from './types.ts';

/** True while `lease` has not expired at `now`; a lease is dead from its `expiresAt` on. */
export function isLive(lease: Lease, now: number): boolean {
  return now < lease.expiresAt;
}

/**
 * The lease a request gets, given the lease held now (if any): a free or expired lease is taken over under
 * the new `token`; a live one fails with `E_STORE_LEASE_HELD` naming its holder.
 */
export function grantLease(current: Lease | undefined, request: LeaseRequest, token: string): Lease {
  if (current !== undefined && isLive(current, request.now)) throw leaseHeld(current);
  checkTtl(request.ttlMs);
  return {
    runId: request.runId,
    token,
    pid: request.holder.pid,
    host: request.holder.host,
    acquiredAt: request.now,
    expiresAt: request.now + request.ttlMs,
  };
}

/**
 * Checks that `lease`, chosen by the caller with its own token and times, may replace the lease held now:
 * a live one (at `lease.acquiredAt`) under another token fails with `E_STORE_LEASE_HELD` naming its holder.
 */
export function checkTakeover(current: Lease | undefined, lease: Lease): void {
  if (current !== undefined && current.token !== lease.token && isLive(current, lease.acquiredAt)) {
    throw leaseHeld(current);
  }
  checkTtl(lease.expiresAt - lease.acquiredAt);
}

/**
 * The lease after a heartbeat at `now`: the same holding, expiring `ttlMs` later. Fails with
 * `E_STORE_LEASE_LOST` when the lease was released or another holder took it. A lease past its expiry that
 * nobody took is still the holder's, so a late heartbeat keeps it.
 */
export function renewedLease(current: Lease | undefined, lease: Lease, now: number, ttlMs: number): Lease {
  if (current === undefined || current.token !== lease.token) throw leaseLost(lease, current);
  checkTtl(ttlMs);
  return { ...current, expiresAt: Math.max(current.expiresAt, now + ttlMs) };
}

function checkTtl(ttlMs: number): void {
  if (!(Number.isFinite(ttlMs) && ttlMs > 0)) {
    throw new RangeError(`a lease needs a positive, finite ttlMs (got ${ttlMs})`);
  }
}
