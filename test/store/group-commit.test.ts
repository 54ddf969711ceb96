/**
 * Group commit: writes made in the same turn go to the store as one batch; each caller's promise settles with
 * its batch, and batches reach the store in the order they closed.
 */
import { describe, expect, it } from 'vitest';
import { createGroupCommitter } from '../../src/store/group-commit.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import type { RunStore, StoreWrite } from '../../src/store/types.ts';
import { eventWrites, makeCheckpoint, makeRun, runWrite } from './fixtures.ts';

/** A real memory store that also records the size of every batch committed to it. */
function recording(store: RunStore): { store: RunStore; batches: number[] } {
  const batches: number[] = [];
  const commit = store.commit.bind(store);
  return {
    batches,
    store: Object.assign(Object.create(store) as RunStore, {
      commit: (batch: readonly StoreWrite[]) => {
        batches.push(batch.length);
        return commit(batch);
      },
    }),
  };
}

describe('group commit', () => {
  it('commits the writes of one turn in one batch, durable when each promise resolves', async () => {
    const base = createMemoryStore();
    await base.commit([runWrite(makeRun('r1'))]);
    const { store, batches } = recording(base);
    const group = createGroupCommitter(store);
    const pending = Array.from({ length: 100 }, (_, i) =>
      group.write({ kind: 'checkpoint', checkpoint: makeCheckpoint('r1', String(i)) }),
    );
    expect(batches).toEqual([]);
    await Promise.all(pending);
    expect(batches).toEqual([100]);
    expect(await base.listCheckpoints('r1')).toHaveLength(100);
    await group.write(...eventWrites('r1', 0, 3));
    await group.write(...eventWrites('r1', 3, 4));
    expect(batches).toEqual([100, 3, 1]);
    await group.write();
    await group.flush();
    expect(batches).toEqual([100, 3, 1, 0]);
  });

  it('rejects every write of a failed batch, and the next batch still goes', async () => {
    const base = createMemoryStore();
    await base.commit([runWrite(makeRun('r1'))]);
    const group = createGroupCommitter(base);
    const good = group.write(...eventWrites('r1', 0, 1));
    const bad = group.write({ kind: 'checkpoint', checkpoint: makeCheckpoint('ghost', '1') });
    await expect(good).rejects.toMatchObject({ code: 'E_STORE_UNKNOWN_RUN' });
    await expect(bad).rejects.toMatchObject({ code: 'E_STORE_UNKNOWN_RUN' });
    expect(await base.readEvents('r1')).toEqual([]);
    await group.write(...eventWrites('r1', 0, 1));
    expect(await base.lastEventSeq('r1')).toBe(0);
  });

  it('closes batches when the schedule says, and commits them in order', async () => {
    const base = createMemoryStore();
    await base.commit([runWrite(makeRun('r1'))]);
    const { store, batches } = recording(base);
    const flushes: (() => void)[] = [];
    const group = createGroupCommitter(store, (flush) => flushes.push(flush));
    const first = group.write(...eventWrites('r1', 0, 2));
    await Promise.resolve();
    const second = group.write(...eventWrites('r1', 2, 3));
    expect(flushes).toHaveLength(1);
    expect(batches).toEqual([]);
    (flushes[0] as () => void)();
    await Promise.all([first, second]);
    expect(batches).toEqual([3]);
    const third = group.write(...eventWrites('r1', 3, 5));
    await group.flush();
    await third;
    expect(batches).toEqual([3, 2]);
    expect((await base.readEvents('r1')).map((e) => e.seq)).toEqual([0, 1, 2, 3, 4]);
  });
});
