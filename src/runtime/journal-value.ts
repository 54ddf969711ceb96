import { parse, stringify } from 'devalue';
import { SwitchyardError } from '../errors.ts';
import { copyJson } from './copy.ts';
import { isExactItemData } from './item-data.ts';

/**
 * A recorded journal step, plain JSON:
 * - `{ value }`: the step's value, when it is item data that a JSON round trip gives back exactly (see
 *   `isExactItemData` in `item-data.ts`);
 * - `{ encoded }`: the value in devalue's text form, for what JSON cannot hold (BigInt, Date, Map, Set,
 *   RegExp, undefined, NaN, ±Infinity, -0, repeated or circular references), so that a replay gives back a
 *   BigInt, a Date, a Map…;
 * - `{ unrecordable }`: the step ran, but its value could not be recorded (a function, a symbol, a class
 *   instance); says why. Replaying it fails with `E_STEP_VALUE` and never runs the step again.
 */
export type JournalEntry =
  | { readonly value: unknown }
  | { readonly encoded: string }
  | { readonly unrecordable: string };

/** Records a step's value: plain JSON as is (copied), anything devalue can encode as text, else unrecordable. */
export function encodeStepValue(value: unknown): JournalEntry {
  try {
    return isExactItemData(value) ? { value: copyJson(value) } : { encoded: stringify(value) };
  } catch (error) {
    const path = (error as { path?: unknown }).path;
    const at = typeof path === 'string' && path !== '' ? ` at ${path}` : '';
    return { unrecordable: `${(error as Error).message}${at}` };
  }
}

/**
 * The value a recorded step gives back, a fresh copy each time (the first call gets the same as a replay).
 * Throws `E_STEP_VALUE` for an unrecordable step and `E_INPUT` for an entry that is none of the three forms
 * (a hand-edited checkpoint).
 */
export function replayEntry(entry: JournalEntry, key: string): unknown {
  if (entry !== null && typeof entry === 'object') {
    if (Object.hasOwn(entry, 'value')) return copyJson((entry as { value: unknown }).value);
    const encoded = Object.hasOwn(entry, 'encoded') ? (entry as { encoded: unknown }).encoded : undefined;
    if (typeof encoded === 'string') return decode(encoded, key);
    const why = Object.hasOwn(entry, 'unrecordable')
      ? (entry as { unrecordable: unknown }).unrecordable
      : undefined;
    if (typeof why === 'string') throw unrecordableError(key, why);
  }
  throw new SwitchyardError(
    'E_INPUT',
    `journal entry '${key}' is not { value }, { encoded } or { unrecordable }; resume from a state the engine saved`,
  );
}

/** The error of a step whose value could not be recorded: non-retryable, since the step has already run. */
export function unrecordableError(key: string, why: string): SwitchyardError {
  const error = new SwitchyardError(
    'E_STEP_VALUE',
    `step '${key}' ran but returned a value that cannot be recorded (${why}); return plain data from step functions (the step is not run again)`,
  );
  return Object.assign(error, { retryable: false });
}

function decode(text: string, key: string): unknown {
  try {
    return parse(text);
  } catch (error) {
    throw new SwitchyardError(
      'E_INPUT',
      `journal entry '${key}' holds encoded text that does not decode (${(error as Error).message}); resume from a state the engine saved`,
      { cause: error },
    );
  }
}
