/**
 * The part of the RunStore contract about answers to awaits, run by {@link storeContract} against each store:
 * one answer per token, kept with its run, refused whole with its batch.
 */
import { describe, expect, it } from 'vitest';
import type { AnswerRecord, RunStore, StoreWrite } from '../../src/store/types.ts';
import { bare, makeCheckpoint, makeRun, runWrite, T0 } from './fixtures.ts';
import { codeOf } from './refusal.ts';

/** An answer to `token` of `runId`, carrying `data` when given. */
function makeAnswer(runId: string, token: string, output = 'approved', data?: unknown): AnswerRecord {
  return { runId, token, output, ...(data === undefined ? {} : { data }), answeredAt: T0 + 7 };
}

/** The answer stored under `token`, which the case has written. */
async function answerOf(store: RunStore, runId: string, token: string): Promise<AnswerRecord> {
  const answer = await store.getAnswer(runId, token);
  if (answer === undefined) throw new Error(`the store lost the answer to ${token}`);
  return answer;
}

function answerWrite(answer: AnswerRecord): StoreWrite {
  return { kind: 'answer', answer };
}

/** The answer cases, on the store `current` gives (a fresh one per case). */
export function answerContract(current: () => RunStore): void {
  describe('answers', () => {
    it('give back an answer as it was written, with its data or without any, copied in and out', async () => {
      const store = current();
      const data = { review: { notes: ['tighten the intro'], score: 4 }, extra: bare({ ['__proto__']: 1 }) };
      const withData = makeAnswer('r1', 'aw-1', 'approved', data);
      const without = makeAnswer('r1', 'aw-2', 'rejected');
      await store.commit([runWrite(makeRun('r1')), answerWrite(withData), answerWrite(without)]);
      data.review.notes.push('changed after commit');
      const read = await answerOf(store, 'r1', 'aw-1');
      const readData = read.data as typeof data;
      expect(readData.review).toEqual({ notes: ['tighten the intro'], score: 4 });
      expect(Object.getOwnPropertyDescriptor(readData.extra, '__proto__')?.value).toBe(1);
      expect(read).toMatchObject({ runId: 'r1', token: 'aw-1', output: 'approved', answeredAt: T0 + 7 });
      readData.review.score = 0;
      expect(((await answerOf(store, 'r1', 'aw-1')).data as typeof data).review.score).toBe(4);
      const noData = await answerOf(store, 'r1', 'aw-2');
      expect(noData).toEqual(without);
      expect('data' in noData).toBe(false);
      await store.commit([answerWrite({ ...makeAnswer('r1', 'aw-3'), data: null })]);
      expect((await answerOf(store, 'r1', 'aw-3')).data).toBeNull();
      expect(await store.getAnswer('r1', 'aw-9')).toBeUndefined();
      expect(await store.getAnswer('other', 'aw-1')).toBeUndefined();
    });

    it('refuse a second answer to a token, naming it, and leave the whole batch unwritten', async () => {
      const store = current();
      const first = makeAnswer('r1', 'aw-1', 'approved', { by: 'ed' });
      await store.commit([runWrite(makeRun('r1')), answerWrite(first)]);
      const second = [
        { kind: 'checkpoint', checkpoint: makeCheckpoint('r1', '1') },
        answerWrite(makeAnswer('r1', 'aw-2')),
        answerWrite(makeAnswer('r1', 'aw-1', 'rejected')),
      ] as const;
      await expect(store.commit(second)).rejects.toThrow(/token 'aw-1' of run 'r1' was already answered/);
      expect(await codeOf(store.commit(second))).toBe('E_STORE_CONFLICT');
      expect(await store.getCheckpoint('r1', '1')).toBeUndefined();
      expect(await store.getAnswer('r1', 'aw-2')).toBeUndefined();
      expect(await store.getAnswer('r1', 'aw-1')).toEqual(first);
      const twice = [
        answerWrite(makeAnswer('r1', 'aw-3')),
        answerWrite(makeAnswer('r1', 'aw-3', 'rejected')),
      ];
      expect(await codeOf(store.commit(twice))).toBe('E_STORE_CONFLICT');
      expect(await store.getAnswer('r1', 'aw-3')).toBeUndefined();
      expect(await store.listAnswers('r1')).toEqual([first]);
    });

    it('need their run: an answer to a run not stored refuses its batch', async () => {
      const store = current();
      expect(await codeOf(store.commit([answerWrite(makeAnswer('ghost', 'aw-1'))]))).toBe(
        'E_STORE_UNKNOWN_RUN',
      );
      await expect(
        store.commit([runWrite(makeRun('r2')), answerWrite(makeAnswer('ghost', 'aw-1'))]),
      ).rejects.toThrow(/answer to token 'aw-1' of run 'ghost'/);
      expect(await store.getRun('r2')).toBeUndefined();
      expect(await store.listAnswers('ghost')).toEqual([]);
    });

    it('list a run’s answers in the order they were given, not by token', async () => {
      const store = current();
      await store.commit([runWrite(makeRun('r1')), runWrite(makeRun('r2'))]);
      await store.commit([answerWrite(makeAnswer('r1', 'aw-c'))]);
      await store.commit([
        answerWrite(makeAnswer('r1', 'aw-a', 'rejected', [1])),
        answerWrite(makeAnswer('r2', 'aw-a')),
        answerWrite(makeAnswer('r1', 'aw-b')),
      ]);
      expect((await store.listAnswers('r1')).map((a) => [a.token, a.output])).toEqual([
        ['aw-c', 'approved'],
        ['aw-a', 'rejected'],
        ['aw-b', 'approved'],
      ]);
      expect(await store.listAnswers('r2')).toEqual([makeAnswer('r2', 'aw-a')]);
      expect(await store.listAnswers('other')).toEqual([]);
    });

    it('are deleted with their run by a prune, and kept with the runs it keeps', async () => {
      const store = current();
      await store.commit([
        runWrite(makeRun('old', { status: 'completed', createdAt: T0 - 10 })),
        runWrite(makeRun('kept', { status: 'completed', createdAt: T0 })),
        answerWrite(makeAnswer('old', 'aw-1')),
        answerWrite(makeAnswer('kept', 'aw-1')),
      ]);
      expect((await store.prune({ olderThan: T0 })).runs).toBe(1);
      expect(await store.listAnswers('old')).toEqual([]);
      expect(await store.getAnswer('old', 'aw-1')).toBeUndefined();
      expect(await store.listAnswers('kept')).toEqual([makeAnswer('kept', 'aw-1')]);
      // A run written again under the pruned id starts with no answers.
      await store.commit([runWrite(makeRun('old')), answerWrite(makeAnswer('old', 'aw-1', 'rejected'))]);
      expect(await store.listAnswers('old')).toEqual([makeAnswer('old', 'aw-1', 'rejected')]);
    });

    it('refuse data that is not JSON with one line', async () => {
      const store = current();
      await store.commit([runWrite(makeRun('r1'))]);
      expect(await codeOf(store.commit([answerWrite(makeAnswer('r1', 'aw-1', 'approved', { n: 1n }))]))).toBe(
        'E_INPUT',
      );
      expect(await store.listAnswers('r1')).toEqual([]);
    });
  });
}
