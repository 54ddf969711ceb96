import type { ItemState } from './item-state.ts';
import { ownValue } from './record.ts';

/** How many times `budget` has been spent for this item (0 before the first spend). Own entries only. */
export function spent(state: ItemState, budget: string): number {
  return ownValue(state.budgets, budget) ?? 0;
}

/** Spends one unit of `budget` and returns the new spent count. The caller checks the bound first. */
export function spend(state: ItemState, budget: string): number {
  const count = spent(state, budget) + 1;
  state.budgets[budget] = count;
  return count;
}

/** Sets each named budget back to zero: an outer loop giving an inner loop a fresh start. */
export function resetBudgets(state: ItemState, budgets: readonly string[]): void {
  for (const name of budgets) {
    if (ownValue(state.budgets, name) !== undefined) state.budgets[name] = 0;
  }
}
