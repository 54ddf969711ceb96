/** Small helpers for JSON values as the document layer walks them. */

/** A JSON object as parsed: string keys, any values. */
export type JsonObject = Record<string, unknown>;

/** Whether `value` is a JSON object (not null, not an array). */
export function isRecord(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `key` escaped as one segment of a JSON pointer (RFC 6901: `~` → `~0`, `/` → `~1`). */
export function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
