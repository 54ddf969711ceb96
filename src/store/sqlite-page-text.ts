/**
 * The text of an `event_pages.body` from schema version 7: `{"k":shapes,"e":entries}`. The events of the
 * engine's stream are objects whose keys follow a few fixed orders (one or two per type), so a page keeps
 * each order once, as a shape (`[type, ...keys]`, the type's value first, then every key but `runId` in
 * order, `type` included), and each event as `[shape, ...values]`: its values in the shape's order, without
 * its `type` and `runId`. A W1 run's page is about a third of the text of its bodies, which is what a
 * commit's JSON encoding and the write-ahead log's frames cost. An event that does not fit (a body that is
 * not a plain object holding its own `seq` and `type` and the page's run id as its last key, or a value with
 * a `toJSON` of its own) is kept as `[-1, seq, type, body]`.
 */
import { fromJsonText, toJsonText } from './json.ts';
import type { EventRecord } from './types.ts';

/** The shape index of an event kept whole. */
const WHOLE = -1;

/** A shape: the type's value, then the keys of a body in order (`type` among them, `runId` not). */
type Shape = [type: string, ...keys: string[]];

type Body = Record<string, unknown>;

/** The shapes of one page as they are made, with the last one used by each type. */
class Shapes {
  readonly list: Shape[] = [];
  private readonly byKeys = new Map<string, number>();
  private readonly lastOfType = new Map<string, number>();

  /** The index of the shape last used by events of `type`, if any. */
  lastOf(type: string): number | undefined {
    return this.lastOfType.get(type);
  }

  /** The index of the shape of type `type` whose keys are `keys` (`runId` left out), made if new. */
  indexOf(type: string, keys: readonly string[]): number {
    const joined = `${type}\u0000${keys.join('\u0000')}`;
    let index = this.byKeys.get(joined);
    if (index === undefined) {
      index = this.list.length;
      this.list.push([type, ...keys]);
      this.byKeys.set(joined, index);
    }
    this.lastOfType.set(type, index);
    return index;
  }
}

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
 * The entry of `body` by the shape at `index`, when its keys are the shape's, in order, with `runId` last;
 * undefined otherwise (or when a value has a `toJSON` of its own).
 */
function entryBy(shape: Shape, index: number, body: Body): unknown[] | undefined {
  const entry: unknown[] = [index];
  let at = 1;
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
    if (key !== 'type') entry.push(value);
  }
  return ended && at === shape.length ? entry : undefined;
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
  const shapes = new Shapes();
  const entries: unknown[][] = new Array(events.length);
  for (let i = 0; i < events.length; i++) {
    const event = events[i] as EventRecord;
    const body = event.body as Body | null;
    entries[i] =
      typeof body === 'object' && body !== null && fits(body, event, runId)
        ? (shapedEntry(shapes, event.type, body) ?? [WHOLE, event.seq, event.type, body])
        : [WHOLE, event.seq, event.type, body];
  }
  return toJsonText({ k: shapes.list, e: entries }, what);
}

/** The entry of `body` by its shape (the last of its type when it fits), or undefined when it has none. */
function shapedEntry(shapes: Shapes, type: string, body: Body): unknown[] | undefined {
  const last = shapes.lastOf(type);
  if (last !== undefined) {
    const entry = entryBy(shapes.list[last] as Shape, last, body);
    if (entry !== undefined) return entry;
  }
  const keys = keysOf(body);
  if (keys === undefined) return undefined;
  const index = shapes.indexOf(type, keys);
  return entryBy(shapes.list[index] as Shape, index, body);
}

/** True when `text` is a page in the form of {@link pageText}. */
export function isShapedPage(text: string): boolean {
  return text.charCodeAt(0) === 123; // '{'
}

/** Appends to `out` the events of run `runId` a page of {@link pageText} holds whose seq is above `after`. */
export function eventsFromShapedPage(runId: string, text: string, after: number, out: EventRecord[]): void {
  const { k: shapes, e: entries } = fromJsonText<{ k: Shape[]; e: unknown[][] }>(text);
  for (const entry of entries) {
    const index = entry[0] as number;
    if (index === WHOLE) {
      const seq = entry[1] as number;
      if (seq > after) out.push({ runId, seq, type: entry[2] as string, body: entry[3] });
      continue;
    }
    const shape = shapes[index] as Shape;
    const type = shape[0];
    const body: Body = {};
    for (let i = 1, j = 1; i < shape.length; i++) {
      const key = shape[i] as string;
      body[key] = key === 'type' ? type : entry[j++];
    }
    const seq = body.seq as number;
    if (seq <= after) continue;
    body.runId = runId;
    out.push({ runId, seq, type, body });
  }
}
