/**
 * The gates of a durable run resumed after a stop: the closings its events recorded that are still in
 * force, and the pace of the gates it passes, restored into the dispatcher's gates before any item goes on.
 */
import type { LocalGates } from '../gates/local-gates.ts';
import { RecordedGates } from '../gates/recorded.ts';
import type { GatePolicy } from '../gates/types.ts';
import type { RuntimePolicy } from '../policy/types.ts';
import type { RunStore } from '../store/types.ts';
import type { Prepared } from './prepare.ts';

/** What the restore needs of a dispatcher's gates. */
export type RestorableGates = Pick<LocalGates, 'restore' | 'restorePace'>;

/**
 * Restores run `runId`'s gates at wall time `now`: each key whose latest recorded `gate.closed` is neither
 * followed by a `gate.opened` nor over stays closed until its `untilMs`; each gate with a rate that a
 * placement of `preps` (the run's documents) passes owes a whole burst from `now` (see
 * {@link LocalGates.restorePace}). A recorded gate the policy no longer declares holds nothing; a run
 * that passes no gate restores nothing.
 */
export async function restoreRecordedGates(
  store: RunStore,
  runId: string,
  gates: RestorableGates,
  policy: RuntimePolicy,
  preps: readonly (Prepared | undefined)[],
  now: number,
): Promise<void> {
  const declared = policy.gates;
  const passed = new Set<GatePolicy>();
  for (const prep of preps) for (const gate of prep?.gates ?? []) if (gate !== undefined) passed.add(gate);
  // A run none of whose placements passes a gate has nothing to hold back: its events are not read.
  if (passed.size === 0) return;
  for (const gate of passed) gates.restorePace(gate, now);
  const recorded = new RecordedGates();
  for await (const event of store.streamEvents(runId)) recorded.add(event.type, event.body);
  for (const key of recorded.list()) {
    const gate = Object.hasOwn(declared, key.gate) ? declared[key.gate] : undefined;
    if (gate !== undefined && key.closedUntil > now) gates.restore({ gate, key: key.key }, key.closedUntil);
  }
}
