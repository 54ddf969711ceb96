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

  /** Sends `send` until it answers. */
  async call<T>(send: () => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      try {
        const answer = await send();
        this.lost = false;
        return answer;
      } catch (error) {
        if (isReplyError(error) || this.redis.status === 'end') throw error;
        if (!this.lost) this.onLost?.(error);
        this.lost = true;
        await this.clock.sleep(queueDelay(tries));
      }
    }
  }
}

/** True for an error Redis answered (a script's error), which trying again would not mend. */
function isReplyError(error: unknown): boolean {
  return error instanceof Error && error.name === 'ReplyError';
}
