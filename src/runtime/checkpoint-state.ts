/**
 * An item's checkpoint as the recorder takes it: a copy of its state made at the transition, a copy put off
 * until its batch closes (an item on its way to a terminal), or the checkpoint's JSON text made at once (an
 * item that ended, whose state nothing changes after).
 */
import { SwitchyardError } from '../errors.ts';
import type {
  CheckpointState,
  ItemCheckpoint,
  ItemEnding,
  ItemPosition,
  ItemStatus,
} from '../store/types.ts';
import { copyJson } from './copy.ts';
import type { ItemState } from './item-state.ts';
import { encodeStepValue } from './journal-value.ts';
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
  const saved: Record<string, unknown> = {
    data: null,
    budgets: countsCopy(state.budgets),
    journal: {},
    trail: state.trail.slice(),
    visits: countsCopy(state.visits),
  };
  const plain = plainCopy(state.data);
  const data = plain === NOT_PLAIN ? encodeStepValue(state.data) : { value: plain };
  if ('value' in data) saved.data = data.value;
  else if ('encoded' in data) saved.dataEncoded = data.encoded;
  else if (ending) saved.dataUnrecordable = data.unrecordable;
  else {
    throw new SwitchyardError(
      'E_STATE_VALUE',
      `item ${state.id} holds data a durable run cannot record (${data.unrecordable}); keep functions, symbols and class instances out of item data, or run without a store`,
    );
  }
  if (carry?.gathered !== undefined) saved.gathered = copyJson(carry.gathered);
  if (carry?.delays !== undefined) saved.delays = Object.fromEntries(carry.delays);
  return saved as CheckpointState;
}

/**
 * A plain copy of a record of counts (budgets, visits), which are null-prototype records: a key loop is
 * several times cheaper on them than a spread. A key `__proto__` stays an own key.
 */
function countsCopy(counts: Readonly<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of Object.keys(counts)) {
    setOwn(out, key, counts[key] as number);
  }
  return out;
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
  taken(runId: string): ItemCheckpoint {
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

/**
 * The checkpoint of an item that ended: its JSON text made at once from the item itself, with no copy in
 * between, when its data is plain JSON; else the checkpoint with a copy of its state (see {@link snapshot}).
 */
export function endedCheckpoint(
  runId: string,
  state: ItemState,
  position: ItemPosition,
  ending: ItemEnding,
  updatedAt: number,
): ItemCheckpoint {
  const itemId = state.id;
  if (isPlain(state.data)) {
    const saved = {
      data: state.data,
      budgets: state.budgets,
      journal: NO_JOURNAL,
      trail: state.trail,
      visits: state.visits,
    };
    const checkpoint = { runId, itemId, status: 'ended', state: saved, position, ending, updatedAt };
    try {
      return new EncodedCheckpoint(runId, itemId, JSON.stringify(checkpoint));
    } catch {
      // A value JSON cannot hold outside the data (an ending's error): the store says what it is.
    }
  }
  const saved = snapshot(state, undefined, true);
  return { runId, itemId, status: 'ended', state: saved, position, ending, updatedAt };
}
