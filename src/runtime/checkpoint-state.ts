/**
 * An item's checkpoint as the recorder takes it: copies of what its state may change taken at the
 * transition (the checkpoint made from them when its batch closes), a copy put off until its batch closes
 * (an item on its way to a terminal), or the checkpoint's JSON text made at once (an item that ended, whose
 * state nothing changes after).
 */
import { SwitchyardError } from '../errors.ts';
import type {
  CheckpointState,
  ItemCheckpoint,
  ItemEnding,
  ItemPosition,
  ItemStatus,
  ItemWait,
} from '../store/types.ts';
import { copyJson } from './copy.ts';
import type { ItemState } from './item-state.ts';
import { encodeStepValue, type JournalEntry } from './journal-value.ts';
import { isPlain, NOT_PLAIN, plainCopy } from './plain-copy.ts';
import { setOwn } from './record.ts';
import type { ItemCarry } from './step.ts';

/** The journal of every checkpoint: it is kept as step values, not in each checkpoint. */
const NO_JOURNAL: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * A checkpoint's copy of an item's state; the journal is kept as step values, not in each checkpoint. Data
 * JSON cannot hold (a BigInt, a Date) is kept in devalue's text form (`dataEncoded`), as step values are.
 * Data that cannot be recorded at all (a function) fails the item with `E_STATE_VALUE` when it moves on;
 * its final checkpoint keeps no data and says why (`dataUnrecordable`).
 */
export function snapshot(state: ItemState, carry: ItemCarry | undefined, ending = false): CheckpointState {
  return new TakenState(state, carry, ending).saved();
}

/**
 * What a checkpoint keeps of an item's state, taken at a transition: copies of what the engine or a node
 * changes in place (data, budgets, visits, what the item carries) and the trail by its length then, since a
 * trail only grows (`addTrail` pushes onto it or replaces it with a longer copy). The state itself is made
 * by {@link TakenState.saved}, once, for a checkpoint that is written: a checkpoint replaced within its batch
 * costs its copies only.
 */
class TakenState {
  private readonly data: JournalEntry;
  private readonly budgets: Record<string, number>;
  private readonly trail: ItemState['trail'];
  private readonly length: number;
  private readonly visits: Record<string, number>;
  private readonly gathered: unknown;
  private readonly delays: Record<string, number> | undefined;

  /** Takes `state` now; throws `E_STATE_VALUE` when its data cannot be recorded, unless it has ended. */
  constructor(state: ItemState, carry: ItemCarry | undefined, ending: boolean) {
    const plain = plainCopy(state.data);
    const data = plain === NOT_PLAIN ? encodeStepValue(state.data) : { value: plain };
    if (!ending && !('value' in data) && !('encoded' in data)) {
      throw new SwitchyardError(
        'E_STATE_VALUE',
        `item ${state.id} holds data a durable run cannot record (${data.unrecordable}); keep functions, symbols and class instances out of item data, or run without a store`,
      );
    }
    this.data = data;
    this.budgets = countsCopy(state.budgets);
    this.trail = state.trail;
    this.length = state.trail.length;
    this.visits = countsCopy(state.visits);
    this.gathered = carry?.gathered === undefined ? undefined : copyJson(carry.gathered);
    this.delays = carry?.delays === undefined ? undefined : Object.fromEntries(carry.delays);
  }

  /** The state as a checkpoint holds it (see {@link snapshot}). */
  saved(): CheckpointState {
    const data = this.data;
    const saved: Record<string, unknown> = {
      data: 'value' in data ? data.value : null,
      budgets: this.budgets,
      journal: {},
      trail: this.trail.slice(0, this.length),
      visits: this.visits,
    };
    if ('encoded' in data) saved.dataEncoded = data.encoded;
    else if ('unrecordable' in data) saved.dataUnrecordable = data.unrecordable;
    if (this.gathered !== undefined) saved.gathered = this.gathered;
    if (this.delays !== undefined) saved.delays = this.delays;
    return saved as CheckpointState;
  }
}

/**
 * A plain copy of a record of counts (budgets, visits), which are null-prototype records or records whose
 * prototype holds no names (`emptyCounts`): a key loop is several times cheaper on them than a spread, and
 * `for…in` over them reads their own keys without making an array of them. A key `__proto__` stays an own
 * key.
 */
function countsCopy(counts: Readonly<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key in counts) {
    if (Object.hasOwn(counts, key)) setOwn(out, key, counts[key] as number);
  }
  return out;
}

/**
 * The checkpoint of an item at a transition, with what it keeps of the item's state taken then (see
 * {@link TakenState}), in one object: the checkpoint itself is made when its batch closes, if no later
 * checkpoint of the same batch replaced it.
 */
export class TakenCheckpoint extends TakenState {
  readonly itemId: string;
  private readonly frames: ItemPosition['frames'];

  /** Takes the item's state now; throws `E_STATE_VALUE` when its data cannot be recorded. */
  constructor(
    state: ItemState,
    carry: ItemCarry,
    private readonly dag: string,
    private readonly placement: string,
    private readonly visit: number,
    private readonly wait: ItemWait | undefined,
    private readonly updatedAt: number,
  ) {
    super(state, carry, false);
    this.itemId = state.id;
    this.frames = state.frames ?? [];
  }

  /** The checkpoint, of run `runId`: `active`, or `waiting` when the item has a wait. */
  checkpoint(runId: string): ItemCheckpoint {
    const { itemId, dag, placement, visit, frames, wait, updatedAt } = this;
    const state = this.saved();
    return wait === undefined
      ? { runId, itemId, status: 'active', state, position: { dag, placement, visit, frames }, updatedAt }
      : {
          runId,
          itemId,
          status: 'waiting',
          state,
          position: { dag, placement, visit, frames, wait },
          updatedAt,
        };
  }
}

/**
 * The checkpoint of an item on its way to a terminal placement, whose copy is taken only if the batch
 * closes before its ending replaces it. Its data was plain JSON when it moved (see {@link isPlain}).
 */
export class OnItsWay {
  constructor(
    readonly dag: string,
    readonly state: ItemState,
    readonly placement: string,
    readonly visit: number,
    readonly frames: ItemPosition['frames'],
    readonly carry: ItemCarry,
    readonly updatedAt: number,
  ) {}

  /** The checkpoint, copying the item as it stands. */
  checkpoint(runId: string): ItemCheckpoint {
    const { dag, state, placement, visit, frames } = this;
    return {
      runId,
      itemId: state.id,
      status: 'active',
      state: snapshot(state, this.carry),
      position: { dag, placement, visit, frames },
      updatedAt: this.updatedAt,
    };
  }
}

/**
 * The checkpoint of an item that ended, held as its JSON text, made when it was taken; its other fields are
 * read from the text when asked for, and it writes itself as JSON as the checkpoint it holds.
 */
export class EncodedCheckpoint implements ItemCheckpoint {
  readonly status: ItemStatus = 'ended';
  private value: ItemCheckpoint | undefined;

  constructor(
    readonly runId: string,
    readonly itemId: string,
    readonly text: string,
  ) {}

  get state(): CheckpointState {
    return this.decoded().state;
  }

  get position(): ItemPosition {
    return this.decoded().position;
  }

  get ending(): ItemEnding {
    return this.decoded().ending as ItemEnding;
  }

  get updatedAt(): number {
    return this.decoded().updatedAt;
  }

  toJSON(): ItemCheckpoint {
    return this.decoded();
  }

  private decoded(): ItemCheckpoint {
    this.value ??= JSON.parse(this.text) as ItemCheckpoint;
    return this.value;
  }
}

/** What an ended child's checkpoint keeps of its trail and visits (see {@link endedCheckpoint}). */
const NO_TRAIL: readonly unknown[] = Object.freeze([]);
const NO_COUNTS: Readonly<Record<string, number>> = Object.freeze({});

/**
 * The checkpoint of an item that ended: its JSON text made at once from the item itself, with no copy in
 * between, when its data is plain JSON; else the checkpoint with a copy of its state (see {@link snapshot}).
 *
 * The ended checkpoint of a child (a scatter's, an embed's) keeps what its parent and a resume read of it:
 * its data (what a gather or an embed's mapping takes), its budgets, its position and its ending; its trail
 * and visits are left empty, since nothing reads them once it has ended (its path is in the run's events):
 * a third of the text of a W2 child's ended checkpoint.
 */
export function endedCheckpoint(
  runId: string,
  state: ItemState,
  position: ItemPosition,
  ending: ItemEnding,
  updatedAt: number,
): ItemCheckpoint {
  const itemId = state.id;
  const child = state.root !== undefined;
  if (isPlain(state.data)) {
    const saved = {
      data: state.data,
      budgets: state.budgets,
      journal: NO_JOURNAL,
      trail: child ? NO_TRAIL : state.trail,
      visits: child ? NO_COUNTS : state.visits,
    };
    const checkpoint = { runId, itemId, status: 'ended', state: saved, position, ending, updatedAt };
    try {
      return new EncodedCheckpoint(runId, itemId, JSON.stringify(checkpoint));
    } catch {
      // A value JSON cannot hold outside the data (an ending's error): the store says what it is.
    }
  }
  const copied = snapshot(state, undefined, true);
  const saved = child ? { ...copied, trail: [], visits: {} } : copied;
  return { runId, itemId, status: 'ended', state: saved, position, ending, updatedAt };
}
