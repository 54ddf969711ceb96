import type { ItemCheckpoint, ItemEnding, PositionFrame } from '../store/types.ts';
import { type ClassifiedError, engineError } from './error-summary.ts';
import { checkItemData, faultText, replaceByJsonForm } from './item-data.ts';
import { type ItemState, restoreCheckpointState } from './item-state.ts';
import { type JournalEntry, replayEntry } from './journal-value.ts';
import { parkedCarry } from './kinds/await.ts';
import type { Prepared } from './prepare.ts';
import type { FailureRecord } from './recorder.ts';
import { type ParkedFan, parkedFanOf } from './resume-fan.ts';
import type { Ending } from './runner.ts';
import { freshCarry, type ItemCarry } from './step.ts';

/** How a resumed item goes on from its placement: what it carries and when its wait ends. */
export interface Resumed {
  readonly carry: ItemCarry;
  /** The wall time its wait ends, when it was waiting. */
  readonly until: number | undefined;
  /** The fan out it was parked on, when it was a scatter's or an embed's parent (see `resume-fan.ts`). */
  readonly fan: ParkedFan | undefined;
}

/**
 * The checkpoints of a run being resumed, handed out once each as the run reaches the items again: the
 * input items at the start, each embed's and scatter's children when their parent enters that placement
 * again. A checkpoint is handed out only to the item at the same frames (the same embed or scatter, on the
 * same visit), so an item id that a later visit reuses starts afresh.
 */
export class ResumeBook {
  constructor(private readonly items: Map<string, ItemCheckpoint>) {}

  /** The checkpoint of `itemId` at `frames`, once; undefined when it has none there. */
  take(itemId: string, frames: readonly PositionFrame[]): ItemCheckpoint | undefined {
    const saved = this.items.get(itemId);
    if (saved === undefined || !sameFrames(saved.position.frames, frames)) return undefined;
    this.items.delete(itemId);
    return saved;
  }

  /** True once every checkpoint has been handed out: nothing of the restart is left to find. */
  get empty(): boolean {
    return this.items.size === 0;
  }

  /** The checkpoint of `itemId` at `frames`, once, when it records the item's ending; else undefined (kept). */
  takeEnded(itemId: string, frames: readonly PositionFrame[]): ItemCheckpoint | undefined {
    const saved = this.items.get(itemId);
    if (saved?.status !== 'ended' || saved.ending === undefined) return undefined;
    return this.take(itemId, frames);
  }
}

function sameFrames(a: readonly PositionFrame[], b: readonly PositionFrame[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as PositionFrame;
    const y = b[i] as PositionFrame;
    if (x.kind !== y.kind || x.dag !== y.dag || x.placement !== y.placement || x.visit !== y.visit)
      return false;
    if (x.kind === 'scatter' && y.kind === 'scatter' && x.index !== y.index) return false;
  }
  return true;
}

/**
 * A warning about a checkpoint read for a resume: its data held what item data cannot hold (a Date, a
 * BigInt, kept in devalue's text form by an engine without the item-data contract), and the item goes on
 * with the data's JSON form.
 */
export interface CheckpointWarning {
  readonly code: 'W_CHECKPOINT_DATA_CONVERTED';
  readonly item: string;
  readonly dag: string;
  readonly placement: string;
  readonly message: string;
}

/**
 * `saved` with its data as the item-data contract holds it (see `item-data.ts`). Data kept in devalue's text
 * form (`dataEncoded`) is decoded; when it breaks the contract, it is replaced by its JSON form, as the data
 * of a node that broke it is, and a warning naming the checkpoint goes to `warnings`. Converting rather than
 * failing the item loses nothing a later node could read (a Date is its ISO string, a BigInt its digits,
 * as `--events` and a run without a store show them) and keeps the work the run had done.
 */
export function checkedCheckpoint(saved: ItemCheckpoint, warnings: CheckpointWarning[]): ItemCheckpoint {
  const { dataEncoded, ...state } = saved.state;
  if (typeof dataEncoded !== 'string') return saved;
  const item = { data: replayEntry({ encoded: dataEncoded }, `data of item ${saved.itemId}`) };
  const fault = checkItemData(item);
  if (fault !== undefined) {
    replaceByJsonForm(item);
    const { dag, placement } = saved.position;
    warnings.push({
      code: 'W_CHECKPOINT_DATA_CONVERTED',
      item: saved.itemId,
      dag,
      placement,
      message: `the checkpoint of item ${saved.itemId} at placement '${placement}' ${faultText(fault)}; the item goes on with its data as JSON holds it (a Date as its ISO string, a BigInt as its digits)`,
    });
  }
  return { ...saved, state: { ...state, data: item.data } };
}

/**
 * The state of `fresh` (a new child, or an input item) as its checkpoint left it: data, budgets, trail and
 * visits from the checkpoint, the journal and the place below its input item from `fresh`. The checkpoint's
 * data has been through {@link checkedCheckpoint}.
 */
export function restoredState(saved: ItemCheckpoint, fresh: ItemState): ItemState {
  return restoreCheckpointState(saved.state as unknown as ItemState, fresh.journal, fresh);
}

/**
 * Puts what `saved` recorded into `fresh`, a child just made and not yet run (empty budgets, trail and
 * visits): its callers keep working with the same object, resumed or not.
 */
export function restoreInto(saved: ItemCheckpoint, fresh: ItemState): void {
  const restored = restoredState(saved, fresh);
  fresh.data = restored.data;
  Object.assign(fresh.budgets, restored.budgets);
  Object.assign(fresh.visits, restored.visits);
  for (const entry of restored.trail) fresh.trail.push(entry);
}

/** What a checkpoint of an item that had not ended says about how it goes on. */
export function resumedFrom(saved: ItemCheckpoint): Resumed {
  const carry = freshCarry();
  const gathered = saved.state.gathered;
  if (Array.isArray(gathered)) carry.gathered = gathered;
  const delays = saved.state.delays;
  if (delays !== null && typeof delays === 'object') {
    carry.delays = new Map(
      Object.entries(delays).filter((entry): entry is [string, number] => typeof entry[1] === 'number'),
    );
  }
  const wait = saved.position.wait;
  // A parked item parks again where it was: its deadline is the await's to keep, not a wait to sleep first.
  carry.parked = parkedCarry(wait, saved.position.visit, saved.updatedAt);
  return {
    carry,
    until: carry.parked === undefined ? wait?.until : undefined,
    fan: parkedFanOf(saved.state),
  };
}

/** The ending a checkpoint recorded, as the runner's {@link Ending}. */
export function endingOf(ending: ItemEnding, placement: string): Ending {
  if (ending.kind === 'terminal')
    return { kind: 'terminal', placement: ending.placement, outcome: ending.outcome };
  if (ending.kind === 'failure') {
    return { kind: 'failed', placement: ending.placement ?? placement, error: failureOf(ending) };
  }
  return { kind: 'stopped', placement, waitingFor: 'queue' };
}

/** The error of a recorded failure, classified as it was when the item failed. */
function failureOf(ending: FailureRecord): ClassifiedError {
  const recorded = ending.error;
  if (recorded === null || typeof recorded !== 'object' || typeof recorded.retryable !== 'boolean') {
    return engineError(ending.code, ending.message);
  }
  return { ...recorded, message: ending.message, engineCode: ending.code };
}

/** The placement a checkpoint names in `prep`, or undefined when the document no longer has it. */
export function placementOf(prep: Prepared, saved: ItemCheckpoint) {
  return prep.compiled.byKey.get(saved.position.placement);
}

/** Rebuilds the journals of the input items from committed step values: input item id → key → entry. */
export function journalsFrom(
  entries: readonly { readonly itemPath: string; readonly stepKey: string; readonly value: string }[],
): Map<string, Record<string, JournalEntry>> {
  const journals = new Map<string, Record<string, JournalEntry>>();
  for (const entry of entries) {
    let journal = journals.get(entry.itemPath);
    if (journal === undefined) {
      journal = Object.create(null) as Record<string, JournalEntry>;
      journals.set(entry.itemPath, journal);
    }
    journal[entry.stepKey] = JSON.parse(entry.value) as JournalEntry;
  }
  return journals;
}
