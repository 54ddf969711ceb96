/**
 * An answer given by token before its item parks is checked against the await the token names when it is
 * an input item's: over workers on a real Redis, one that await does not expect is refused at once, with
 * nothing recorded, as in one process, and a fitting one is kept and taken when the item parks. Every key
 * is removed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { answerToken } from '../../src/awaits/token.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import { removeScratchKeys } from '../store/redis-scratch.ts';
import { parkedOf, startRig, twice, until } from './fixtures/awaits.ts';

afterAll(removeScratchKeys);

describe('an early answer that does not fit', () => {
  it('is refused at once, and the item takes one that fits', { timeout: 30_000 }, async () => {
    let release: () => void = () => undefined;
    const drafted = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = false;
    const gated = defineNode({
      id: 'urn:test:draft',
      outputs: ['done'],
      run: async () => {
        started = true;
        await drafted;
        return 'done';
      },
    });
    const policy = {
      placements: { review: { deadlineMs: 86_400_000 }, confirm: { deadlineMs: 86_400_000 } },
    };
    const rig = await startRig(0, { nodes: [gated] as unknown as NodeDefinition<string, never>[], policy });
    try {
      const events: RunEvent[] = [];
      const run = rig.dispatcher.run(twice, {}, { items: [{}], onEvent: (e) => events.push(e) });
      await until(() => started);
      const token = answerToken({ runId: run.id, item: '1', dag: twice.id, placement: 'review', visit: 1 });
      // `ok` is an answer of the run (confirm's), but the token is item 1's at review, which does not expect it.
      await expect(rig.other.answer({ runId: run.id, token, output: 'ok' })).rejects.toMatchObject({
        code: 'E_ANSWER',
        message: expect.stringContaining("'review'"),
      });
      expect(await rig.store.listAnswers(run.id)).toEqual([]);
      expect((await rig.other.answer({ runId: run.id, token, output: 'approved' })).status).toBe('kept');
      release();
      await until(() => parkedOf(events).length === 2);
      expect(events.some((e) => e.type === 'warning')).toBe(false);
      const confirm = parkedOf(events)[1];
      await rig.other.answer({ runId: run.id, item: '1', placement: 'confirm', output: 'ok' });
      const result = await run;
      expect(result.items[0]?.terminal).toBe('publish');
      expect(confirm?.placement).toBe('confirm');
      expect((await rig.store.listAnswers(run.id)).map((a) => a.output)).toEqual(['approved', 'ok']);
    } finally {
      await rig.close();
    }
  });
});
