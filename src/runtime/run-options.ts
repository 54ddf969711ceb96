/**
 * Admission of a run's options, shared by every way a run starts (a local run, a local resume, a
 * distributed run or submission), so that the same value is admitted or refused the same way, with the same
 * code, whichever dispatcher is given it. Every refusal is a {@link SwitchyardError} with code `E_INPUT`
 * and one line that says what is wrong and what to give instead; an option a dispatcher cannot carry out is
 * refused by name rather than ignored.
 */
import { SwitchyardError } from '../errors.ts';
import type { CompiledDag, CompiledPlacement } from '../graph/compile.ts';
import { admitItemData } from './item-data.ts';

/** Which way a run starts: each knows its own options (see {@link RUN_OPTION_NAMES}). */
export type RunStart = 'run' | 'resume' | 'distributed';

/** The options each way of starting a run takes. */
export const RUN_OPTION_NAMES: Readonly<Record<RunStart, readonly string[]>> = {
  run: [
    'signal',
    'deadlineMs',
    'items',
    'resume',
    'entrypoint',
    'runId',
    'onEvent',
    'store',
    'files',
    'whenParked',
  ],
  resume: ['store', 'dag', 'signal', 'deadlineMs', 'onEvent', 'whenParked'],
  distributed: ['items', 'entrypoint', 'runId', 'onEvent', 'deadlineMs'],
};

/** Why a local run option is not one of a distributed run, and what to do instead. */
const NOT_DISTRIBUTED: Readonly<Record<string, string>> = {
  signal: 'stop a distributed run with dispatcher.abort(runId)',
  resume: 'start a distributed run from input items',
  store: 'give the store to createDistributedDispatcher({ store })',
  files: 'a distributed run records no document files',
  whenParked: 'a distributed run holds no process while its items wait for answers',
};

/**
 * The options named when an unknown one is refused: one text for a local and a distributed run, so that
 * both dispatchers refuse the same unknown option with the same message.
 */
const OPTIONS_TEXT: Readonly<Record<RunStart, string>> = {
  run: runOptionsText(),
  distributed: runOptionsText(),
  resume: `a resume option; the options of a resume are ${RUN_OPTION_NAMES.resume.join(', ')}`,
};

function runOptionsText(): string {
  const both = RUN_OPTION_NAMES.distributed;
  const local = RUN_OPTION_NAMES.run.filter((name) => !both.includes(name));
  return `a run option; the options of a run are ${both.join(', ')}, and of a run in process also ${local.join(', ')}`;
}

/** The longest run id admitted, in characters. */
const RUN_ID_MAX = 200;

/** A run id: printable, without the braces a Redis key's hash tag is made of. */
const RUN_ID_CHARS = /^[^\p{Cc}{}]+$/u;

/** The options object as given when it is one (so that a refused run can still be reported), else none. */
export function givenOptions<T extends object>(options: T | null | undefined): Partial<T> {
  return options !== null && typeof options === 'object' ? options : {};
}

/** The `onEvent` of the options when it is a function: a run refused for its options still reports to it. */
export function listenerOf<T>(options: { readonly onEvent?: T } | null | undefined): T | undefined {
  const onEvent = givenOptions(options).onEvent;
  return typeof onEvent === 'function' ? onEvent : undefined;
}

/**
 * Checks every option of a run (and its single `input`, for a run without `items`) before anything
 * else happens: no document is admitted, nothing is recorded and no job is queued for a refused run.
 * `start` says which options exist; one that is not among them is refused by name, never ignored.
 * @example
 * checkRunOptions('distributed', { deadlineMs: 0 }, {}); // throws E_INPUT: deadlineMs is 0
 */
export function checkRunOptions(start: RunStart, options: unknown, input?: unknown): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    refuse(`the run options are ${shown(options)}; pass an object of options, or leave them out`);
  }
  const given = options as Record<string, unknown>;
  const known = RUN_OPTION_NAMES[start];
  for (const name of Object.keys(given)) {
    if (known.includes(name) || given[name] === undefined) continue;
    const instead = start === 'distributed' ? NOT_DISTRIBUTED[name] : undefined;
    if (instead !== undefined) refuse(`a distributed run has no option ${name}; ${instead}`);
    refuse(`'${name.slice(0, 40)}' is not ${OPTIONS_TEXT[start]}`);
  }
  checkDeadline(given.deadlineMs);
  checkFunction('onEvent', given.onEvent);
  checkRunId(given.runId);
  if (given.entrypoint !== undefined && (typeof given.entrypoint !== 'string' || given.entrypoint === '')) {
    refuse(`the run option entrypoint is ${shown(given.entrypoint)}; give the key of an entrypoint`);
  }
  if (given.signal !== undefined && !(given.signal instanceof AbortSignal)) {
    refuse(`the run option signal is ${shown(given.signal)}; give an AbortSignal (controller.signal)`);
  }
  if (given.store !== undefined && given.store !== false && !isStore(given.store)) {
    refuse(`the run option store is ${shown(given.store)}; give a run store (openSqliteStore, …) or false`);
  }
  if (given.files !== undefined) checkFiles(given.files);
  if (given.whenParked !== undefined && given.whenParked !== 'wait' && given.whenParked !== 'stop') {
    refuse(`the run option whenParked is ${shown(given.whenParked)}; give 'wait' or 'stop'`);
  }
  if (start === 'resume') {
    if (given.dag !== undefined && !isRecord(given.dag)) {
      refuse(`the resume option dag is ${shown(given.dag)}; give the run's DAG document as a model`);
    }
    return;
  }
  if (given.items !== undefined && given.resume !== undefined) {
    refuse('the run options give both items and resume; give one of them');
  }
  if (given.resume !== undefined) checkList('resume', given.resume, 'a checkpointed item state');
  else if (given.items !== undefined) checkList('items', given.items, "an object of the item's data");
  else if (!isRecord(input)) refuse(`the run's input is ${shown(input)}; give an object of the item's data`);
}

/**
 * The data of a run's input items, checked against what item data may hold (see `item-data.ts`) and
 * copied, so that the run never writes into the caller's objects: `options.items`, else the single `input`.
 * Called after {@link checkRunOptions}, by every dispatcher alike. Throws `E_ITEM_DATA` naming the item
 * (`items[2]`, `the input`), a JSON pointer to its first value JSON cannot hold, and what to give instead.
 * @example
 * admittedItems({}, { when: new Date() }); // throws E_ITEM_DATA: the input holds a Date at /when …
 */
export function admittedItems(
  options: { readonly items?: readonly unknown[] | undefined },
  input: unknown,
): Record<string, unknown>[] {
  if (options.items === undefined) return [admitItemData(input, 'the input')];
  return options.items.map((data, i) => admitItemData(data, `items[${i}]`));
}

/**
 * The entrypoint a run starts at: `key`, or the document's first entrypoint. `E_INPUT` for a key that is
 * not an entrypoint (the known ones listed), `E_DANGLING_ENTRYPOINT` for a document without one.
 */
export function pickEntrypoint(compiled: CompiledDag, key: string | undefined): CompiledPlacement {
  if (key === undefined) {
    const first = compiled.entrypoints[0];
    if (first === undefined) {
      throw new SwitchyardError(
        'E_DANGLING_ENTRYPOINT',
        `DAG '${compiled.dag.id}' has no entrypoint; declare one`,
      );
    }
    return first;
  }
  const entry = compiled.entrypoints.find((e) => e.key === key);
  if (entry === undefined) {
    const known = compiled.entrypoints.map((e) => e.key).join(', ');
    refuse(`'${key.slice(0, 200)}' is not an entrypoint of '${compiled.dag.id}'; use one of: ${known}`);
  }
  return entry;
}

/** Refuses a run deadline that is not a finite number of milliseconds above 0. */
function checkDeadline(deadlineMs: unknown): void {
  if (deadlineMs === undefined) return;
  if (typeof deadlineMs === 'number' && Number.isFinite(deadlineMs) && deadlineMs > 0) return;
  refuse(
    `the run option deadlineMs is ${shown(deadlineMs)}; give a finite number of milliseconds above 0, or leave it out for no deadline`,
  );
}

function checkFunction(name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'function') {
    refuse(`the run option ${name} is ${shown(value)}; give a function`);
  }
}

function checkRunId(runId: unknown): void {
  if (runId === undefined) return;
  if (typeof runId === 'string' && runId.length <= RUN_ID_MAX && RUN_ID_CHARS.test(runId)) return;
  refuse(
    `the run option runId is ${shown(runId)}; give a string of 1 to ${RUN_ID_MAX} printable characters without { or }, or leave it out for a random id`,
  );
}

function checkFiles(files: unknown): void {
  if (isRecord(files) && Object.values(files).every((file) => typeof file === 'string')) return;
  refuse(`the run option files is ${shown(files)}; give an object of file paths by document IRI`);
}

function checkList(name: string, list: unknown, each: string): void {
  if (!Array.isArray(list)) refuse(`the run option ${name} is ${shown(list)}; give an array`);
  for (let i = 0; i < list.length; i++) {
    if (!isRecord(list[i])) refuse(`${name}[${i}] is ${shown(list[i])}; give ${each}`);
  }
}

/** A plain object (not null, not an array). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Looks like a run store: the methods a run uses. */
function isStore(value: unknown): boolean {
  const store = value as Record<string, unknown> | null;
  return (
    typeof store === 'object' &&
    store !== null &&
    typeof store.commit === 'function' &&
    typeof store.getRun === 'function' &&
    typeof store.acquireLease === 'function'
  );
}

/** A value as a refusal names it: short, and never the whole of a large value. */
function shown(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

function refuse(message: string): never {
  throw new SwitchyardError('E_INPUT', message);
}
