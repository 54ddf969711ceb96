/**
 * The gather record on a real Redis: each child counts once however often its ending is reported, exactly
 * one ending takes the count to 0 when children end at once on many connections, and the results come back
 * in index order with the order they settled in. Job data of a newer format is refused.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { completeChild, openGather, readGather } from '../../src/distributed/gather-record.ts';
import { JOB_FORMAT, readJob } from '../../src/distributed/job-data.ts';
import { createItemState } from '../../src/runtime/item-state.ts';
import { removeScratchKeys, scratchPrefix, TEST_REDIS } from '../store/redis-scratch.ts';

afterAll(removeScratchKeys);

const parent = { at: 'fan', state: createItemState('1', {}), delays: [], startedWall: 0 };

describe('gather record', () => {
  it('counts a repeated ending once, and is complete only when every child ended', async () => {
    const redis = new Redis(TEST_REDIS);
    try {
      const prefix = scratchPrefix();
      const key = `${prefix}gather`;
      expect(await openGather(redis, key, `${prefix}gathers`, parent, 3)).toEqual(new Set());
      // Opening again (a scatter job run again) keeps the count.
      expect(await openGather(redis, key, `${prefix}gathers`, parent, 3)).toEqual(new Set());
      expect(await completeChild(redis, key, 1, { index: 1, status: 'completed', value: 'b' })).toBe(2);
      // ... and answers the children counted already, whose jobs it does not add again.
      expect(await openGather(redis, key, `${prefix}gathers`, parent, 3)).toEqual(new Set([1]));
      expect(await completeChild(redis, key, 1, { index: 1, status: 'failed', value: 'x' })).toBe(2);
      expect(await readGather(redis, key)).toBeUndefined();
      expect(await completeChild(redis, key, 0, { index: 0, status: 'completed', value: 'a' })).toBe(1);
      expect(await completeChild(redis, key, 2, { index: 2, status: 'failed', value: null })).toBe(0);
      expect(await completeChild(redis, key, 2, { index: 2, status: 'failed', value: null })).toBe(0);
      const gathered = await readGather(redis, key);
      expect(gathered?.results).toEqual([
        { index: 0, status: 'completed', value: 'a', order: 1 },
        { index: 1, status: 'completed', value: 'b', order: 0 },
        { index: 2, status: 'failed', value: null, order: 2 },
      ]);
      expect(gathered?.parent.at).toBe('fan');
    } finally {
      await redis.quit();
    }
  });

  it('counts each of many concurrent, repeated endings once and never below 0', async () => {
    const n = 200;
    const connections = Array.from({ length: 8 }, () => new Redis(TEST_REDIS));
    try {
      const prefix = scratchPrefix();
      const key = `${prefix}gather`;
      await openGather(connections[0] as Redis, key, `${prefix}gathers`, parent, n);
      // Every child reports twice, from two connections, all at once.
      const lefts = await Promise.all(
        Array.from({ length: 2 * n }, (_x, i) =>
          completeChild(connections[i % connections.length] as Redis, key, i % n, {
            index: i % n,
            status: 'completed',
            value: i % n,
          }),
        ),
      );
      const zeros = lefts.filter((left) => left === 0).length;
      // Repeats of the last ending also see 0 (they add the gathered job under its fixed id, a no-op).
      expect(zeros).toBeGreaterThanOrEqual(1);
      expect(lefts.filter((left) => left < 0)).toEqual([]);
      const gathered = await readGather(connections[0] as Redis, key);
      expect(gathered?.results.map((r) => r.value)).toEqual(Array.from({ length: n }, (_x, i) => i));
      expect(new Set(gathered?.results.map((r) => r.order)).size).toBe(n);
    } finally {
      await Promise.all(connections.map((c) => c.quit()));
    }
  });
});

describe('job data', () => {
  it('refuses a job of a newer format with one line saying to upgrade', () => {
    expect(() => readJob({ v: JOB_FORMAT + 1, kind: 'item', runId: 'r' })).toThrow(
      new RegExp(`newer than this worker's ${JOB_FORMAT}; upgrade the worker`),
    );
    expect(() => readJob({ hello: 1 })).toThrow(/not a Switchyard job/);
  });
});
