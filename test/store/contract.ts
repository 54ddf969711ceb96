/**
 * The behaviour every run store must have, as one suite that each implementation's test file runs against
 * its own store. Times come from a virtual clock, never from the wall.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import type { EventRecord, RunStore } from '../../src/store/types.ts';
import { answerContract } from './contract-answers.ts';
import { eventWrites, makeCheckpoint, makeEvent, makeRun, pageWrite, runWrite, T0 } from './fixtures.ts';
import { codeOf } from './refusal.ts';

async function collect(events: AsyncIterable<EventRecord>): Promise<number[]> {
  const seqs: number[] = [];
  for await (const event of events) seqs.push(event.seq);
  return seqs;
}

/** Runs the contract against stores made by `open`. */
export function storeContract(name: string, open: () => Promise<RunStore>): void {
  describe(`${name}: the RunStore contract`, () => {
    let store: RunStore;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await store.close();
    });

    describe('runs', () => {
      it('gives back a run as it was written, copied in and out', async () => {
        const run = makeRun('r1');
        await store.commit([runWrite(run)]);
        (run.input as { topic: string }[])[0] = { topic: 'changed after commit' };
        const read = await store.getRun('r1');
        expect(read).toEqual(makeRun('r1'));
        (read?.input as unknown[]).length = 0;
        expect(await store.getRun('r1')).toEqual(makeRun('r1'));
        expect(await store.getRun('missing')).toBeUndefined();
      });

      it('refuses a second run with the same id and keeps the first', async () => {
        await store.commit([runWrite(makeRun('r1'))]);
        expect(await codeOf(store.commit([runWrite(makeRun('r1', { status: 'failed' }))]))).toBe(
          'E_STORE_CONFLICT',
        );
        expect((await store.getRun('r1'))?.status).toBe('running');
      });

      it('records status changes and when the run finished', async () => {
        await store.commit([runWrite(makeRun('r1'))]);
        await store.commit([
          {
            kind: 'run-status',
            update: { runId: 'r1', status: 'completed', at: T0 + 5, finishedAt: T0 + 5 },
          },
        ]);
        const read = await store.getRun('r1');
        expect(read).toMatchObject({
          status: 'completed',
          updatedAt: T0 + 5,
          finishedAt: T0 + 5,
          createdAt: T0,
        });
        expect(
          await codeOf(
            store.commit([{ kind: 'run-status', update: { runId: 'nope', status: 'failed', at: T0 } }]),
          ),
        ).toBe('E_STORE_UNKNOWN_RUN');
      });
    });

    describe('checkpoints', () => {
      it('round-trips null-prototype state with prototype-named keys, without polluting anything', async () => {
        await store.commit([
          runWrite(makeRun('r1')),
          { kind: 'checkpoint', checkpoint: makeCheckpoint('r1', '1.2/e', 3) },
        ]);
        const read = await store.getCheckpoint('r1', '1.2/e');
        expect(JSON.stringify(read)).toBe(JSON.stringify(makeCheckpoint('r1', '1.2/e', 3)));
        const data = read?.state.data as Record<string, unknown>;
        expect(Object.keys(data)).toEqual(['__proto__', 'toString', 'constructor', 'n']);
        expect(Object.getOwnPropertyDescriptor(data, '__proto__')?.value).toEqual({ polluted: true });
        expect(Object.getPrototypeOf(data)).not.toHaveProperty('polluted');
        expect(data.toString).toBe('not a function');
        expect(Object.getOwnPropertyDescriptor(read?.state.visits, '__proto__')?.value).toBe(3);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(read?.position.frames).toEqual(makeCheckpoint('r1', '1.2/e', 3).position.frames);
        expect(read?.position.wait).toEqual({ until: T0 + 3, reason: 'backoff' });
      });

      it('never shares a checkpoint object with its caller', async () => {
        await store.commit([runWrite(makeRun('r1'))]);
        const written = makeCheckpoint('r1', '1');
        await store.commit([{ kind: 'checkpoint', checkpoint: written }]);
        (written.state.data as Record<string, unknown>).n = 'changed after commit';
        (written.position.frames as unknown[]).length = 0;
        const read = await store.getCheckpoint('r1', '1');
        Object.defineProperty(read?.state.budgets, 'hasOwnProperty', { value: 99 });
        const [listed] = await store.listCheckpoints('r1');
        expect(JSON.stringify(listed)).toBe(JSON.stringify(makeCheckpoint('r1', '1')));
        expect(listed).not.toBe(read);
      });

      it('keeps the latest checkpoint per item, listed in the order items were first written', async () => {
        await store.commit([runWrite(makeRun('r1'))]);
        await store.commit([
          { kind: 'checkpoint', checkpoint: makeCheckpoint('r1', 'b', 1) },
          { kind: 'checkpoint', checkpoint: makeCheckpoint('r1', 'a', 1) },
        ]);
        const ended = {
          ...makeCheckpoint('r1', 'b', 2),
          status: 'ended' as const,
          ending: { kind: 'terminal' as const, placement: 'done', outcome: 'completed' as const },
        };
        await store.commit([{ kind: 'checkpoint', checkpoint: ended }]);
        expect((await store.listCheckpoints('r1')).map((c) => [c.itemId, c.position.visit])).toEqual([
          ['b', 2],
          ['a', 1],
        ]);
        expect((await store.listCheckpoints('r1', 'ended')).map((c) => c.ending)).toEqual([ended.ending]);
        expect((await store.listCheckpoints('r1', 'waiting')).map((c) => c.itemId)).toEqual(['a']);
        expect(await store.listCheckpoints('other')).toEqual([]);
      });

      it('applies a batch whole or not at all', async () => {
        await store.commit([runWrite(makeRun('r1'))]);
        const batch = [
          { kind: 'checkpoint', checkpoint: makeCheckpoint('r1', '1', 1) },
          ...eventWrites('r1', 0, 2),
          { kind: 'checkpoint', checkpoint: makeCheckpoint('ghost', '1', 1) },
        ] as const;
        expect(await codeOf(store.commit(batch))).toBe('E_STORE_UNKNOWN_RUN');
        expect(await store.getCheckpoint('r1', '1')).toBeUndefined();
        expect(await store.readEvents('r1')).toEqual([]);
        expect(
          await codeOf(
            store.commit([runWrite(makeRun('r2')), ...eventWrites('r1', 0, 1), ...eventWrites('r1', 0, 1)]),
          ),
        ).toBe('E_STORE_CONFLICT');
        expect(await store.getRun('r2')).toBeUndefined();
      });

      it('refuses state that is not JSON with one line', async () => {
        await store.commit([runWrite(makeRun('r1'))]);
        const checkpoint = makeCheckpoint('r1', '1');
        const bad = { ...checkpoint, state: { ...checkpoint.state, data: { big: 1n } } };
        expect(await codeOf(store.commit([{ kind: 'checkpoint', checkpoint: bad }]))).toBe('E_INPUT');
      });
    });

    describe('journal', () => {
      it('commits each step value on its own; the first value of a step stays', async () => {
        await store.commit([runWrite(makeRun('r1'))]);
        const entry = {
          runId: 'r1',
          itemPath: '1',
          stepKey: 'charge',
          value: '{"value":1}',
          committedAt: T0,
        };
        await store.commit([{ kind: 'journal', entry }]);
        expect(await store.getJournalEntry('r1', '1', 'charge')).toEqual(entry);
        await store.commit([
          { kind: 'journal', entry: { ...entry, value: '{"value":2}', committedAt: T0 + 1 } },
        ]);
        expect(await store.getJournalEntry('r1', '1', 'charge')).toEqual(entry);
      });

      it('tells steps apart by item and key, whatever characters they hold, and lists them in commit order', async () => {
        await store.commit([runWrite(makeRun('r1'))]);
        const keys: [string, string][] = [
          ['1', 'a/b'],
          ['1/a', 'b'],
          ['1', '__proto__'],
          ['2', 'a\u0000b'],
          ['1', 'toString'],
        ];
        for (const [i, [itemPath, stepKey]] of keys.entries()) {
          await store.commit([
            {
              kind: 'journal',
              entry: { runId: 'r1', itemPath, stepKey, value: String(i), committedAt: T0 + i },
            },
          ]);
        }
        expect((await store.listJournal('r1')).map((e) => e.value)).toEqual(['0', '1', '2', '3', '4']);
        expect((await store.listJournal('r1', '1')).map((e) => e.stepKey)).toEqual([
          'a/b',
          '__proto__',
          'toString',
        ]);
        expect((await store.getJournalEntry('r1', '1/a', 'b'))?.value).toBe('1');
        expect(await store.getJournalEntry('r1', '1', 'constructor')).toBeUndefined();
        expect(
          await codeOf(
            store.commit([
              {
                kind: 'journal',
                entry: { runId: 'x', itemPath: '1', stepKey: 'k', value: '', committedAt: T0 },
              },
            ]),
          ),
        ).toBe('E_STORE_UNKNOWN_RUN');
      });
    });

    describe('events', () => {
      it('reads events in sequence order whatever order they were committed in', async () => {
        await store.commit([runWrite(makeRun('r1')), runWrite(makeRun('r2'))]);
        await store.commit(eventWrites('r1', 5, 10));
        await store.commit(eventWrites('r1', 0, 5).reverse());
        await store.commit(eventWrites('r2', 0, 3));
        expect((await store.readEvents('r1')).map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        expect((await store.readEvents('r1', { after: 6 })).map((e) => e.seq)).toEqual([7, 8, 9]);
        expect((await store.readEvents('r1', { after: 2, limit: 2 })).map((e) => e.seq)).toEqual([3, 4]);
        expect((await store.readEvents('r1', { limit: 1 }))[0]).toEqual({
          runId: 'r1',
          seq: 0,
          type: 'route',
          body: { seq: 0, type: 'route', to: 'p0' },
        });
        expect(await store.lastEventSeq('r1')).toBe(9);
        expect(await store.lastEventSeq('r3')).toBeUndefined();
        expect(await codeOf(store.commit(eventWrites('r1', 9, 10)))).toBe('E_STORE_CONFLICT');
        expect(await codeOf(store.readEvents('r1', { limit: -1 }))).toBe('E_USAGE');
        expect(await codeOf(store.readEvents('r1', { after: Number.NaN }))).toBe('E_USAGE');
        expect(await store.readEvents('r1', { limit: 0 })).toEqual([]);
      });

      it('streams from a sequence number, page by page, including events appended meanwhile', async () => {
        await store.commit([runWrite(makeRun('r1')), ...eventWrites('r1', 0, 7)]);
        expect(await collect(store.streamEvents('r1', 2, 2))).toEqual([3, 4, 5, 6]);
        const seen: number[] = [];
        for await (const event of store.streamEvents('r1', undefined, 3)) {
          seen.push(event.seq);
          if (event.seq === 4) await store.commit(eventWrites('r1', 7, 9));
        }
        expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
      });
    });

    describe('event pages', () => {
      const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
      const seqs = (events: readonly EventRecord[]) => events.map((e) => e.seq);

      it('read back interleaved with single events, in seq order, as they were written', async () => {
        await store.commit([runWrite(makeRun('r1')), runWrite(makeRun('r2'))]);
        await store.commit([pageWrite('r1', [10, 11, 12]), ...eventWrites('r1', 0, 2)]);
        await store.commit([...eventWrites('r1', 13, 14), pageWrite('r1', range(2, 10))]);
        await store.commit([pageWrite('r1', [20]), ...eventWrites('r1', 14, 17), pageWrite('r2', [0, 1])]);
        await store.commit([{ kind: 'events', runId: 'r1', events: [] }]);
        const all = await store.readEvents('r1');
        expect(seqs(all)).toEqual([...range(0, 17), 20]);
        expect(all[3]).toEqual(makeEvent('r1', 3));
        expect(all[0]).toEqual(makeEvent('r1', 0));
        expect(seqs(await store.readEvents('r2'))).toEqual([0, 1]);
        expect(await store.lastEventSeq('r1')).toBe(20);
        expect(await store.lastEventSeq('r2')).toBe(1);
        await store.commit([...eventWrites('r1', 21, 22)]);
        expect(await store.lastEventSeq('r1')).toBe(21);
      });

      it('page across page boundaries with after and limit, and stream through them', async () => {
        await store.commit([runWrite(makeRun('r1'))]);
        await store.commit([
          pageWrite('r1', range(0, 5)),
          ...eventWrites('r1', 5, 7),
          pageWrite('r1', range(7, 12)),
        ]);
        await store.commit([pageWrite('r1', range(12, 20))]);
        expect(seqs(await store.readEvents('r1', { after: 3, limit: 4 }))).toEqual([4, 5, 6, 7]);
        expect(seqs(await store.readEvents('r1', { after: 6, limit: 2 }))).toEqual([7, 8]);
        expect(seqs(await store.readEvents('r1', { after: 10, limit: 3 }))).toEqual([11, 12, 13]);
        expect(seqs(await store.readEvents('r1', { after: 11 }))).toEqual(range(12, 20));
        expect(seqs(await store.readEvents('r1', { after: 2.5, limit: 1 }))).toEqual([3]);
        expect(seqs(await store.readEvents('r1', { after: 19 }))).toEqual([]);
        expect(seqs(await store.readEvents('r1', { limit: 0 }))).toEqual([]);
        expect(await collect(store.streamEvents('r1', 1, 3))).toEqual(range(2, 20));
        const seen: number[] = [];
        for await (const event of store.streamEvents('r1', undefined, 4)) {
          seen.push(event.seq);
          if (event.seq === 10) await store.commit([pageWrite('r1', range(20, 23))]);
        }
        expect(seen).toEqual(range(0, 23));
      });

      it('refuse a seq already stored or within a stored page, and leave the batch unwritten', async () => {
        await store.commit([runWrite(makeRun('r1'))]);
        await store.commit([pageWrite('r1', [10, 12, 14]), ...eventWrites('r1', 20, 21)]);
        const refusals = [
          [pageWrite('r1', [14, 15])],
          [pageWrite('r1', [5, 10])],
          [pageWrite('r1', [11, 13])],
          [pageWrite('r1', [0, 30])],
          [pageWrite('r1', [20])],
          [pageWrite('r1', [19, 21])],
          eventWrites('r1', 12, 13),
          eventWrites('r1', 13, 14),
          [pageWrite('r1', [30, 31]), pageWrite('r1', [31])],
          [...eventWrites('r1', 40, 41), pageWrite('r1', [39, 40])],
        ];
        for (const batch of refusals) {
          expect(await codeOf(store.commit([pageWrite('r1', [50]), ...batch]))).toBe('E_STORE_CONFLICT');
        }
        await expect(store.commit(eventWrites('r1', 11, 12))).rejects.toThrow(/event 11 of run 'r1'/);
        await expect(store.commit([pageWrite('r1', [8, 9, 10])])).rejects.toThrow(
          /events 8 to 10 of run 'r1'/,
        );
        expect(seqs(await store.readEvents('r1'))).toEqual([10, 12, 14, 20]);
        await store.commit([pageWrite('r1', [15, 19]), ...eventWrites('r1', 9, 10)]);
        expect(seqs(await store.readEvents('r1'))).toEqual([9, 10, 12, 14, 15, 19, 20]);
      });

      it('refuse a page out of order, of another run, or of a run not stored', async () => {
        await store.commit([runWrite(makeRun('r1')), runWrite(makeRun('r2'))]);
        expect(await codeOf(store.commit([pageWrite('r1', [2, 1])]))).toBe('E_USAGE');
        expect(await codeOf(store.commit([pageWrite('r1', [1, 1])]))).toBe('E_USAGE');
        const mixed = {
          kind: 'events',
          runId: 'r1',
          events: [makeEvent('r1', 1), makeEvent('r2', 2)],
        } as const;
        expect(await codeOf(store.commit([mixed]))).toBe('E_USAGE');
        expect(await codeOf(store.commit([pageWrite('ghost', [1])]))).toBe('E_STORE_UNKNOWN_RUN');
        expect(await codeOf(store.commit([{ kind: 'events', runId: 'ghost', events: [] }]))).toBe(
          'E_STORE_UNKNOWN_RUN',
        );
        expect(await store.readEvents('r1')).toEqual([]);
      });

      it('read back the events of a run as written, their keys in the same order', async () => {
        await store.commit([runWrite(makeRun('r1'))]);
        const at = { dag: 'urn:test:dag', item: '1', placement: 'p' };
        const bodies: Record<string, unknown>[] = [
          { type: 'run.start', dag: at.dag, items: 1, seq: 0, time: 1.5, runId: 'r1' },
          { type: 'placement.start', ...at, visit: 1, seq: 1, time: 2.25, runId: 'r1' },
          { type: 'placement.end', ...at, output: 'ok', durationMs: 0.1, seq: 2, time: 3, runId: 'r1' },
          { type: 'placement.end', ...at, error: { code: 'E', nested: [1, 'p'] }, seq: 3, runId: 'r1' },
          { type: 'warning', seq: 7, message: 'r1', gone: undefined, flag: true, none: null, runId: 'r1' },
          { seq: 8, type: 'route', at: new Date(T0), runId: 'r1' },
          { type: 'route', seq: 9, '\u0000': 'nul', 'a\u0000vb': 1, runId: 'r1' },
          { type: 'route', seq: 10, runId: 'r1', __proto__: null },
          { type: 'route', seq: 11, runId: 'r1', ['__proto__']: 'own' },
        ];
        const events = bodies.map((body) => ({
          runId: 'r1',
          seq: body.seq as number,
          type: body.type as string,
          body,
        }));
        await store.commit([{ kind: 'events', runId: 'r1', events: events.slice(0, 4) }]);
        await store.commit([{ kind: 'events', runId: 'r1', events: events.slice(4) }]);
        const expected = JSON.stringify(events);
        expect(JSON.stringify(await store.readEvents('r1'))).toBe(expected);
        expect(await store.readEvents('r1')).toEqual(JSON.parse(expected));
        expect(JSON.stringify(await store.readEvents('r1', { after: 1, limit: 2 }))).toBe(
          JSON.stringify(events.slice(2, 4)),
        );
      });

      it('copy events in and out', async () => {
        await store.commit([runWrite(makeRun('r1'))]);
        const events = [makeEvent('r1', 0), makeEvent('r1', 1)];
        await store.commit([{ kind: 'events', runId: 'r1', events }]);
        (events[0]?.body as { to: string }).to = 'changed after commit';
        const [read] = await store.readEvents('r1');
        (read?.body as { to: string }).to = 'changed after read';
        expect(await store.readEvents('r1')).toEqual([makeEvent('r1', 0), makeEvent('r1', 1)]);
      });
    });

    describe('lease', () => {
      const clock = () => createVirtualClock({ start: T0 });
      const a = { pid: 101, host: 'alpha' };
      const b = { pid: 202, host: 'beta' };

      it('is held by one process at a time; a second acquire names the holder', async () => {
        const time = clock();
        await store.commit([runWrite(makeRun('r1'))]);
        const lease = await store.acquireLease({ runId: 'r1', holder: a, now: time.now(), ttlMs: 1000 });
        expect(lease).toMatchObject({
          runId: 'r1',
          pid: 101,
          host: 'alpha',
          acquiredAt: T0,
          expiresAt: T0 + 1000,
        });
        await time.advance(999);
        const refused = store.acquireLease({ runId: 'r1', holder: b, now: time.now(), ttlMs: 1000 });
        await expect(refused).rejects.toThrow(/process 101 on alpha/);
        expect(
          await codeOf(store.acquireLease({ runId: 'r1', holder: a, now: time.now(), ttlMs: 1000 })),
        ).toBe('E_STORE_LEASE_HELD');
        expect(await store.getLease('r1')).toEqual(lease);
      });

      it('is kept by heartbeats and taken over once it stops beating', async () => {
        const time = clock();
        await store.commit([runWrite(makeRun('r1'))]);
        const first = await store.acquireLease({ runId: 'r1', holder: a, now: time.now(), ttlMs: 1000 });
        await time.advance(800);
        const renewed = await store.renewLease(first, time.now(), 1000);
        expect(renewed.expiresAt).toBe(T0 + 1800);
        await time.advance(900);
        expect(
          await codeOf(store.acquireLease({ runId: 'r1', holder: b, now: time.now(), ttlMs: 1000 })),
        ).toBe('E_STORE_LEASE_HELD');
        await time.advance(100);
        const taken = await store.acquireLease({ runId: 'r1', holder: b, now: time.now(), ttlMs: 1000 });
        expect(taken).toMatchObject({ pid: 202, host: 'beta', acquiredAt: T0 + 1800, expiresAt: T0 + 2800 });
        expect(taken.token).not.toBe(first.token);
        await expect(store.renewLease(renewed, time.now(), 1000)).rejects.toThrow(
          /taken over by process 202 on beta/,
        );
        await store.releaseLease(renewed);
        expect(await store.getLease('r1')).toEqual(taken);
      });

      it('is free again once released, and a late heartbeat of an untaken lease keeps it', async () => {
        const time = clock();
        await store.commit([runWrite(makeRun('r1'))]);
        const first = await store.acquireLease({ runId: 'r1', holder: a, now: time.now(), ttlMs: 100 });
        await time.advance(500);
        const late = await store.renewLease(first, time.now(), 100);
        expect(late.expiresAt).toBe(T0 + 600);
        await store.releaseLease(late);
        expect(await store.getLease('r1')).toBeUndefined();
        expect(await codeOf(store.renewLease(late, time.now(), 100))).toBe('E_STORE_LEASE_LOST');
        const again = await store.acquireLease({ runId: 'r1', holder: b, now: time.now(), ttlMs: 100 });
        expect(again.pid).toBe(202);
        expect(
          await codeOf(store.acquireLease({ runId: 'nope', holder: a, now: time.now(), ttlMs: 100 })),
        ).toBe('E_STORE_UNKNOWN_RUN');
      });
    });

    describe('lease in a batch', () => {
      const lease = (token: string, at: number, pid = 101, host = 'alpha') => ({
        runId: 'r1',
        token,
        pid,
        host,
        acquiredAt: at,
        expiresAt: at + 1000,
      });

      it('is taken with the run it belongs to and given up with its final status', async () => {
        const first = lease('t1', T0);
        await store.commit([runWrite(makeRun('r1')), { kind: 'lease', lease: first }]);
        expect(await store.getLease('r1')).toEqual(first);
        const renewed = await store.renewLease(first, T0 + 500, 1000);
        expect(renewed).toMatchObject({ token: 't1', expiresAt: T0 + 1500 });
        await store.commit([{ kind: 'lease', lease: lease('t1', T0 + 600) }]);
        expect(await store.getLease('r1')).toEqual(lease('t1', T0 + 600));
        await store.commit([
          pageWrite('r1', [0, 1]),
          {
            kind: 'run-status',
            update: { runId: 'r1', status: 'completed', at: T0 + 700, finishedAt: T0 + 700 },
          },
          { kind: 'release', lease: first },
        ]);
        expect(await store.getLease('r1')).toBeUndefined();
        expect((await store.getRun('r1'))?.status).toBe('completed');
        await store.commit([
          { kind: 'release', lease: first },
          { kind: 'release', lease: { ...first, runId: 'x' } },
        ]);
      });

      it('given up with a status under a token no longer held, keeps the holder that took it over', async () => {
        const first = lease('t1', T0);
        await store.commit([runWrite(makeRun('r1')), { kind: 'lease', lease: first }]);
        const taken = lease('t2', T0 + 1000, 202, 'beta');
        await store.commit([{ kind: 'lease', lease: taken }]);
        await store.commit([
          { kind: 'run-status', update: { runId: 'r1', status: 'aborted', at: T0 + 1001 } },
          { kind: 'release', lease: first },
        ]);
        expect((await store.getRun('r1'))?.status).toBe('aborted');
        expect(await store.getLease('r1')).toEqual(taken);
        const ghost = { ...first, runId: 'ghost' };
        const status = { kind: 'run-status', update: { runId: 'ghost', status: 'failed', at: T0 } } as const;
        expect(await codeOf(store.commit([status, { kind: 'release', lease: ghost }]))).toBe(
          'E_STORE_UNKNOWN_RUN',
        );
        await expect(
          store.commit([
            runWrite(makeRun('r3')),
            { kind: 'lease', lease: { ...first, runId: 'r3', expiresAt: T0 } },
          ]),
        ).rejects.toThrow(RangeError);
        expect(await store.getRun('r3')).toBeUndefined();
        expect(await codeOf(store.commit([runWrite(makeRun('r1')), { kind: 'lease', lease: first }]))).toBe(
          'E_STORE_CONFLICT',
        );
        expect(await store.getLease('r1')).toEqual(taken);
      });

      it('refused while another token holds it live fails the whole batch, naming the holder', async () => {
        await store.commit([runWrite(makeRun('r1'))]);
        const held = await store.acquireLease({
          runId: 'r1',
          holder: { pid: 202, host: 'beta' },
          now: T0,
          ttlMs: 1000,
        });
        const batch = [
          { kind: 'checkpoint', checkpoint: makeCheckpoint('r1', '1') },
          pageWrite('r1', [0, 1]),
          runWrite(makeRun('r2')),
          { kind: 'lease', lease: lease('mine', T0 + 999) },
        ] as const;
        await expect(store.commit(batch)).rejects.toThrow(/process 202 on beta/);
        expect(await codeOf(store.commit(batch))).toBe('E_STORE_LEASE_HELD');
        expect(await store.getCheckpoint('r1', '1')).toBeUndefined();
        expect(await store.readEvents('r1')).toEqual([]);
        expect(await store.getRun('r2')).toBeUndefined();
        expect(await store.getLease('r1')).toEqual(held);
        await store.commit([{ kind: 'release', lease: lease('mine', T0) }]);
        expect(await store.getLease('r1')).toEqual(held);
        const taken = lease('mine', T0 + 1000);
        await store.commit([...batch.slice(0, 3), { kind: 'lease', lease: taken }]);
        expect(await store.getLease('r1')).toEqual(taken);
        expect(await codeOf(store.renewLease(held, T0 + 1000, 1000))).toBe('E_STORE_LEASE_LOST');
        expect(
          await codeOf(store.commit([{ kind: 'lease', lease: { ...lease('t', T0), runId: 'ghost' } }])),
        ).toBe('E_STORE_UNKNOWN_RUN');
      });

      it('fences a batch: held under its token it writes, taken over or released it fails whole', async () => {
        const first = lease('t1', T0);
        await store.commit([runWrite(makeRun('r1')), { kind: 'lease', lease: first }]);
        const fenced = (checkpoint: string) =>
          [
            { kind: 'held', lease: first },
            { kind: 'checkpoint', checkpoint: makeCheckpoint('r1', checkpoint) },
          ] as const;
        await store.commit(fenced('1'));
        expect(await store.getCheckpoint('r1', '1')).toBeDefined();
        const taken = lease('t2', T0 + 1000);
        await store.commit([{ kind: 'lease', lease: taken }]);
        const lost = store.commit(fenced('2'));
        await expect(lost).rejects.toThrow(/taken over by process/);
        expect(await codeOf(store.commit(fenced('2')))).toBe('E_STORE_LEASE_LOST');
        expect(await store.getCheckpoint('r1', '2')).toBeUndefined();
        await store.commit([{ kind: 'release', lease: taken }]);
        expect(await codeOf(store.commit(fenced('3')))).toBe('E_STORE_LEASE_LOST');
        expect(await store.getCheckpoint('r1', '3')).toBeUndefined();
      });

      it('undone with its batch: a failed batch keeps the lease it would have released', async () => {
        const first = lease('t1', T0);
        await store.commit([runWrite(makeRun('r1')), { kind: 'lease', lease: first }]);
        const batch = [
          { kind: 'release', lease: first },
          ...eventWrites('r1', 0, 1),
          ...eventWrites('r1', 0, 1),
        ] as const;
        expect(await codeOf(store.commit(batch))).toBe('E_STORE_CONFLICT');
        expect(await store.getLease('r1')).toEqual(first);
      });
    });

    answerContract(() => store);

    describe('listing', () => {
      const statuses = [
        'running',
        'completed',
        'failed',
        'aborted',
        'completed',
        'running',
        'completed',
      ] as const;
      beforeEach(async () => {
        await store.commit(
          statuses.map((status, i) =>
            runWrite(
              makeRun(`run-${i}`, {
                status,
                createdAt: T0 + Math.floor(i / 2),
                dag: { iri: i % 3 === 0 ? 'urn:test:other' : 'urn:test:dag', hash: 'd'.repeat(64) },
              }),
            ),
          ),
        );
      });

      it('pages newest first without repeating or skipping a run, even when runs are added between pages', async () => {
        const ids: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await store.listRuns({ limit: 3, ...(cursor === undefined ? {} : { cursor }) });
          ids.push(...page.runs.map((run) => run.id));
          cursor = page.next;
          if (pages++ === 0) await store.commit([runWrite(makeRun('late', { createdAt: T0 + 100 }))]);
        } while (cursor !== undefined);
        expect(ids).toEqual(['run-6', 'run-5', 'run-4', 'run-3', 'run-2', 'run-1', 'run-0']);
        expect(pages).toBe(3);
        expect((await store.listRuns()).runs[0]?.id).toBe('late');
      });

      it('orders runs created at once by id as their UTF-8 bytes, as every store compares them', async () => {
        // U+FFFF comes after U+1F600 in UTF-16 code units (a surrogate, 0xD83D), before it in code points.
        const ids = ['\u{1F600}', '\uFFFF', 'b', '\u00E4', 'a', 'B', '\u{1F600}x'];
        await store.commit(ids.map((id) => runWrite(makeRun(id, { createdAt: T0 + 50 }))));
        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await store.listRuns({ limit: 2, ...(cursor === undefined ? {} : { cursor }) });
          seen.push(...page.runs.map((run) => run.id));
          cursor = page.next;
        } while (cursor !== undefined);
        const bytes = (id: string) => Buffer.from(id, 'utf8');
        const expected = [...ids].sort((a, b) => Buffer.compare(bytes(b), bytes(a)));
        expect(expected.slice(0, 3)).toEqual(['\u{1F600}x', '\u{1F600}', '\uFFFF']);
        expect(seen.slice(0, ids.length)).toEqual(expected);
      });

      it('filters by status and by DAG', async () => {
        const ids = async (query: Parameters<RunStore['listRuns']>[0]) =>
          (await store.listRuns(query)).runs.map((run) => run.id);
        expect(await ids({ status: 'completed' })).toEqual(['run-6', 'run-4', 'run-1']);
        expect(await ids({ status: ['failed', 'aborted'] })).toEqual(['run-3', 'run-2']);
        expect(await ids({ dag: 'urn:test:other' })).toEqual(['run-6', 'run-3', 'run-0']);
        expect(await ids({ dag: 'urn:test:other', status: 'completed', limit: 1 })).toEqual(['run-6']);
        expect(await ids({ status: [] })).toEqual([]);
        expect(await codeOf(store.listRuns({ cursor: 'not a cursor' }))).toBe('E_USAGE');
        expect(await codeOf(store.listRuns({ limit: 0 }))).toBe('E_USAGE');
      });

      it('lists a run waiting for an answer by its status, and moves it when its status changes', async () => {
        const ids = async (query: Parameters<RunStore['listRuns']>[0]) =>
          (await store.listRuns(query)).runs.map((run) => run.id);
        await store.commit([runWrite(makeRun('parked', { status: 'waiting', createdAt: T0 + 50 }))]);
        await store.commit([
          { kind: 'run-status', update: { runId: 'run-5', status: 'waiting', at: T0 + 60 } },
        ]);
        expect(await ids({ status: 'waiting' })).toEqual(['parked', 'run-5']);
        expect(await ids({ status: ['waiting', 'running'] })).toEqual(['parked', 'run-5', 'run-0']);
        expect(await ids({ status: 'running' })).toEqual(['run-0']);
        await store.commit([
          { kind: 'run-status', update: { runId: 'parked', status: 'running', at: T0 + 70 } },
        ]);
        expect(await ids({ status: 'waiting' })).toEqual(['run-5']);
        expect((await store.getRun('run-5'))?.status).toBe('waiting');
      });
    });

    describe('prune', () => {
      it('deletes ended runs older than a time with all their records, and keeps the rest', async () => {
        const time = createVirtualClock({ start: T0 });
        await store.commit([
          runWrite(makeRun('old-done', { status: 'completed', createdAt: T0 - 10 })),
          runWrite(makeRun('old-running', { status: 'running', createdAt: T0 - 10 })),
          runWrite(makeRun('new-done', { status: 'completed', createdAt: T0 })),
        ]);
        for (const id of ['old-done', 'old-running', 'new-done']) {
          await store.commit([
            { kind: 'checkpoint', checkpoint: makeCheckpoint(id, '1') },
            {
              kind: 'journal',
              entry: { runId: id, itemPath: '1', stepKey: 's', value: 'v', committedAt: T0 },
            },
            ...eventWrites(id, 0, 3),
            pageWrite(id, [3, 4, 5]),
          ]);
        }
        await store.acquireLease({
          runId: 'old-done',
          holder: { pid: 1, host: 'h' },
          now: time.now(),
          ttlMs: 10,
        });
        const result = await store.prune({ olderThan: T0 });
        expect(result.runs).toBe(1);
        expect(await store.getRun('old-done')).toBeUndefined();
        expect(await store.listCheckpoints('old-done')).toEqual([]);
        expect(await store.listJournal('old-done')).toEqual([]);
        expect(await store.readEvents('old-done')).toEqual([]);
        expect(await store.lastEventSeq('old-done')).toBeUndefined();
        expect(await store.getLease('old-done')).toBeUndefined();
        for (const id of ['old-running', 'new-done']) {
          expect((await store.getRun(id))?.id).toBe(id);
          expect(await store.listCheckpoints(id)).toHaveLength(1);
          expect(await store.readEvents(id)).toHaveLength(6);
          expect(await store.lastEventSeq(id)).toBe(5);
        }
        expect((await store.prune({ olderThan: T0, statuses: ['running'] })).runs).toBe(1);
        expect((await store.listRuns()).runs.map((run) => run.id)).toEqual(['new-done']);
      });

      it('keeps a run waiting for an answer by default, however old, and deletes it when asked to', async () => {
        await store.commit([
          runWrite(makeRun('old-waiting', { status: 'waiting', createdAt: T0 - 10 })),
          runWrite(makeRun('old-failed', { status: 'failed', createdAt: T0 - 10 })),
          { kind: 'checkpoint', checkpoint: makeCheckpoint('old-waiting', '1') },
          { kind: 'answer', answer: { runId: 'old-waiting', token: 'aw-1', output: 'ok', answeredAt: T0 } },
        ]);
        expect((await store.prune({ olderThan: T0 })).runs).toBe(1);
        expect((await store.getRun('old-waiting'))?.status).toBe('waiting');
        expect(await store.listCheckpoints('old-waiting')).toHaveLength(1);
        expect(await store.listAnswers('old-waiting')).toHaveLength(1);
        expect((await store.prune({ olderThan: T0, statuses: ['waiting'] })).runs).toBe(1);
        expect(await store.getRun('old-waiting')).toBeUndefined();
        expect(await store.listAnswers('old-waiting')).toEqual([]);
      });

      it('keeps runs that share a large document and policy whole when one of them is pruned', async () => {
        const document = { '@id': 'urn:test:big', placements: Array.from({ length: 20 }, (_, i) => `p${i}`) };
        const shared = {
          dag: { iri: 'urn:test:big', hash: 'd'.repeat(64), document },
          documents: [{ iri: 'urn:test:child', hash: 'e'.repeat(64), document }],
          policy: { value: { defaults: { note: 'x'.repeat(200) } }, hash: 'f'.repeat(64) },
        };
        const old = makeRun('old', { ...shared, status: 'completed', createdAt: T0 - 10 });
        const kept = makeRun('kept', { ...shared, status: 'completed', createdAt: T0 });
        const other = makeRun('other', {
          ...shared,
          policy: { value: { defaults: { note: 'y'.repeat(200) } }, hash: '0'.repeat(64) },
          createdAt: T0 - 20,
          status: 'failed',
        });
        await store.commit([runWrite(old), runWrite(kept), runWrite(other)]);
        expect(await store.getRun('old')).toEqual(old);
        expect((await store.prune({ olderThan: T0 })).runs).toBe(2);
        expect(await store.getRun('kept')).toEqual(kept);
        expect((await store.listRuns()).runs).toEqual([kept]);
        await store.commit([runWrite(other)]);
        expect(await store.getRun('other')).toEqual(other);
      });
    });

    it('refuses every call once closed', async () => {
      await store.close();
      expect(await codeOf(store.getRun('r1'))).toBe('E_STORE_CLOSED');
      expect(await codeOf(store.commit([runWrite(makeRun('r1'))]))).toBe('E_STORE_CLOSED');
    });
  });
}
