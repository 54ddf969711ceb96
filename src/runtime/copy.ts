/**
 * A deep copy of item data (structured clone), so a parent and the child items it hands values to never
 * share mutable data. Throws a DataCloneError for values that cannot be cloned, such as functions.
 */
export function copyJson<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}
