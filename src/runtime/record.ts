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
