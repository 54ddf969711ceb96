/**
 * JSON text for values that JSON cannot hold as they are: item data a node wrote may carry BigInts, cycles,
 * functions, Maps, errors or getters that throw. Printing a result must never fail because of it.
 */

/** How deep a value is written before its deeper parts are replaced by a marker. */
export const MAX_JSON_DEPTH = 256;

/** The marker written in place of a reference back to an object that contains it. */
export const CIRCULAR = '[Circular]';

/** The marker written in place of a part nested deeper than {@link MAX_JSON_DEPTH}. */
export const TOO_DEEP = '[nested too deep]';

function describeError(error: Error): Record<string, unknown> {
  const out: Record<string, unknown> = { name: error.name, message: error.message };
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') out.code = code;
  return out;
}

/** A plain object with the own enumerable properties of `value`, reading each one safely. */
function ownProperties(value: object): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value)) {
    try {
      out[key] = (value as Record<string, unknown>)[key];
    } catch (error) {
      out[key] = `[unreadable: ${error instanceof Error ? error.message : String(error)}]`;
    }
  }
  return out;
}

/**
 * Turns `value` into plain JSON data, without recursion (so no depth can overflow the stack): BigInt becomes
 * its decimal string, a reference to an enclosing object becomes `"[Circular]"`, functions and symbols are
 * dropped (`null` in arrays, as JSON does with `undefined`), a `Date` becomes its ISO string (or null when
 * invalid), a `Map` an object of its entries, a `Set` an array, an `Error` its name, message and code, and
 * anything past {@link MAX_JSON_DEPTH} levels `"[nested too deep]"`.
 */
export function toJsonData(value: unknown): unknown {
  const root: { value: unknown } = { value: undefined };
  // Each task writes one converted value into its holder; `path` is the chain of enclosing objects.
  const tasks: { value: unknown; set: (v: unknown) => void; path: readonly object[] }[] = [
    { value, set: (v) => (root.value = v), path: [] },
  ];
  while (tasks.length > 0) {
    const task = tasks.pop() as (typeof tasks)[number];
    const { set, path } = task;
    let current = task.value;
    if (typeof current === 'bigint') {
      set(current.toString());
      continue;
    }
    if (typeof current === 'number') {
      set(Number.isFinite(current) ? current : null);
      continue;
    }
    if (typeof current === 'function' || typeof current === 'symbol' || current === undefined) {
      set(undefined);
      continue;
    }
    if (current === null || typeof current !== 'object') {
      set(current);
      continue;
    }
    if (path.includes(current)) {
      set(CIRCULAR);
      continue;
    }
    if (path.length >= MAX_JSON_DEPTH) {
      set(TOO_DEEP);
      continue;
    }
    if (current instanceof Date) {
      set(Number.isNaN(current.getTime()) ? null : current.toISOString());
      continue;
    }
    const inner = [...path, current];
    if (current instanceof Error) current = describeError(current);
    else if (current instanceof Map)
      current = Object.fromEntries([...current].map(([k, v]) => [String(k), v]));
    else if (current instanceof Set) current = [...current];
    else if (ArrayBuffer.isView(current) && !(current instanceof DataView))
      current = Array.from(current as unknown as ArrayLike<number | bigint>);
    else if (typeof (current as { toJSON?: unknown }).toJSON === 'function') {
      try {
        tasks.push({ value: (current as { toJSON: () => unknown }).toJSON(), set, path: inner });
      } catch (error) {
        set(`[unserialisable: ${error instanceof Error ? error.message : String(error)}]`);
      }
      continue;
    }
    if (Array.isArray(current)) {
      const out: unknown[] = new Array(current.length).fill(null);
      set(out);
      current.forEach((item, index) => {
        tasks.push({ value: item, set: (v) => (out[index] = v === undefined ? null : v), path: inner });
      });
      continue;
    }
    const out: Record<string, unknown> = Object.create(null);
    set(out);
    for (const [key, item] of Object.entries(ownProperties(current as object))) {
      // A placeholder keeps the keys in their written order, whatever order the tasks run in.
      out[key] = null;
      tasks.push({
        value: item,
        set: (v) => {
          if (v === undefined) delete out[key];
          else out[key] = v;
        },
        path: inner,
      });
    }
  }
  return root.value;
}

/**
 * `JSON.stringify` that never throws on what a node may put in item data; see {@link toJsonData}.
 * @example
 * safeStringify({ n: 10n, f: () => 1 }) // '{"n":"10"}'
 */
export function safeStringify(value: unknown, space?: number): string {
  return JSON.stringify(toJsonData(value), null, space) ?? 'null';
}
