/**
 * An answer given by token before its item parks is checked only against the run's awaits as a whole; over
 * workers on a real Redis, one that does not fit the await its item parks at is dropped with a
 * `W_ANSWER_IGNORED` warning, as in one process, and the item waits for an answer that fits. Every key is
 * removed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { answerToken } from '../../src/awaits/token.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import { removeScratchKeys } from '../store/redis-scratch.ts';
import { parkedOf, startRig, twice, until } from './fixtures/awaits.ts';

afterAll(removeScratchKeys);

describe('an early answer that does not fit', () => {
  it('is dropped with a warning, and the item waits for one that fits', { timeout: 30_000 }, async () => {
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
      // `ok` is an answer of the run (confirm's), so it is kept; review does not expect it.
      expect((await rig.other.answer({ runId: run.id, token, output: 'ok' })).status).toBe('kept');
      release();
      await until(() => parkedOf(events).length === 1);
      await until(() => events.some((e) => e.type === 'warning'));
      expect(events.find((e) => e.type === 'warning')).toMatchObject({
        code: 'W_ANSWER_IGNORED',
        item: '1',
        placement: 'review',
      });
      expect((await rig.other.answer({ runId: run.id, token, output: 'approved' })).status).toBe('taken');
      await until(() => parkedOf(events).length === 2);
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
