/**
 * Await placements inside a scatter's sub-DAG and inside an embed, over workers on a real Redis: the
 * children park in Redis and resume in place on their answers or their deadline, their parent waiting on
 * them as it does for any child. Every key is removed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Dag } from '../../src/document/model.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { removeScratchKeys } from '../store/redis-scratch.ts';
import { embedding, fanned, parkedOf, startRig, until } from './fixtures/awaits.ts';

afterAll(removeScratchKeys);

const DAY = 86_400_000;

describe('await placements in children on workers', () => {
  it('parks a scatter’s sub-DAG children and resumes them in place on their answers', {
    timeout: 30_000,
  }, async () => {
    const rig = await startRig(DAY, { workers: 2 });
    try {
      const events: RunEvent[] = [];
      const run = rig.dispatcher.run(
        fanned as Dag,
        { xs: ['a', 'b', 'c'] },
        { onEvent: (e) => events.push(e) },
      );
      await until(() => parkedOf(events).length === 3);
      const byItem = new Map(parkedOf(events).map((p) => [p.item, p]));
      const children = [...byItem.keys()].sort();
      expect(children).toHaveLength(3);
      // Two approved, one rejected: the gather's partition needs any completed.
      for (const [i, item] of children.entries()) {
        const token = byItem.get(item)?.token ?? '';
        const output = i === 1 ? 'rejected' : 'approved';
        await rig.other.answer({ runId: run.id, token, output, data: { n: i } });
      }
      const result = await run;
      expect(result.items[0]?.terminal).toBe('ok');
      const out = result.items[0]?.data.out as { completed: unknown[]; failed: unknown[] };
      expect(out.completed).toHaveLength(2);
      expect(out.failed).toHaveLength(1);
    } finally {
      await rig.close();
    }
  });

  it('parks an embed’s item, which takes its deadline route in place', { timeout: 30_000 }, async () => {
    const rig = await startRig(150);
    try {
      const events: RunEvent[] = [];
      const run = rig.dispatcher.run(embedding as Dag, {}, { onEvent: (e) => events.push(e) });
      const result = await run;
      expect(result.items[0]?.terminal).toBe('ko');
      expect(events.filter((e) => e.type === 'await.expired')).toHaveLength(1);
    } finally {
      await rig.close();
    }
  });

  it('resumes an embed’s parked item on its answer, with the answer’s data mapped out', {
    timeout: 30_000,
  }, async () => {
    const rig = await startRig(DAY);
    try {
      const events: RunEvent[] = [];
      const run = rig.dispatcher.run(embedding as Dag, {}, { onEvent: (e) => events.push(e) });
      await until(() => parkedOf(events).length === 1);
      const parked = parkedOf(events)[0];
      const receipt = await rig.other.answer({
        runId: run.id,
        item: parked?.item ?? '',
        placement: 'review',
        dag: parked?.dag ?? '',
        output: 'approved',
        data: { ok: true },
      });
      expect(receipt.status).toBe('taken');
      const result = await run;
      expect(result.items[0]?.terminal).toBe('ok');
      expect(result.items[0]?.data.verdict).toEqual({ ok: true });
    } finally {
      await rig.close();
    }
  });
});
