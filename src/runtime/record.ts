/**
 * Null-prototype records: the plain-JSON maps of an item's state that are keyed by names from documents and
 * nodes (budgets, visits, journal keys, terminal counts). With no prototype, a key such as `toString` or
 * `__proto__` is an ordinary key, and reads go through own properties only, so an inherited value is never
 * taken for a recorded one, even in a record built elsewhere (a checkpoint parsed from JSON).
 */

/** A new record with no prototype. */
export function emptyRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/**
 * The prototype of {@link emptyCounts} records: empty, frozen, and without a prototype of its own, so that
 * nothing is inherited through it either.
 */
const NO_NAMES: object = Object.freeze(Object.create(null));

/**
 * A new record of counts (a child item's budgets and visits) that reads as a {@link emptyRecord} does (no
 * inherited names, `__proto__` an ordinary key) but is a fast object: a null-prototype object is a
 * dictionary from the start, about 190 bytes even empty, against about 60 for this one with a few counts,
 * and a scatter makes two per child.
 */
export function emptyCounts(): Record<string, number> {
  return Object.create(NO_NAMES) as Record<string, number>;
}

/** The value recorded under `key`, or undefined: own properties only. */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * A null-prototype copy of the own enumerable entries of `source` (a record from a checkpoint), each value
 * passed through `copy`; anything but an object gives an empty record.
 */
export function recordFrom<T>(source: unknown, copy: (value: unknown) => T): Record<string, T> {
  const record = emptyRecord<T>();
  if (source === null || typeof source !== 'object') return record;
  for (const key of Object.keys(source)) record[key] = copy((source as Record<string, unknown>)[key]);
  return record;
}

/**
 * Sets `key` of `out` to `value` as an own enumerable property. An assignment to `__proto__` would set the
 * object's prototype instead, so that one key is defined; every copy of item data, counts or checkpoints
 * writes its keys through here.
 */
export function setOwn<T>(out: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') {
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  } else out[key] = value;
}
