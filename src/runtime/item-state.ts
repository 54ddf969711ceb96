import type { RouteKind } from '../document/model.ts';
import type { PositionFrame } from '../store/types.ts';
import { copyJson } from './copy.ts';
import { noteFormatOneKeys } from './journal.ts';
import { scatterSegment } from './journal-key.ts';
import type { JournalEntry } from './journal-value.ts';
import { emptyCounts, emptyRecord, ownValue, recordFrom } from './record.ts';

export type { JournalEntry } from './journal-value.ts';

/** One edge an item took: from `placement` on `output` to `to`; `exhausted` marks a retry route's exhaustion edge. */
export interface TrailEntry {
  readonly placement: string;
  readonly output: string;
  readonly to: string;
  readonly kind: RouteKind | 'exhausted';
}

/**
 * Everything the engine knows about one item, as plain JSON so that it can be checkpointed and resumed.
 * Budgets hold spent counts (0 when absent); visits count entries per placement key. `budgets`, `journal`
 * and `visits` are keyed by names from documents and nodes, so they are null-prototype records (see
 * `record.ts`; a child item's budgets and visits are `emptyCounts` records, which read the same); a JSON round trip followed by {@link restoreItemState} gives them back as such.
 *
 * An item inside an embed or a scatter shares the journal of the input item it descends from: `scope` is its
 * path from that item (see `journal-key.ts`), the prefix of its journal keys. Input items have no scope.
 */
export interface ItemState {
  readonly id: string;
  data: Record<string, unknown>;
  readonly budgets: Record<string, number>;
  readonly journal: Record<string, JournalEntry>;
  /** Replaced, not pushed to, by its first entry (see {@link addTrail}). */
  trail: TrailEntry[];
  readonly visits: Record<string, number>;
  readonly scope?: string;
  /** The id of the input item this one descends from (absent on input items themselves). */
  readonly root?: string;
  /** The embeds and scatters between the run's DAG and this item, outermost first (absent on input items). */
  readonly frames?: readonly PositionFrame[];
}

/**
 * Creates the state of a fresh item, with no budget spent and an empty journal. `data` is used as given:
 * the dispatcher copies the caller's input before it gets here.
 * @example
 * const state = createItemState('1', { topic: 'whales' });
 */
export function createItemState(id: string, data: Record<string, unknown>): ItemState {
  return { id, data, budgets: emptyRecord(), journal: emptyRecord(), trail: [], visits: emptyRecord() };
}

/** The frames of a child of `parent` entered through `frame`: the parent's, then `frame`. */
function childFrames(parent: ItemState, frame: PositionFrame): readonly PositionFrame[] {
  return parent.frames === undefined ? [frame] : [...parent.frames, frame];
}

/**
 * Creates the state of an item that runs inside `parent` (an embedded document): fresh budgets, trail and
 * visits, and the parent's journal under the scope `parent.scope + segment`. Its JSON holds the scope's text.
 */
export function createChildState(
  parent: ItemState,
  id: string,
  segment: string,
  data: Record<string, unknown>,
  frame: PositionFrame,
): ItemState {
  const scope = (parent.scope ?? '') + segment;
  return new ChildState(
    id,
    data,
    parent.journal,
    scope,
    undefined,
    undefined,
    parent.root ?? parent.id,
    childFrames(parent, frame),
  );
}

/**
 * Creates the state of scatter child `frame.index` of `parent`, made of list element `element`, as
 * {@link createChildState} does; its scope's segment digests the element (see `scatterSegment`), so it is
 * worked out the first time the scope is read, once: most children never journal a step.
 */
export function createScatterChildState(
  parent: ItemState,
  id: string,
  element: unknown,
  data: Record<string, unknown>,
  frame: Extract<PositionFrame, { kind: 'scatter' }>,
): ItemState {
  return new ChildState(
    id,
    data,
    parent.journal,
    undefined,
    parent,
    element,
    parent.root ?? parent.id,
    childFrames(parent, frame),
  );
}

/** A child's scope, once worked out. Symbols: not in the state's JSON or keys. */
const SCOPE = Symbol('scope');
/** Until then, for a scatter child: its parent and its list element. */
const SCOPE_PARENT = Symbol('scope parent');
const SCOPE_ELEMENT = Symbol('scope element');

/**
 * The state of a child item. A class, so that every child has the same fast shape with its fields in the
 * object and its scope a getter of the prototype: an own getter would be a property definition per child
 * (the slow path), and an object literal with one is a dictionary (about 400 bytes). What a scatter child's
 * scope is made of is held as fields rather than a closure (two closures and their context per child).
 */
class ChildState implements ItemState {
  budgets: Record<string, number> = emptyCounts();
  trail: TrailEntry[] = [];
  visits: Record<string, number> = emptyCounts();
  [SCOPE]: string | undefined;
  [SCOPE_PARENT]: ItemState | undefined;
  [SCOPE_ELEMENT]: unknown;

  constructor(
    readonly id: string,
    public data: Record<string, unknown>,
    readonly journal: Record<string, JournalEntry>,
    scope: string | undefined,
    parent: ItemState | undefined,
    element: unknown,
    readonly root: string,
    readonly frames: readonly PositionFrame[],
  ) {
    this[SCOPE] = scope;
    this[SCOPE_PARENT] = parent;
    this[SCOPE_ELEMENT] = element;
  }

  /** The journal scope: a scatter child's is worked out the first time it is read, once. */
  get scope(): string {
    let scope = this[SCOPE];
    if (scope === undefined) {
      const frame = this.frames[this.frames.length - 1] as Extract<PositionFrame, { kind: 'scatter' }>;
      const segment = scatterSegment(frame.placement, frame.index, this[SCOPE_ELEMENT]);
      scope = ((this[SCOPE_PARENT] as ItemState).scope ?? '') + segment;
      this[SCOPE] = scope;
      this[SCOPE_PARENT] = undefined;
      this[SCOPE_ELEMENT] = undefined;
    }
    return scope;
  }

  /** The state as plain JSON, its scope's text included. */
  toJSON(): Record<string, unknown> {
    const { id, data, budgets, journal, trail, visits, scope, root, frames } = this;
    return { id, data, budgets, journal, trail, visits, scope, root, frames };
  }
}

/**
 * Rebuilds a state from a checkpointed copy under a new or the same id: data, budgets, journal, trail and
 * visits are kept, as deep copies in null-prototype records, so the run never writes into `saved`.
 */
export function restoreItemState(saved: ItemState, id: string = saved.id): ItemState {
  const data = copyJson(saved.data);
  const state: ItemState = {
    id,
    data: data !== null && typeof data === 'object' && !Array.isArray(data) ? data : {},
    budgets: recordFrom(saved.budgets, countOf),
    journal: recordFrom(saved.journal, (entry) => copyJson(entry) as JournalEntry),
    trail: Array.isArray(saved.trail) ? saved.trail.map((entry) => ({ ...entry })) : [],
    visits: recordFrom(saved.visits, countOf),
  };
  // Saved by an earlier version, the journal may name scatter children by position only.
  noteFormatOneKeys(state.journal);
  return typeof saved.scope === 'string' && saved.scope !== '' ? { ...state, scope: saved.scope } : state;
}

/**
 * Rebuilds the state of an item from its checkpoint, sharing `journal` (the journal of the input item it
 * descends from, rebuilt from the committed step values) and keeping its place below that item.
 */
export function restoreCheckpointState(
  saved: ItemState,
  journal: ItemState['journal'],
  place: {
    readonly id: string;
    readonly scope?: string;
    readonly root?: string;
    readonly frames?: readonly PositionFrame[];
  },
): ItemState {
  const base = restoreItemState({ ...saved, journal: emptyRecord() }, place.id);
  const state: ItemState = { ...base, journal };
  return place.root === undefined
    ? state
    : { ...state, scope: place.scope ?? '', root: place.root, frames: place.frames ?? [] };
}

/** A count read from a checkpoint: a non-negative integer, else 0. */
function countOf(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 0;
}

/**
 * Adds an edge to the item's trail. The first three replace the array with a literal just as long: a push
 * (or a spread) gives a short array room for 17 or more, and most items take only a few edges.
 */
export function addTrail(state: ItemState, entry: TrailEntry): void {
  const trail = state.trail;
  if (trail.length === 0) state.trail = [entry];
  else if (trail.length === 1) state.trail = [trail[0] as TrailEntry, entry];
  else if (trail.length === 2) state.trail = [trail[0] as TrailEntry, trail[1] as TrailEntry, entry];
  else trail.push(entry);
}

/** Counts one more entry into `placement` and returns the visit number (1 on the first entry). */
export function countVisit(state: ItemState, placement: string): number {
  const visit = (ownValue(state.visits, placement) ?? 0) + 1;
  state.visits[placement] = visit;
  return visit;
}
