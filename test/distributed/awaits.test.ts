/**
 * Await placements over workers on a real Redis (127.0.0.1:6379, or SWITCHYARD_TEST_REDIS): items park in
 * Redis with their checkpoint waiting for an answer, no worker slot held; an answer from another
 * dispatcher, or from a process of its own, carries them on; the deadline routes them; an answer given
 * before the item parks is kept; a second answer and bad ones are refused, changing nothing; an abort ends
 * parked items. Deadlines are short and real, and no assertion reads the time. Every key is removed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { answerToken } from '../../src/awaits/token.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import { removeScratchKeys } from '../store/redis-scratch.ts';
import { answerElsewhere, parkedOf, plain, review, startRig, until } from './fixtures/awaits.ts';

afterAll(removeScratchKeys);

const DAY = 86_400_000;

describe('await placements on workers', () => {
  it('parks on two workers; answers from another dispatcher and another process carry the run on', {
    timeout: 60_000,
  }, async () => {
    const rig = await startRig(DAY, { workers: 2 });
    try {
      const events: RunEvent[] = [];
      const items = [{ title: 'A' }, { title: 'B' }];
      const run = rig.dispatcher.run(review, {}, { items, onEvent: (e) => events.push(e) });
      await until(() => parkedOf(events).length === 2);
      const [first, second] = parkedOf(events).sort((a, b) => a.item.localeCompare(b.item));
      expect(first?.token).toBe(
        answerToken({ runId: run.id, item: '1', dag: review.id, placement: 'review', visit: 1 }),
      );
      expect(first?.answers).toEqual(['approved', 'rejected']);
      // Each parked item's checkpoint waits for its answer, with its token, as `runs show` reads it.
      await until(async () => (await rig.store.listCheckpoints(run.id, 'waiting')).length === 2);
      const waiting = await rig.store.listCheckpoints(run.id, 'waiting');
      expect(
        waiting.map((c) => [c.itemId, c.position.placement, c.position.wait?.reason, c.position.wait?.token]),
      ).toEqual([
        ['1', 'review', 'await', first?.token],
        ['2', 'review', 'await', second?.token],
      ]);
      const elsewhere = await answerElsewhere(rig.prefix, run.id, first?.token ?? '', 'approved', {
        by: 'ed',
      });
      expect(elsewhere).toMatchObject({
        status: 'taken',
        item: '1',
        placement: 'review',
        output: 'approved',
      });
      const receipt = await rig.other.answer({
        runId: run.id,
        item: '2',
        placement: 'review',
        output: 'rejected',
      });
      expect(receipt).toMatchObject({ status: 'taken', token: second?.token, item: '2' });
      const result = await run;
      expect(result.items.map((i) => [i.id, i.terminal, i.data])).toEqual([
        ['1', 'publish', { title: 'A', drafted: true, review: { by: 'ed' } }],
        ['2', 'drop', { title: 'B', drafted: true }],
      ]);
      const answered = events.filter((e) => e.type === 'await.answered');
      expect(answered.map((e) => [e.item, e.output, e.early])).toEqual(
        expect.arrayContaining([
          ['1', 'approved', undefined],
          ['2', 'rejected', undefined],
        ]),
      );
      expect((await rig.store.listAnswers(run.id)).map((a) => a.output).sort()).toEqual([
        'approved',
        'rejected',
      ]);
      // The run has ended: an answer now is refused.
      await expect(
        rig.other.answer({ runId: run.id, token: first?.token ?? '', output: 'approved' }),
      ).rejects.toMatchObject({ code: 'E_RUN_FINISHED' });
    } finally {
      await rig.close();
    }
  });

  it('takes the deadline route when nobody answers, and refuses an answer after it', {
    timeout: 30_000,
  }, async () => {
    const rig = await startRig(150);
    try {
      const events: RunEvent[] = [];
      const run = rig.dispatcher.run(review, {}, { items: [{}, {}], onEvent: (e) => events.push(e) });
      const result = await run;
      expect(result.failures).toEqual([]);
      expect(result.items.map((i) => [i.id, i.terminal, i.outcome])).toEqual([
        ['1', 'escalate', 'failed'],
        ['2', 'escalate', 'failed'],
      ]);
      const expired = events.filter((e) => e.type === 'await.expired');
      expect(expired.map((e) => e.item).sort()).toEqual(['1', '2']);
      expect(events.some((e) => e.type === 'await.answered')).toBe(false);
      const token = parkedOf(events)[0]?.token ?? '';
      await expect(rig.other.answer({ runId: run.id, token, output: 'approved' })).rejects.toMatchObject({
        code: 'E_RUN_FINISHED',
      });
    } finally {
      await rig.close();
    }
  });

  it('keeps an answer given before the item parks and takes it when it does', {
    timeout: 30_000,
  }, async () => {
    let release: () => void = () => undefined;
    const drafted = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = false;
    const gated = defineNode({
      id: 'urn:test:draft',
      outputs: ['done'],
      run: async (item) => {
        started = true;
        await drafted;
        item.data.drafted = true;
        return 'done';
      },
    });
    const rig = await startRig(DAY, { nodes: [gated] as unknown as NodeDefinition<string, never>[] });
    try {
      const events: RunEvent[] = [];
      const run = rig.dispatcher.run(review, {}, { items: [{}], onEvent: (e) => events.push(e) });
      await until(() => started);
      const token = answerToken({ runId: run.id, item: '1', dag: review.id, placement: 'review', visit: 1 });
      const receipt = await rig.other.answer({
        runId: run.id,
        token,
        output: 'approved',
        data: { early: 1 },
      });
      expect(receipt).toEqual({ runId: run.id, token, output: 'approved', status: 'kept' });
      release();
      const result = await run;
      expect(result.items[0]?.terminal).toBe('publish');
      expect(result.items[0]?.data).toEqual({ drafted: true, review: { early: 1 } });
      expect(events.find((e) => e.type === 'await.answered')).toMatchObject({
        early: true,
        output: 'approved',
      });
    } finally {
      await rig.close();
    }
  });

  it('refuses a second answer, an unexpected output and a token that is none, changing nothing', {
    timeout: 30_000,
  }, async () => {
    const rig = await startRig(DAY);
    try {
      const events: RunEvent[] = [];
      const run = rig.dispatcher.run(review, {}, { items: [{}], onEvent: (e) => events.push(e) });
      await until(() => parkedOf(events).length === 1);
      const token = parkedOf(events)[0]?.token ?? '';
      await expect(rig.other.answer({ runId: run.id, token, output: 'maybe' })).rejects.toMatchObject({
        code: 'E_ANSWER',
        message: expect.stringContaining("'approved', 'rejected'"),
      });
      await expect(
        rig.other.answer({ runId: run.id, token: 'aw-nope', output: 'approved' }),
      ).rejects.toMatchObject({
        code: 'E_UNKNOWN_TOKEN',
      });
      expect(await rig.store.listAnswers(run.id)).toEqual([]);
      const [one, two] = await Promise.allSettled([
        rig.other.answer({ runId: run.id, token, output: 'rejected' }),
        rig.dispatcher.answer({ runId: run.id, token, output: 'approved' }),
      ]);
      // Exactly one of two answers given at once is taken.
      const outcomes = [one, two].map((o) =>
        o.status === 'fulfilled' ? o.value.status : (o.reason as { code: string }).code,
      );
      expect(outcomes.sort()).toEqual(['E_ALREADY_ANSWERED', 'taken']);
      const winner = one?.status === 'fulfilled' ? 'drop' : 'publish';
      const result = await run;
      expect(result.items[0]?.terminal).toBe(winner);
      expect(await rig.store.listAnswers(run.id)).toHaveLength(1);
    } finally {
      await rig.close();
    }
  });

  it('holds no worker slot while parked: a worker of concurrency 1 carries another run meanwhile', {
    timeout: 30_000,
  }, async () => {
    const rig = await startRig(DAY, { concurrency: 1 });
    try {
      const events: RunEvent[] = [];
      const parkedRun = rig.dispatcher.run(
        review,
        {},
        { items: [{}, {}, {}], onEvent: (e) => events.push(e) },
      );
      await until(() => parkedOf(events).length === 3);
      const other = await rig.dispatcher.run(plain, {}, { items: [{}, {}] });
      expect(other.items.map((i) => i.terminal)).toEqual(['publish', 'publish']);
      expect((await rig.store.getRun(parkedRun.id))?.status).toBe('running');
      for (const parked of parkedOf(events)) {
        await rig.other.answer({ runId: parkedRun.id, token: parked.token, output: 'approved' });
      }
      const result = await parkedRun;
      expect(result.items.map((i) => i.terminal)).toEqual(['publish', 'publish', 'publish']);
    } finally {
      await rig.close();
    }
  });

  // The run deadline leaves the item ample time to park first: it parks within milliseconds.
  it('fails a parked item on the run deadline, as one process does', { timeout: 30_000 }, async () => {
    const rig = await startRig(DAY);
    try {
      const result = await rig.dispatcher.run(review, {}, { items: [{}], deadlineMs: 3_000 });
      expect(result.failures.map((f) => [f.id, f.placement, f.error.code, f.error.message])).toEqual([
        [
          '1',
          'review',
          'E_RUN_DEADLINE',
          "the run deadline passed while item 1 was at 'review' (waiting for answer); raise the run deadline",
        ],
      ]);
    } finally {
      await rig.close();
    }
  });

  it('ends parked items as aborted when the run is aborted', { timeout: 30_000 }, async () => {
    const rig = await startRig(DAY);
    try {
      const events: RunEvent[] = [];
      const run = rig.dispatcher.run(review, {}, { items: [{}, {}], onEvent: (e) => events.push(e) });
      await until(() => parkedOf(events).length === 2);
      const outcome = await rig.other.abort(run.id, { reason: 'test' });
      expect(outcome).toEqual({ status: 'aborted', removed: 2 });
      const result = await run;
      expect(result.status).toBe('aborted');
      expect(result.aborted.map((a) => [a.item, a.placement, a.waitingFor])).toEqual([
        ['1', 'review', 'answer'],
        ['2', 'review', 'answer'],
      ]);
      const token = parkedOf(events)[0]?.token ?? '';
      await expect(rig.other.answer({ runId: run.id, token, output: 'approved' })).rejects.toMatchObject({
        code: 'E_RUN_FINISHED',
      });
    } finally {
      await rig.close();
    }
  });
});
