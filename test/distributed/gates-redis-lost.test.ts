/**
 * A worker's gates when Redis goes away: an execution that asks a gate meanwhile waits, the loss is told
 * once however often the gate tries again, and the execution goes through once Redis is back. The
 * connection here fails its calls at once while Redis is away (a worker's own waits for the reconnection
 * inside ioredis, and the worker says once that it lost Redis). A private redis-server, killed and started
 * again.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisGates } from '../../src/distributed/redis-gates.ts';
import { isPass } from '../../src/gates/gates.ts';
import { resolveGates } from '../../src/gates/resolve.ts';
import { systemClock, withWallTime } from '../../src/policy/clock.ts';
import { waitFor } from '../wait-for.ts';
import { startPrivateRedis } from './fixtures/private-redis.ts';

const server = await startPrivateRedis({ persistent: false });

afterAll(() => server.remove());

describe('gates when Redis is unreachable', () => {
  it('wait, say so once, and let the execution through once Redis is back', { timeout: 60_000 }, async () => {
    const redis = new Redis(server.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => 50,
    });
    redis.on('error', () => undefined);
    await waitFor(() => redis.status === 'ready', { what: 'the connection to the private Redis' });
    const lost: unknown[] = [];
    const gates = new RedisGates({
      redis,
      prefix: 'gates-lost',
      clock: withWallTime(systemClock),
      onLost: (error) => lost.push(error),
    });
    const gate = resolveGates({ api: { placements: ['call'], concurrency: 1 } }).api;
    if (gate === undefined) throw new Error('no gate');
    const entry = {
      events: undefined,
      signal: new AbortController().signal,
      item: '1',
      dag: 'urn:test:lost',
      placement: 'call',
      latest: Number.POSITIVE_INFINITY,
    };
    try {
      await server.kill();
      await waitFor(() => redis.status !== 'ready', { what: 'the connection to see Redis gone' });
      const entering = gates.enter({ gate, key: 'api' }, entry);
      await waitFor(() => lost.length > 0, { what: 'the gate to tell that Redis is lost' });
      await server.start();
      const entered = await entering;
      expect(isPass(entered)).toBe(true);
      expect(lost).toHaveLength(1);
      if (isPass(entered)) entered.leave();
    } finally {
      redis.disconnect();
    }
  });

  it('end the wait of an execution whose run aborts while Redis is away', { timeout: 60_000 }, async () => {
    // A worker's connection: its commands wait for the reconnection inside ioredis.
    const redis = new Redis(server.url, { maxRetriesPerRequest: null, retryStrategy: () => 50 });
    redis.on('error', () => undefined);
    await waitFor(() => redis.status === 'ready', { what: 'the connection to the private Redis' });
    const gates = new RedisGates({ redis, prefix: 'gates-lost-abort', clock: withWallTime(systemClock) });
    const gate = resolveGates({ api: { placements: ['call'], concurrency: 1 } }).api;
    if (gate === undefined) throw new Error('no gate');
    const abort = new AbortController();
    const entry = {
      events: undefined,
      signal: abort.signal,
      item: '1',
      dag: 'urn:test:lost',
      placement: 'call',
      latest: Number.POSITIVE_INFINITY,
    };
    try {
      await server.kill();
      await waitFor(() => redis.status !== 'ready', { what: 'the connection to see Redis gone' });
      const entering = Promise.resolve(gates.enter({ gate, key: 'api' }, entry));
      const reason = new Error('the run was aborted');
      abort.abort(reason);
      await expect(entering).rejects.toBe(reason);
    } finally {
      await server.start();
      redis.disconnect();
    }
  });
});
