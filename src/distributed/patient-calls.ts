/**
 * Calls to Redis that wait for an answer: a failure of the connection (one not set to wait for a
 * reconnection itself) is told once, until a call goes through again, and the call is tried again with
 * back-off on the clock. An error Redis answered, or a connection closed for good, is thrown.
 */
import type { Redis } from 'ioredis';
import type { Clock } from '../policy/types.ts';
import { queueDelay } from './slots.ts';

export class PatientCalls {
  private lost = false;

  constructor(
    private readonly redis: Redis,
    private readonly clock: Clock,
    private readonly onLost: ((error: unknown) => void) | undefined,
  ) {}

  /**
   * Sends `send` until it answers; rejects with `signal`'s reason as soon as it aborts, without waiting for
   * Redis to come back (the connection may hold the command until it reconnects).
   */
  async call<T>(send: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let tries = 1; ; tries++) {
      signal?.throwIfAborted();
      try {
        const answer = await (signal === undefined ? send() : untilAborted(send(), signal));
        this.lost = false;
        return answer;
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (isReplyError(error) || this.redis.status === 'end') throw error;
        if (!this.lost) this.onLost?.(error);
        this.lost = true;
        await this.clock.sleep(queueDelay(tries), signal);
      }
    }
  }
}

/** `pending`, or a rejection with `signal`'s reason once it aborts first. */
function untilAborted<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** True for an error Redis answered (a script's error), which trying again would not mend. */
function isReplyError(error: unknown): boolean {
  return error instanceof Error && error.name === 'ReplyError';
}
