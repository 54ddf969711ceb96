/**
 * The Redis run store against a real Redis on 127.0.0.1:6379 (started by `.ci/run` when nothing answers
 * there): the whole RunStore contract, each store under a key prefix of its own, every key removed at the
 * end; and what is particular to Redis: two stores writing the same run at once, and a Redis that is not there.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { isSwitchyardError } from '../../src/errors.ts';
import { openRedisStore } from '../../src/store/redis.ts';
import { storeContract } from './contract.ts';
import { eventWrites, makeCheckpoint, makeRun, runWrite, T0 } from './fixtures.ts';
import { removeScratchKeys, scratchPrefix, scratchRedisStore } from './redis-scratch.ts';

afterAll(removeScratchKeys);

storeContract('Redis store', () => scratchRedisStore());

describe('Redis store: several writers and a missing server', () => {
  it('applies concurrent batches of two stores on one run each whole, the conflicting one refused', async () => {
    const prefix = scratchPrefix();
    const [a, b] = await Promise.all([scratchRedisStore(prefix), scratchRedisStore(prefix)]);
    try {
      await a.commit([runWrite(makeRun('r1'))]);
      const writes = Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).commit([
          { kind: 'checkpoint', checkpoint: makeCheckpoint('r1', `item-${i}`) },
          ...eventWrites('r1', i, i + 1),
        ]),
      );
      await Promise.all(writes);
      expect((await a.listCheckpoints('r1')).map((c) => c.itemId).sort()).toEqual(
        Array.from({ length: 20 }, (_, i) => `item-${i}`).sort(),
      );
      expect((await b.readEvents('r1')).map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      const both = await Promise.allSettled([
        a.commit(eventWrites('r1', 20, 21)),
        b.commit(eventWrites('r1', 20, 21)),
      ]);
      expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const refused = both.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(isSwitchyardError(refused.reason) && refused.reason.code).toBe('E_STORE_CONFLICT');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('takes one of two answers to the same token given at once by two stores, and refuses the other', async () => {
    const prefix = scratchPrefix();
    const [a, b] = await Promise.all([scratchRedisStore(prefix), scratchRedisStore(prefix)]);
    try {
      await a.commit([runWrite(makeRun('r1'))]);
      for (let round = 0; round < 10; round++) {
        const token = `aw-${round}`;
        // Answers alone: no other key of the two batches is written, so only the answers' own check keeps one.
        const answer = (output: string) => [
          { kind: 'answer', answer: { runId: 'r1', token, output, answeredAt: T0 } } as const,
        ];
        const both = await Promise.allSettled([a.commit(answer('approved')), b.commit(answer('rejected'))]);
        expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
        const refused = both.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        expect(isSwitchyardError(refused.reason) && refused.reason.code).toBe('E_STORE_CONFLICT');
        const won = both[0]?.status === 'fulfilled' ? 'approved' : 'rejected';
        expect((await a.getAnswer('r1', token))?.output).toBe(won);
      }
      expect((await b.listAnswers('r1')).map((x) => x.token)).toEqual(
        Array.from({ length: 10 }, (_, i) => `aw-${i}`),
      );
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('refuses a Redis that does not answer with one line naming it', async () => {
    const error = await openRedisStore('redis://127.0.0.1:1', { connectTimeoutMs: 500 }).catch(
      (e: unknown) => e,
    );
    expect(isSwitchyardError(error) && error.code).toBe('E_STORE_UNREACHABLE');
    expect((error as Error).message).toMatch(
      /^cannot reach Redis at redis:\/\/127\.0\.0\.1:1: .*; start redis-server/,
    );
    expect((error as Error).message).not.toContain('\n');
    const bad = await openRedisStore('http://127.0.0.1:6379').catch((e: unknown) => e);
    expect(isSwitchyardError(bad) && bad.code).toBe('E_STORE_UNREACHABLE');
    // URLs of the right scheme that no URL parser takes: ioredis would throw its parser's TypeError.
    for (const url of ['redis://[::1', 'redis://127.0.0.1:99999', 'rediss://a b:6379']) {
      const unparsed = await openRedisStore(url).catch((e: unknown) => e);
      expect(isSwitchyardError(unparsed) && unparsed.code, url).toBe('E_STORE_UNREACHABLE');
      expect((unparsed as Error).message, url).toContain('is not a Redis URL');
    }
  });
});
