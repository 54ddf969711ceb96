import type { Clock } from '../policy/types.ts';
import type { ItemState } from '../runtime/item-state.ts';
import { bindJournal, readFormatOneKeys } from '../runtime/journal.ts';
import { isPositionOnlyKey } from '../runtime/journal-key.ts';
import { journalsFrom } from '../runtime/resume-book.ts';
import type { RunStore } from '../store/types.ts';

/**
 * Makes a job's item read and write its `ctx.step` values in the run store: the values committed for its
 * input item (by any worker, in any earlier job) are merged into its journal first, and each new value is
 * committed before `ctx.step` returns. A job run again after its worker died then finds the steps that
 * worker committed and does not run them again. Each value is stamped with the wall time of `clock`.
 */
export async function journalInStore(
  store: RunStore,
  runId: string,
  state: ItemState,
  clock: Clock,
): Promise<void> {
  const root = state.root ?? state.id;
  const committed = journalsFrom(await store.listJournal(runId, root)).get(root);
  if (committed !== undefined) {
    for (const key of Object.keys(committed)) {
      if (!Object.hasOwn(state.journal, key)) state.journal[key] = committed[key] as never;
      // A value committed by an earlier version may name its scatter child by position only.
      if (isPositionOnlyKey(key)) readFormatOneKeys(state.journal);
    }
  }
  bindJournal(state.journal, (stepKey, entry) =>
    store.commit([
      {
        kind: 'journal',
        entry: { runId, itemPath: root, stepKey, value: JSON.stringify(entry), committedAt: clock.wallNow() },
      },
    ]),
  );
}
