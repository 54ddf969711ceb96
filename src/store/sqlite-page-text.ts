/**
 * The text of an `event_pages.body` from schema version 7: `{"k":shapes,"e":entries}`. The events of the
 * engine's stream are objects whose keys follow a few fixed orders (one or two per type), so a page keeps
 * each order once, as a shape (`[type, ...keys]`, the type's value first, then every key but `runId` in
 * order, `type` included), and each event as `[shape, mask, ...values]`: its values in the shape's order,
 * without its `type` and `runId`, and without those that repeat the last value of the same key in the page
 * (the item, the document, a time shared with the event before; for `seq`, the last seq plus one), whose
 * places `mask` holds as bits. A shape is named by its index among the page's own (`k`), or, for the
 * shapes of the engine's own events, which pages do not list, by `-2 - i` (see `ENGINE_SHAPES`). A W1
 * run's page is about a fifth of the text of its bodies, and a W2 run's pages about a fifth of theirs. An
 * event that does not fit (a body that is not a plain object holding its own `seq` and `type` and the page's
 * run id as its last key, or a value with a `toJSON` of its own) is kept as `[-1, seq, type, body]`.
 */
import { fromJsonText, toJsonText } from './json.ts';
import {
  ENGINE_SHAPE_INDEX,
  ENGINE_SHAPE_KEYS,
  ENGINE_SHAPE_OF_TYPE,
  ENGINE_SHAPES,
  type Shape,
  shapeKey,
  shapeNamed,
} from './sqlite-page-shapes.ts';
import type { EventRecord } from './types.ts';

/** The shape index of an event kept whole. */
const WHOLE = -1;

type Body = Record<string, unknown>;

/** True when JSON leaves `value` out of an object (and writes null in a list). */
function leftOut(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** True when `value` has a `toJSON` of its own, which might give what JSON leaves out. */
function hasToJson(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as Body).toJSON === 'function';
}

/** True when `body` may be kept by shape: a plain object, no `toJSON`, the event's seq and type, the page's run. */
function fits(body: Body, event: EventRecord, runId: string): boolean {
  return (
    Object.getPrototypeOf(body) === Object.prototype &&
    body.toJSON === undefined &&
    body.seq === event.seq &&
    body.type === event.type &&
    body.runId === runId
  );
}

/**
 * The keys of `body` but its last, `runId`, when it can be kept by shape: a plain object whose `seq` and
 * `type` are the event's, whose last key is `runId` holding the page's run, and whose values JSON writes the
 * same in a list as in an object (the keys JSON leaves out of an object are left out of the shape too).
 * Undefined otherwise.
 */
function keysOf(body: Body): string[] | undefined {
  const keys: string[] = [];
  let last: string | undefined;
  for (const key in body) {
    const value = body[key];
    if (leftOut(value)) continue;
    if (hasToJson(value)) return undefined;
    if (last !== undefined) keys.push(last);
    last = key;
  }
  if (last !== 'runId' || keys.includes('__proto__')) return undefined;
  return keys;
}

/** The JSON text of an `event_pages.body` for `events` of run `runId` (see the file's summary). */
export function pageText(runId: string, events: readonly EventRecord[], what: string): string {
  const page = new PageWriter();
  const entries: unknown[][] = new Array(events.length);
  for (let i = 0; i < events.length; i++) {
    const event = events[i] as EventRecord;
    const body = event.body as Body | null;
    const entry =
      typeof body === 'object' && body !== null && fits(body, event, runId)
        ? page.entry(event.type, body)
        : undefined;
    entries[i] = entry ?? [WHOLE, event.seq, event.type, body];
  }
  return toJsonText({ k: page.shapes, e: entries }, what);
}

/** The keys (by their place among a shape's keys other than `type`) whose repeats an entry may leave out. */
const MASKED = 30;

/** No value of a key yet in the page. */
const NONE: unique symbol = Symbol('none');

/** True for the values whose repeats are left out: those JSON writes as themselves. */
function isPrimitive(value: unknown): boolean {
  const kind = typeof value;
  return value === null || kind === 'string' || kind === 'number' || kind === 'boolean';
}

/**
 * The last value of each key in a page, as its events are written or read, in a slot per key, and each
 * shape's slots (one per key other than `type`, in order).
 */
class LastValues {
  readonly values: unknown[] = [];
  /** The slot of `seq`, whose repeat is the last seq plus one. */
  seqSlot = -1;
  private readonly slotOfKey = new Map<string, number>();

  slotsOf(shape: Shape): number[] {
    const slots: number[] = [];
    for (let i = 1; i < shape.length; i++) {
      const key = shape[i] as string;
      if (key === 'type') continue;
      let slot = this.slotOfKey.get(key);
      if (slot === undefined) {
        slot = this.values.length;
        this.values.push(NONE);
        this.slotOfKey.set(key, slot);
        if (key === 'seq') this.seqSlot = slot;
      }
      slots.push(slot);
    }
    return slots;
  }

  /** True when `value`, in `slot`, repeats the last value there. */
  repeats(value: unknown, slot: number): boolean {
    const previous = this.values[slot];
    if (previous === NONE || !isPrimitive(value)) return false;
    return slot === this.seqSlot
      ? typeof previous === 'number' && value === previous + 1
      : value === previous;
  }
}

/** A page's shapes and last values as its events are written. */
class PageWriter {
  /** The page's own shapes, in the order of their indexes. */
  readonly shapes: Shape[] = [];
  /** Each shape used so far, its name in an entry and its slots, by the order it was first used. */
  private readonly used: { readonly shape: Shape; readonly name: number; readonly slots: number[] }[] = [];
  private readonly byKeys = new Map<string, number>();
  private readonly lastOfType = new Map<string, number>();
  private readonly last = new LastValues();

  /**
   * `[shape, mask, ...values]` for `body` of type `type` (see the file's summary), by the last shape of its
   * type when it fits, else by its own; undefined when it has none.
   */
  entry(type: string, body: Body): unknown[] | undefined {
    const known = this.lastOfType.get(type);
    if (known !== undefined) {
      const entry = this.entryBy(known, body);
      if (entry !== undefined) return entry;
    } else {
      // The engine's shape of the type is tried first: it fits the engine's events, whose keys need not be
      // listed and looked up to find it. What a fit writes is what finding it by the keys would.
      const engine = ENGINE_SHAPE_OF_TYPE.get(type);
      if (engine !== undefined) {
        const entry = this.entryBy(this.usedOfEngine(type, engine), body);
        if (entry !== undefined) return entry;
      }
    }
    const keys = keysOf(body);
    if (keys === undefined) return undefined;
    return this.entryBy(this.usedOf(type, keys), body);
  }

  /** Where the shape of type `type` whose keys are `keys` (`runId` left out) is in `used`, added if new. */
  private usedOf(type: string, keys: readonly string[]): number {
    const key = shapeKey(type, keys);
    let at = this.byKeys.get(key);
    if (at === undefined) {
      at = this.used.length;
      const engine = ENGINE_SHAPE_INDEX.get(key);
      let shape: Shape;
      let name: number;
      if (engine === undefined) {
        shape = [type, ...keys];
        name = this.shapes.length;
        this.shapes.push(shape);
      } else {
        shape = ENGINE_SHAPES[engine] as Shape;
        name = -2 - engine;
      }
      this.used.push({ shape, name, slots: this.last.slotsOf(shape) });
      this.byKeys.set(key, at);
    }
    this.lastOfType.set(type, at);
    return at;
  }

  /** Where the `engine`th of {@link ENGINE_SHAPES}, of type `type`, is in `used`, added if new. */
  private usedOfEngine(type: string, engine: number): number {
    const key = ENGINE_SHAPE_KEYS[engine] as string;
    let at = this.byKeys.get(key);
    if (at === undefined) {
      at = this.used.length;
      const shape = ENGINE_SHAPES[engine] as Shape;
      this.used.push({ shape, name: -2 - engine, slots: this.last.slotsOf(shape) });
      this.byKeys.set(key, at);
    }
    this.lastOfType.set(type, at);
    return at;
  }

  /**
   * The entry of `body` by the shape `used` (its place in `used`) when its keys are the shape's, in order, with `runId` last
   * (and no value has a `toJSON` of its own); undefined otherwise. The last values change only when it fits.
   */
  private entryBy(used: number, body: Body): unknown[] | undefined {
    const { shape, name, slots } = this.used[used] as PageWriter['used'][number];
    const last = this.last;
    const entry: unknown[] = [name, 0];
    let mask = 0;
    let at = 1;
    let place = 0;
    let ended = false;
    for (const key in body) {
      const value = body[key];
      if (leftOut(value)) continue;
      if (ended) return undefined;
      if (key === 'runId') {
        ended = true;
        continue;
      }
      if (shape[at] !== key || hasToJson(value)) return undefined;
      at++;
      if (key === 'type') continue;
      if (place < MASKED && last.repeats(value, slots[place] as number)) mask |= 1 << place;
      else entry.push(value);
      place++;
    }
    if (!ended || at !== shape.length) return undefined;
    entry[1] = mask;
    // It fits: its values become the last ones (a repeat leaves its slot as it was, but for seq's).
    for (let p = 0, j = 2; p < slots.length; p++) {
      const slot = slots[p] as number;
      if (p < MASKED && (mask & (1 << p)) !== 0) {
        if (slot === last.seqSlot) last.values[slot] = (last.values[slot] as number) + 1;
      } else last.values[slot] = entry[j++];
    }
    return entry;
  }
}

/** True when `text` is a page in the form of {@link pageText}. */
export function isShapedPage(text: string): boolean {
  return text.charCodeAt(0) === 123; // '{'
}

/** Appends to `out` the events of run `runId` a page of {@link pageText} holds whose seq is above `after`. */
export function eventsFromShapedPage(runId: string, text: string, after: number, out: EventRecord[]): void {
  const { k: shapes, e: entries } = fromJsonText<{ k: Shape[]; e: unknown[][] }>(text);
  const last = new LastValues();
  const slotsOfShape = new Map<number, number[]>();
  for (const entry of entries) {
    const index = entry[0] as number;
    if (index === WHOLE) {
      const seq = entry[1] as number;
      if (seq > after) out.push({ runId, seq, type: entry[2] as string, body: entry[3] });
      continue;
    }
    const shape = shapeNamed(index, shapes) as Shape;
    const type = shape[0];
    const mask = entry[1] as number;
    let slots = slotsOfShape.get(index);
    if (slots === undefined) {
      slots = last.slotsOf(shape);
      slotsOfShape.set(index, slots);
    }
    const body: Body = {};
    for (let i = 1, j = 2, place = 0; i < shape.length; i++) {
      const key = shape[i] as string;
      if (key === 'type') {
        body.type = type;
        continue;
      }
      const slot = slots[place] as number;
      let value: unknown;
      if (place < MASKED && (mask & (1 << place)) !== 0) {
        const previous = last.values[slot];
        value = slot === last.seqSlot ? (previous as number) + 1 : previous;
      } else value = entry[j++];
      body[key] = value;
      last.values[slot] = value;
      place++;
    }
    const seq = body.seq as number;
    if (seq <= after) continue;
    body.runId = runId;
    out.push({ runId, seq, type, body });
  }
}
