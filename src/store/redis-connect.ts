/**
 * Connecting the Redis run store, and what Redis's failures mean to its callers. A Redis that does not answer
 * when the store opens is refused at once with one line naming it; once open, the connection reconnects
 * with back-off by itself, and calls made meanwhile wait for it.
 */
import type { Redis, RedisOptions } from 'ioredis';
import { isSwitchyardError, SwitchyardError } from '../errors.ts';

/** How the Redis store connects and where it keeps its keys. */
export interface RedisStoreOptions {
  /** Prefix of every key the store writes; default `switchyard:`. */
  readonly prefix?: string;
  /** Milliseconds to wait for Redis when the store opens; default 5000. */
  readonly connectTimeoutMs?: number;
}

/** An open connection, where it goes, and whether the store owns it (and so closes it). */
export interface Connected {
  readonly redis: Redis;
  readonly location: string;
  readonly owned: boolean;
}

/** `url` without a password, for messages. */
export function redisLocation(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}

/**
 * How long a connection that Redis dropped waits before its try number `times` to reconnect: 100 ms more
 * on each try, at most 2 s, for as long as it takes (BullMQ's workers and the calls waiting meanwhile go on
 * once it is back).
 */
export function reconnectDelay(times: number): number {
  return Math.min(times * 100, 2000);
}

/** Where a connection goes, for messages: `redis://host:port/db`. */
export function redisAt(redis: Redis): string {
  const { host, port, db } = redis.options;
  return `redis://${host}:${port}/${db ?? 0}`;
}

/** Connects to `target` (a URL, or a connection the caller made), refusing a Redis that does not answer. */
export async function connectRedis(target: string | Redis, options: RedisStoreOptions): Promise<Connected> {
  if (typeof target !== 'string') return { redis: target, location: redisAt(target), owned: false };
  const location = redisLocation(target);
  // ioredis parses the URL with `new URL` and throws its TypeError as it is: a URL it cannot parse (an
  // unclosed IPv6 bracket, a port out of range) is refused here with the same line as one of another scheme.
  if (!/^rediss?:\/\//.test(target) || !URL.canParse(target)) {
    throw new SwitchyardError(
      'E_STORE_UNREACHABLE',
      `'${location}' is not a Redis URL; give one as redis://host:port (or rediss:// for TLS)`,
    );
  }
  const settings: RedisOptions = {
    lazyConnect: true,
    connectTimeout: options.connectTimeoutMs ?? 5000,
    // Calls wait for a reconnection rather than fail after a few tries: a run carries on when Redis is back.
    maxRetriesPerRequest: null,
    retryStrategy: reconnectDelay,
  };
  // ioredis is loaded when a Redis store is first opened, so that importing the library does not load it.
  const { Redis: Client } = await import('ioredis');
  const redis = new Client(target, settings);
  // Errors are reported through the calls that meet them; without a listener ioredis would print each one.
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new SwitchyardError(
      'E_STORE_UNREACHABLE',
      `cannot reach Redis at ${location}: ${(error as Error).message.replace(/\.$/, '')}; start redis-server there or give another URL`,
      { cause: error },
    );
  }
  return { redis, location, owned: true };
}

/** A failure of a call to Redis as the store reports it: store errors as they are, the rest `E_STORE_UNREACHABLE`. */
export function redisFailure(error: unknown, location: string): unknown {
  if (isSwitchyardError(error)) return error;
  return new SwitchyardError(
    'E_STORE_UNREACHABLE',
    `Redis at ${location} failed: ${(error as Error).message}; check that it runs and answers`,
    { cause: error },
  );
}
