import { SwitchyardError } from '../errors.ts';
import type { ItemState } from './item-state.ts';

/**
 * Runs `fn` at most once per item and key: a recorded value is returned without calling `fn` again.
 * A thrown (or rejected) `fn` records nothing, so a later visit runs it again.
 * @example
 * const receipt = await journalStep(state, 'charge', () => card.charge(amount));
 */
export async function journalStep<T>(state: ItemState, key: string, fn: () => T | Promise<T>): Promise<T> {
  const recorded = state.journal[key];
  if (recorded !== undefined) return recorded.value as T;
  const value = await fn();
  state.journal[key] = { value: toJson(value, key) };
  return value;
}

/** Checks that a step's value survives a JSON round trip, so a resumed run gets the same value back. */
function toJson(value: unknown, key: string): unknown {
  if (value === undefined) return null;
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new SwitchyardError(
      'E_NODE_ERROR',
      `journal step '${key}' returned a value that is not JSON (${(error as Error).message}); return plain data from step functions`,
      { cause: error },
    );
  }
  return JSON.parse(text) as unknown;
}
