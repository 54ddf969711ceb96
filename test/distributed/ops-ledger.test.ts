/**
 * A run's ledger on a real Redis: reports number their events run-wide without gaps, an input item's ending
 * is counted off once however often its job runs again, the report that ends the last item (or a repeat of
 * it, until the run is closed) is told so, and closing writes `run.end` and the status once. Every key is
 * removed.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { openGather, readGather } from '../../src/distributed/gather-record.ts';
import { runKeys } from '../../src/distributed/keys.ts';
import { openLedger, readLedger } from '../../src/distributed/ledger.ts';
import { type ReportWrite, writeReport } from '../../src/distributed/report-write.ts';
import { closeRun } from '../../src/distributed/run-close.ts';
import { endedCheckpoint } from '../../src/distributed/run-record.ts';
import { systemClock } from '../../src/policy/clock.ts';
import { createItemState } from '../../src/runtime/item-state.ts';
import type { RunRecord } from '../../src/store/types.ts';
import { removeScratchKeys, scratchPrefix, scratchRedisStore, TEST_REDIS } from '../store/redis-scratch.ts';

afterAll(removeScratchKeys);

const counters = { executions: 1, retries: 0, salvages: 0, exhausted: 0 };

describe('the ledger of a distributed run', () => {
  it('counts each item off once and closes the run once', { timeout: 30_000 }, async () => {
    const prefix = scratchPrefix();
    const storePrefix = `${prefix}store:`;
    const store = await scratchRedisStore(storePrefix);
    const redis = new Redis(TEST_REDIS);
    const queue = new Queue('ledger', { connection: redis, prefix });
    const runId = 'run-1';
    const keys = runKeys(prefix, runId);
    const now = Date.now();
    const record: RunRecord = {
      id: runId,
      dag: { iri: 'urn:test:dag', hash: 'a'.repeat(64) },
      documents: [],
      policy: { value: {}, hash: 'b'.repeat(64) },
      input: [{}, {}],
      options: { items: 2 },
      status: 'running',
      createdAt: now,
      updatedAt: now,
      formatVersion: 1,
      engineVersion: '0.1.0',
    };
    try {
      await store.commit([{ kind: 'run', run: record }]);
      await openLedger(redis, keys, { items: 2, dag: 'urn:test:dag', storePrefix, nextSeq: 1 });
      const ending = (id: string): ReportWrite => {
        const state = createItemState(id, {});
        const end = { kind: 'terminal', placement: 'done', outcome: 'completed' } as const;
        return {
          runId,
          counters,
          events: [`{"type":"item.end","item":"${id}","dag":"urn:test:dag","placement":"done"}`],
          ending: {
            itemId: id,
            count: 'completed',
            checkpoint: JSON.stringify(endedCheckpoint(runId, 'urn:test:dag', state, end, now)),
          },
        };
      };
      const moving: ReportWrite = {
        runId,
        counters,
        events: ['{"type":"route"}', '{"type":"route"}'],
        id: 'job-1:1',
      };
      expect(await writeReport(redis, keys, storePrefix, moving)).toEqual({ last: false, aborted: false });
      // The same report sent again (a client that reconnected resends its command) is written once.
      expect(await writeReport(redis, keys, storePrefix, moving)).toEqual({ last: false, aborted: false });
      // A scatter child's report counts it off its gather record in the same script; a repeat (its job run
      // again) is told how many are left without counting it twice.
      const gather = `${keys.base}:gather:g`;
      const parent = { at: 'fan', state: createItemState('1', {}), delays: [], startedWall: now };
      await openGather(redis, gather, keys.gathers, parent, 2);
      const child = (index: number, id: string): ReportWrite => ({
        runId,
        counters: { executions: 0, retries: 0, salvages: 0, exhausted: 0 },
        events: [],
        id,
        child: { gather, index, result: JSON.stringify({ index, status: 'completed', value: index }) },
      });
      const answer = { last: false, aborted: false };
      expect(await writeReport(redis, keys, storePrefix, child(0, 'c0:1'))).toEqual({ ...answer, left: 1 });
      expect(await writeReport(redis, keys, storePrefix, child(0, 'c0:1'))).toEqual({ ...answer, left: 1 });
      expect(await writeReport(redis, keys, storePrefix, child(0, 'c0:2'))).toEqual({ ...answer, left: 1 });
      expect(await writeReport(redis, keys, storePrefix, child(1, 'c1:1'))).toEqual({ ...answer, left: 0 });
      expect((await readGather(redis, gather))?.results.map((r) => r.value)).toEqual([0, 1]);
      expect(await writeReport(redis, keys, storePrefix, ending('1'))).toEqual({
        last: false,
        aborted: false,
      });
      // Item 1's job runs again (its worker died after the report): it is not counted off twice, and its
      // counters and events, a history already written, are not written again.
      expect(await writeReport(redis, keys, storePrefix, ending('1'))).toEqual({
        last: false,
        aborted: false,
      });
      expect((await readLedger(redis, keys))?.pending).toBe(1);
      expect(await writeReport(redis, keys, storePrefix, ending('2'))).toEqual({
        last: true,
        aborted: false,
      });
      // Until the run is closed, a repeat of the last ending is told to close it too.
      expect(await writeReport(redis, keys, storePrefix, ending('2'))).toEqual({
        last: true,
        aborted: false,
      });
      const wiring = { redis, queue, keys };
      await closeRun(wiring, runId, storePrefix, systemClock);
      await closeRun(wiring, runId, storePrefix, systemClock);
      expect(await writeReport(redis, keys, storePrefix, ending('2'))).toEqual({
        last: false,
        aborted: false,
      });

      const ledger = await readLedger(redis, keys);
      expect(ledger).toMatchObject({ items: 2, pending: 0, completed: 2, closed: true });
      // The moving report once, and each item's ending once.
      expect(ledger?.counters.executions).toBe(3);
      const events = await store.readEvents(runId);
      const seqs = events.map((e) => e.seq);
      // Seq 0 is the submitter's run.start, not written here.
      expect(seqs).toEqual(seqs.map((_s, i) => i + 1));
      // Nothing is written once the run is closed: run.end is the last event.
      expect(events.at(-1)?.body).toMatchObject({ type: 'run.end', status: 'completed', completed: 2 });
      for (const event of events)
        expect(event.body).toMatchObject({ seq: event.seq, runId, type: event.type });
      expect((await store.getRun(runId))?.status).toBe('completed');
      expect((await store.listCheckpoints(runId, 'ended')).map((c) => c.itemId)).toEqual(['1', '2']);
    } finally {
      await queue.close();
      redis.disconnect();
      await store.close();
    }
  });

  it('writes the reports of one turn together, each answered and written once', {
    timeout: 30_000,
  }, async () => {
    const prefix = scratchPrefix();
    const storePrefix = `${prefix}store:`;
    const store = await scratchRedisStore(storePrefix);
    const redis = new Redis(TEST_REDIS);
    const runIds = ['run-a', 'run-b'];
    const now = Date.now();
    try {
      for (const runId of runIds) {
        await openLedger(redis, runKeys(prefix, runId), {
          items: 1,
          dag: 'urn:test:dag',
          storePrefix,
          nextSeq: 1,
        });
      }
      const keys = runKeys(prefix, 'run-a');
      const gather = `${keys.base}:gather:g`;
      const parent = { at: 'fan', state: createItemState('1', {}), delays: [], startedWall: now };
      await openGather(redis, gather, keys.gathers, parent, 3);
      const counters = { executions: 1, retries: 0, salvages: 0, exhausted: 0 };
      const child = (index: number, id: string): ReportWrite => ({
        runId: 'run-a',
        counters,
        events: [`{"type":"item.end","item":"1.${index}"}`, `{"type":"route","item":"1.${index}"}`],
        id,
        child: { gather, index, result: JSON.stringify({ index, status: 'completed', value: index }) },
      });
      const other: ReportWrite = {
        runId: 'run-b',
        counters,
        events: ['{"type":"route","item":"1"}'],
        id: 'b:1',
      };
      // Made in one turn: one script per run; the repeat of c0:1 in the same turn is written once.
      const answers = await Promise.all([
        writeReport(redis, keys, storePrefix, child(0, 'c0:1')),
        writeReport(redis, runKeys(prefix, 'run-b'), storePrefix, other),
        writeReport(redis, keys, storePrefix, child(0, 'c0:1')),
        writeReport(redis, keys, storePrefix, child(1, 'c1:1')),
        writeReport(redis, keys, storePrefix, child(2, 'c2:1')),
      ]);
      const answer = { last: false, aborted: false };
      expect(answers).toEqual([
        { ...answer, left: 2 },
        answer,
        { ...answer, left: 2 },
        { ...answer, left: 1 },
        { ...answer, left: 0 },
      ]);
      expect((await readLedger(redis, keys))?.counters.executions).toBe(3);
      const events = await store.readEvents('run-a');
      expect(events.map((e) => [e.seq, e.type, (e.body as { item: string }).item])).toEqual([
        [1, 'item.end', '1.0'],
        [2, 'route', '1.0'],
        [3, 'item.end', '1.1'],
        [4, 'route', '1.1'],
        [5, 'item.end', '1.2'],
        [6, 'route', '1.2'],
      ]);
      for (const event of events) {
        expect(event.body).toMatchObject({ seq: event.seq, runId: 'run-a', type: event.type });
        expect(typeof (event.body as { time: unknown }).time).toBe('number');
      }
      expect((await store.readEvents('run-b')).map((e) => e.body)).toMatchObject([
        { type: 'route', item: '1', seq: 1, runId: 'run-b' },
      ]);
      expect(await store.readEvents('run-a', { after: 2, limit: 3 })).toHaveLength(3);
    } finally {
      redis.disconnect();
      await store.close();
    }
  });

  it('leaves a repeat out of a span of events in any text, counting children off each of their records', {
    timeout: 30_000,
  }, async () => {
    const prefix = scratchPrefix();
    const storePrefix = `${prefix}store:`;
    const store = await scratchRedisStore(storePrefix);
    const redis = new Redis(TEST_REDIS);
    const now = Date.now();
    try {
      const keys = runKeys(prefix, 'run-c');
      await openLedger(redis, keys, { items: 1, dag: 'urn:test:dag', storePrefix, nextSeq: 1 });
      const parent = { at: 'fan', state: createItemState('1', {}), delays: [], startedWall: now };
      const records = [`${keys.base}:gather:g`, `${keys.base}:gather:h`];
      for (const record of records) await openGather(redis, record, keys.gathers, parent, 2);
      // Texts of several bytes a character, before and after the repeat, place each event by its bytes.
      const report = (record: number, index: number, text: string, id: string): ReportWrite => ({
        runId: 'run-c',
        counters,
        events: [`{"type":"route","item":"${text}"}`, `{"type":"item.end","item":"${text}"}`],
        id,
        child: {
          gather: records[record] as string,
          index,
          result: JSON.stringify({ index, status: 'completed', value: text }),
        },
      });
      await writeReport(redis, keys, storePrefix, report(0, 0, 'ä', 'g0:1'));
      const answers = await Promise.all([
        writeReport(redis, keys, storePrefix, report(1, 0, 'ζ€', 'h0:1')),
        writeReport(redis, keys, storePrefix, report(0, 0, 'ä', 'g0:1')),
        writeReport(redis, keys, storePrefix, report(0, 1, '𝄞x', 'g1:1')),
        writeReport(redis, keys, storePrefix, report(1, 1, '', 'h1:1')),
      ]);
      const answer = { last: false, aborted: false };
      expect(answers).toEqual([
        { ...answer, left: 1 },
        { ...answer, left: 1 },
        { ...answer, left: 0 },
        { ...answer, left: 0 },
      ]);
      const events = await store.readEvents('run-c');
      expect(events.map((e) => [e.seq, e.type, (e.body as { item: string }).item])).toEqual([
        [1, 'route', 'ä'],
        [2, 'item.end', 'ä'],
        [3, 'route', 'ζ€'],
        [4, 'item.end', 'ζ€'],
        [5, 'route', '𝄞x'],
        [6, 'item.end', '𝄞x'],
        [7, 'route', ''],
        [8, 'item.end', ''],
      ]);
      expect((await readGather(redis, records[0] as string))?.results.map((r) => r.value)).toEqual([
        'ä',
        '𝄞x',
      ]);
      expect((await readGather(redis, records[1] as string))?.results.map((r) => r.value)).toEqual([
        'ζ€',
        '',
      ]);
    } finally {
      redis.disconnect();
      await store.close();
    }
  });
});
