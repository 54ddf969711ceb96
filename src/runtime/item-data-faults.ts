/**
 * What a breach of the item-data contract (see `item-data.ts`) says: where it is, as a JSON pointer built
 * while the walk unwinds, what was found, and what to give instead; and the message and error it makes.
 */
import { pointerSegment } from '../document/json.ts';
import { SwitchyardError } from '../errors.ts';

/** Where item data breaks the contract, and what to give instead. */
export interface ItemDataFault {
  /** RFC 6901 pointer to the value inside the item's data (`''` for the data itself). */
  readonly pointer: string;
  /** What was found, e.g. `a Date`, `NaN`. */
  readonly found: string;
  /** What to do, e.g. `convert the Date to an ISO string (date.toISOString())`. */
  readonly fix: string;
}

/** The error of input data that breaks the contract: `E_ITEM_DATA`, one line, with where and what to do. */
export function itemDataError(where: string, fault: ItemDataFault): SwitchyardError {
  return new SwitchyardError('E_ITEM_DATA', `${where} ${faultText(fault)}`);
}

/**
 * A fault as a message says it: `holds a Date at /when, which item data cannot hold (it must be JSON);
 * convert …` for a value inside the data, `is an array, which item data cannot be (it must be a plain
 * object); give …` for the data as a whole.
 */
export function faultText(fault: ItemDataFault): string {
  if (fault.pointer === '') {
    return `is ${fault.found}, which item data cannot be (it must be a plain object); ${fault.fix}`;
  }
  return `holds ${fault.found} at ${fault.pointer}, which item data cannot hold (it must be JSON); ${fault.fix}`;
}

/** A fault found while walking, with the pointer built from the bottom up as the walk unwinds. */
export class Fault {
  readonly segments: string[] = [];
  constructor(
    readonly found: string,
    readonly fix: string,
  ) {}

  at(segment: string): Fault {
    this.segments.push(pointerSegment(segment));
    return this;
  }

  done(): ItemDataFault {
    const pointer = this.segments.length === 0 ? '' : `/${this.segments.reverse().join('/')}`;
    return { pointer, found: this.found, fix: this.fix };
  }
}

/** The fault of an object that is not a plain object or array, with what to turn it into. */
export function notPlain(value: object): Fault {
  if (value instanceof Date) {
    return new Fault('a Date', 'convert the Date to an ISO string (date.toISOString())');
  }
  if (value instanceof Map) {
    return new Fault(
      'a Map',
      'convert the Map to an object (Object.fromEntries(map)) or to an array of entries',
    );
  }
  if (value instanceof Set) return new Fault('a Set', 'convert the Set to an array ([...set])');
  if (value instanceof RegExp) return new Fault('a RegExp', 'keep its source as a string (regexp.source)');
  if (value instanceof Error) return new Fault('an Error', 'keep its message as a string (error.message)');
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
    return new Fault(
      described(value),
      "encode the bytes as a string (Buffer.from(bytes).toString('base64'))",
    );
  }
  if (value instanceof String || value instanceof Number || value instanceof Boolean) {
    return new Fault('a boxed primitive', 'use the primitive value (value.valueOf())');
  }
  return new Fault(
    described(value),
    'copy its fields into a plain object ({ ...value }), or convert it to JSON',
  );
}

/** What a getter or a trap threw, short. */
export function thrownText(error: unknown): string {
  let text: string;
  try {
    text = error instanceof Error ? error.message : String(error);
  } catch {
    text = 'an unprintable value';
  }
  return text.slice(0, 120);
}

/** A value as a fault names it: its type, or the class it is an instance of. */
export function described(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value !== 'object') return value === undefined ? 'undefined' : `a ${typeof value}`;
  let name: unknown;
  try {
    name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  } catch {
    name = undefined;
  }
  return typeof name === 'string' && name !== '' ? `an instance of ${name.slice(0, 60)}` : 'an object';
}
