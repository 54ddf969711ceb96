import type { RouteKind } from '../document/model.ts';

/** One edge an item took: from `placement` on `output` to `to`; `exhausted` marks a retry route's exhaustion edge. */
export interface TrailEntry {
  readonly placement: string;
  readonly output: string;
  readonly to: string;
  readonly kind: RouteKind | 'exhausted';
}

/** A recorded journal step: the value `ctx.step` returned the first time. */
export interface JournalEntry {
  readonly value: unknown;
}

/**
 * Everything the engine knows about one item, as plain JSON so that it can be checkpointed and resumed.
 * Budgets hold spent counts (0 when absent); visits count entries per placement key.
 */
export interface ItemState {
  readonly id: string;
  data: Record<string, unknown>;
  readonly budgets: Record<string, number>;
  readonly journal: Record<string, JournalEntry>;
  readonly trail: TrailEntry[];
  readonly visits: Record<string, number>;
}

/**
 * Creates the state of a fresh item, with no budget spent and an empty journal.
 * @example
 * const state = createItemState('1', { topic: 'whales' });
 */
export function createItemState(id: string, data: Record<string, unknown>): ItemState {
  return { id, data, budgets: {}, journal: {}, trail: [], visits: {} };
}

/** Rebuilds a state from a checkpointed copy under a new or the same id; journal and budgets are kept. */
export function restoreItemState(saved: ItemState, id: string = saved.id): ItemState {
  return {
    id,
    data: saved.data,
    budgets: { ...saved.budgets },
    journal: { ...saved.journal },
    trail: [...saved.trail],
    visits: { ...saved.visits },
  };
}

/** Counts one more entry into `placement` and returns the visit number (1 on the first entry). */
export function countVisit(state: ItemState, placement: string): number {
  const visit = (state.visits[placement] ?? 0) + 1;
  state.visits[placement] = visit;
  return visit;
}
