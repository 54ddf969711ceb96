import type { ItemState } from './item-state.ts';
import { isPositionOnlyKey, journalKey, positionOnlyKey } from './journal-key.ts';
import { encodeStepValue, type JournalEntry, replayEntry, unrecordableError } from './journal-value.ts';
import { ownValue } from './record.ts';

/**
 * Steps still running, per journal object and key. They are not state (nothing to checkpoint): they live
 * beside the journal, keyed by its identity, and go when it does.
 */
const running = new WeakMap<object, Map<string, Promise<unknown>>>();

/** Where a durable run commits the step values of one input item's journal; resolves once it is durable. */
export type StepSink = (key: string, entry: JournalEntry) => Promise<void>;

/** The sink of each journal of a durable run's input items, keyed by the journal's identity. */
const sinks = new WeakMap<object, StepSink>();

/**
 * Journals that may hold steps under the keys format 1 wrote (a scatter child by its position only,
 * `fan[2]/charge`): those of a run recorded in format 1, and those read back holding such a key. Only in
 * these does a step not found under its key look for its format-1 spelling.
 */
const formatOne = new WeakSet<object>();

/**
 * Makes a step missed in `journal` (an input item's, shared by its children) look for its value under its
 * format-1 key too: the journal of a run recorded in format 1.
 */
export function readFormatOneKeys(journal: object): void {
  formatOne.add(journal);
}

/** {@link readFormatOneKeys} for a journal read back from saved data when one of its keys is spelt in format 1. */
export function noteFormatOneKeys(journal: Record<string, unknown>): void {
  if (formatOne.has(journal)) return;
  for (const key of Object.keys(journal)) {
    if (isPositionOnlyKey(key)) {
      formatOne.add(journal);
      return;
    }
  }
}

/** Makes every step recorded in `journal` (an input item's, shared by its children) use `sink`. */
export function bindJournal(journal: object, sink: StepSink): void {
  sinks.set(journal, sink);
}

/** What `fn` of a step is given: a key that is the same on every run of this step of this item in this run. */
export interface StepInfo {
  /** `<run id>/<input item id>/<step path>`: pass it to an API that deduplicates requests. */
  readonly idempotencyKey: string;
}

function runningOf(journal: object): Map<string, Promise<unknown>> {
  let steps = running.get(journal);
  if (steps === undefined) {
    steps = new Map();
    running.set(journal, steps);
  }
  return steps;
}

/**
 * Runs `fn` at most once per item and key, and records its value in the item's journal; a recorded value is
 * returned without calling `fn` again. The rules:
 * - The key is the item's path through embeds and scatters plus `key` (see `journal-key.ts`): an item inside
 *   an embedded document or a scatter child records in the journal of the input item it descends from, so a
 *   parent's retry that re-enters the embed, or the scatter over the same element at the same position, or
 *   a resumed run, replays the step. A step recorded under a scatter child's key without its element (by an
 *   earlier version: a run recorded in format 1, saved states holding such keys) is replayed too.
 * - A call while the same key is still running waits for that call and returns its value (or its error).
 * - Values are recorded as plain JSON, or encoded (devalue) when JSON cannot hold them, so a replayed Date
 *   is a Date and a BigInt a BigInt; every call, the first included, returns a fresh decoded copy.
 * - A value that cannot be encoded (a function, a symbol, a class instance) is recorded as unrecordable and
 *   the call rejects with `E_STEP_VALUE`, now and on every replay: `fn` never runs again.
 * - A thrown (or rejected) `fn` records nothing, so a later visit runs it again.
 * - `fn` gets an idempotency key for the step (run id, input item id, step path); in a durable run the
 *   value is committed to the store before this call resolves (see {@link bindJournal}).
 * @example
 * const receipt = await journalStep(state, 'charge', () => card.charge(amount));
 */
export async function journalStep<T>(
  state: ItemState,
  key: string,
  fn: (info: StepInfo) => T | Promise<T>,
  runId = '',
): Promise<T> {
  const journal = state.journal;
  const id = journalKey(state.scope, key);
  const recorded = ownValue(journal, id);
  if (recorded !== undefined) return replayEntry(recorded, id) as T;
  if (formatOne.has(journal)) {
    const old = positionOnlyKey(id);
    const before = old === undefined ? undefined : ownValue(journal, old);
    if (before !== undefined) return replayEntry(before, old as string) as T;
  }
  const steps = runningOf(journal);
  const pending = steps.get(id);
  if (pending !== undefined) {
    await pending;
    return replayEntry(journal[id] as NonNullable<typeof recorded>, id) as T;
  }
  const sink = sinks.get(journal);
  const idempotencyKey = `${runId}/${state.root ?? state.id}/${id}`;
  const run = record(journal, id, () => fn({ idempotencyKey }), sink);
  steps.set(id, run);
  try {
    return (await run) as T;
  } finally {
    steps.delete(id);
  }
}

async function record(
  journal: ItemState['journal'],
  id: string,
  fn: () => unknown,
  sink: StepSink | undefined,
): Promise<unknown> {
  const value = await fn();
  const entry = encodeStepValue(value);
  // A durable run's value is committed before the node's code sees it, so the step never runs again.
  if (sink !== undefined) await sink(id, entry);
  journal[id] = entry;
  if ('unrecordable' in entry) throw unrecordableError(id, entry.unrecordable);
  return replayEntry(entry, id);
}
