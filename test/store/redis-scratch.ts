/**
 * Redis stores for tests: each under a key prefix of its own on the test Redis (`SWITCHYARD_TEST_REDIS`,
 * default redis://127.0.0.1:6379), and a clean-up that deletes every key they wrote.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { openRedisStore, type RedisRunStore } from '../../src/store/redis.ts';

/** The Redis the tests use. */
export const TEST_REDIS = process.env.SWITCHYARD_TEST_REDIS ?? 'redis://127.0.0.1:6379';

const ROOT = `switchyard-test:${process.pid}:${randomUUID()}:`;
let made = 0;

/** A fresh key prefix under this process's test root. */
export function scratchPrefix(): string {
  return `${ROOT}${made++}:`;
}

/** A Redis store with no records, under a prefix of its own. */
export function scratchRedisStore(prefix = scratchPrefix()): Promise<RedisRunStore> {
  return openRedisStore(TEST_REDIS, { prefix });
}

/** Deletes every key any scratch store of this process wrote. */
export async function removeScratchKeys(): Promise<void> {
  const redis = new Redis(TEST_REDIS);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${ROOT}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}
