/**
 * What item data may hold, the same in every executor. An item's data is a JSON object: it is handed to
 * nodes in process, written to a run store at every transition and sent to workers as JSON, so only what
 * JSON holds as it is can be item data, and every executor hands nodes the same values.
 *
 * - **Held as they are**: `null`, booleans, strings, finite numbers, dense arrays, and plain objects (whose
 *   prototype is `Object.prototype` or `null`) with string keys, at most {@link ITEM_DATA_MAX_DEPTH} levels
 *   deep. An own key `__proto__` is a key like any other.
 * - **Normalised as a JSON round trip does, in every executor**: a property whose value is `undefined` is
 *   dropped, `-0` becomes `0`, an object without a prototype becomes an ordinary object, and an object or
 *   array reached a second time (the same object at two places) becomes a copy of its own, so that changing
 *   one place later never changes the other.
 * - **Refused**, with `E_ITEM_DATA`, the item's index or placement, a JSON pointer to the value and what to
 *   give instead: BigInt, NaN, ±Infinity, `undefined` in an array, holes of sparse arrays, functions, symbols,
 *   Date, Map, Set, RegExp, Error, typed arrays and buffers, boxed primitives, instances of classes, a
 *   reference back to an enclosing object (a cycle), data nested deeper than the limit, and anything that
 *   throws when read.
 *
 * The input items are checked once, at admission (see {@link admitItemData}), for every dispatcher alike.
 * What a node leaves in the data is checked when it returns (see {@link checkItemData}): a breach fails the
 * item with `E_ITEM_DATA`, routed like any error the node threw, and the data is replaced by its JSON form
 * (see `toJsonData`), so that every executor reports and routes the same data. Symbol-keyed and
 * non-enumerable properties are not item data: the engine never reads them, and they are gone wherever the
 * data is carried as JSON. Nor is identity across items and transitions: an object put in two items' data,
 * or kept by a node after it returned and changed later, is a value the engine may have copied by then.
 * Journal values of `ctx.step` are recorded as item data is when they are item data;
 * beyond it, the journal encodes what it can replay exactly (see `journal-value.ts`).
 */
import { safeStringify } from '../safe-json.ts';
import {
  described,
  Fault,
  type ItemDataFault,
  itemDataError,
  notPlain,
  thrownText,
} from './item-data-faults.ts';
import { flatCopy, isFlat } from './item-data-flat.ts';
import { setOwn } from './record.ts';

export type { ItemDataFault } from './item-data-faults.ts';
export { faultText, itemDataError } from './item-data-faults.ts';

/** The deepest nesting of arrays and objects item data may have (the root object is level 1). */
export const ITEM_DATA_MAX_DEPTH = 256;

/** By object: `true` while it is being walked (an ancestor of what is walked), `false` once walked. */
type Seen = Map<object, boolean>;

/**
 * What the walk answers for item data that it could not normalise in place, because the object holding it
 * refuses the write (a frozen object, a read-only property): the holder's own holder puts a normalised copy
 * of it in its place, as a JSON round trip would give it.
 */
const COPY = Symbol('copy');

/** A value's check: a fault, {@link COPY}, or undefined for item data normalised in place. */
type Walked = Fault | typeof COPY | undefined;

/**
 * Checks the data of an item the engine holds (what a node left in it) and normalises it in place: drops
 * `undefined` properties, turns `-0` into `0`, and copies into an ordinary object an object met a second
 * time, one without a prototype, and one that refuses the change (a frozen object, which stays as it was).
 * Answers the first value that breaks the contract, or undefined when the data is item data. Never throws.
 * @example
 * checkItemData({ data: { when: new Date(0) } }); // { pointer: '/when', found: 'a Date', fix: 'convert the Date …' }
 */
export function checkItemData(item: { data: unknown }): ItemDataFault | undefined {
  if (isFlat(item.data)) return undefined;
  const fault = walkRoot(item.data, true);
  if (fault === COPY || (fault === undefined && Object.getPrototypeOf(item.data) === null)) {
    item.data = copyData(item.data);
    return undefined;
  }
  return fault;
}

/**
 * Checks input item data (the caller's, left unchanged) and answers a normalised copy of it, or throws
 * `E_ITEM_DATA` naming `where` (e.g. `items[2]`), the pointer to the first value that breaks the contract
 * and what to give instead.
 * @example
 * admitItemData({ n: 1n }, 'items[0]'); // throws E_ITEM_DATA: items[0] holds a BigInt at /n …
 */
export function admitItemData(data: unknown, where: string): Record<string, unknown> {
  const flat = flatCopy(data);
  if (flat !== undefined) return flat;
  const fault = walkRoot(data, false);
  if (fault !== undefined && fault !== COPY) throw itemDataError(where, fault);
  // The walk and the copy each read the caller's data, and a getter or a Proxy may answer the second read
  // otherwise: the copy, which is the engine's own, is checked again. A walk that built the copy would read
  // once, but a second walker beside the one that normalises in place is more code than this rare case asks.
  const copy = { data: undefined as unknown };
  try {
    copy.data = copyData(data);
  } catch (error) {
    throw itemDataError(where, {
      pointer: '',
      found: `data that cannot be read (${thrownText(error)})`,
      fix: 'give plain data',
    });
  }
  const changed = checkItemData(copy);
  if (changed !== undefined) throw itemDataError(where, changed);
  return copy.data as Record<string, unknown>;
}

/**
 * Replaces the data of an item whose data broke the contract by its JSON form (see `toJsonData`), what a
 * JSON round trip would make of it: a Date as its ISO string, a BigInt as its digits, a cycle as a marker…
 * Every executor then routes and reports the same data.
 */
export function replaceByJsonForm(item: { data: unknown }): void {
  let form: unknown;
  try {
    form = JSON.parse(safeStringify(item.data));
  } catch {
    form = {};
  }
  item.data = form !== null && typeof form === 'object' && !Array.isArray(form) ? form : {};
  if (checkItemData(item) !== undefined) item.data = {};
}

/** The full walk: every value checked, and normalised in place when `fix` is set. */
function walkRoot(data: unknown, fix: boolean): ItemDataFault | typeof COPY | undefined {
  try {
    if (data === null || typeof data !== 'object' || Array.isArray(data)) {
      return { pointer: '', found: described(data), fix: 'give the item a plain object of data' };
    }
    const walked = walkObject(data, 1, fix, new Map());
    return walked === COPY ? COPY : walked?.done();
  } catch (error) {
    return { pointer: '', found: `data that cannot be read (${thrownText(error)})`, fix: 'give plain data' };
  }
}

/** Checks the children of a plain object or a dense array; `depth` is the level of `value` itself. */
function walkObject(value: object, depth: number, fix: boolean, seen: Seen): Walked {
  const proto = Object.getPrototypeOf(value) as unknown;
  const isArray = Array.isArray(value);
  if (isArray ? proto !== Array.prototype : proto !== Object.prototype && proto !== null) {
    return notPlain(value);
  }
  if (depth > ITEM_DATA_MAX_DEPTH) {
    return new Fault(
      `data nested deeper than ${ITEM_DATA_MAX_DEPTH} levels`,
      'flatten the data, or keep the deep part as a JSON string',
    );
  }
  seen.set(value, true);
  let fault: Fault | undefined;
  let copy = false;
  if (isArray) {
    const list = value as unknown[];
    const n = list.length;
    for (let i = 0; i < n && fault === undefined; i++) {
      if (!(i in list)) fault = new Fault('a hole of a sparse array', 'fill the array (null for no value)');
      else {
        const v = list[i];
        if (v === undefined) fault = new Fault('undefined in an array', 'use null for no value');
        else {
          const walked = walkValue(list, i, v, depth, fix, seen);
          if (walked === COPY) copy = true;
          else fault = walked;
        }
      }
      if (fault !== undefined) fault.at(String(i));
    }
  } else {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      let v: unknown;
      try {
        v = record[key];
      } catch (error) {
        fault = new Fault(`a property that throws when read (${thrownText(error)})`, 'give plain data').at(
          key,
        );
        break;
      }
      if (v === undefined) {
        if (fix && !Reflect.deleteProperty(record, key)) copy = true;
        continue;
      }
      const walked = walkValue(record, key, v, depth, fix, seen);
      if (walked === COPY) copy = true;
      else if (walked !== undefined) {
        fault = walked.at(key);
        break;
      }
    }
  }
  seen.set(value, false);
  return fault ?? (copy ? COPY : undefined);
}

/** Checks `v`, held by `holder` at `key`, normalising it there when `fix` is set. */
function walkValue(
  holder: Record<string, unknown> | unknown[],
  key: string | number,
  v: unknown,
  depth: number,
  fix: boolean,
  seen: Seen,
): Walked {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      if (Number.isFinite(v)) {
        return fix && v === 0 && Object.is(v, -0) ? put(holder, key, 0) : undefined;
      }
      return new Fault(Number.isNaN(v) ? 'NaN' : String(v), 'give a finite number, or null for no value');
    case 'object': {
      if (v === null) return undefined;
      const state = seen.get(v);
      if (state === undefined) {
        const walked = walkObject(v, depth + 1, fix, seen);
        // An object without a prototype is handed on as an ordinary one, as a JSON round trip gives it.
        if (walked === COPY || (walked === undefined && fix && Object.getPrototypeOf(v) === null)) {
          return put(holder, key, copyData(v));
        }
        return walked;
      }
      if (state) {
        return new Fault(
          'a reference back to an object that contains it (a cycle)',
          'break the cycle: JSON cannot hold it',
        );
      }
      // Met before, and checked then: this place gets a copy of its own, as a JSON round trip gives.
      return fix ? put(holder, key, copyData(v)) : undefined;
    }
    case 'bigint':
      return new Fault('a BigInt', 'convert it to a string (value.toString()), or to a number if it fits');
    case 'function':
      return new Fault('a function', 'keep functions out of item data (in services, or in the node)');
    case 'symbol':
      return new Fault('a symbol', 'use a string');
    default:
      return new Fault(described(v), 'give plain data');
  }
}

/** Writes `value` at `key` of `holder`, or answers {@link COPY} when the holder refuses the write. */
function put(holder: Record<string, unknown> | unknown[], key: string | number, value: unknown): Walked {
  return Reflect.set(holder, key, value) ? undefined : COPY;
}

/**
 * A normalised copy of data already checked: `undefined` properties dropped, `-0` as `0`, each place its
 * own copy, an own key `__proto__` kept as a key.
 */
function copyData(value: unknown): unknown {
  if (typeof value === 'number') return value === 0 ? 0 : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const n = value.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) out[i] = copyData(value[i]);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    setOwn(out, key, copyData(v));
  }
  return out;
}

/**
 * True when `value` is item data that a JSON round trip gives back exactly, with nothing to normalise: null,
 * strings, booleans, finite numbers other than -0, and plain objects (no `undefined` property) and dense
 * arrays of them, with no object reached twice. The journal records such a value as it is, and encodes
 * any other so that a replay gives it back exactly. Iterative, so deep data does not overflow the stack.
 */
export function isExactItemData(value: unknown): boolean {
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v === 'string' || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v) || Object.is(v, -0)) return false;
      continue;
    }
    if (typeof v !== 'object' || seen.has(v)) return false;
    seen.add(v);
    const proto = Object.getPrototypeOf(v) as unknown;
    if (Array.isArray(v)) {
      if (proto !== Array.prototype) return false;
      for (let i = 0; i < v.length; i++) {
        if (!(i in v)) return false;
        stack.push(v[i]);
      }
    } else if (proto === Object.prototype || proto === null) {
      for (const key of Object.keys(v)) stack.push((v as Record<string, unknown>)[key]);
    } else {
      return false;
    }
  }
  return true;
}
