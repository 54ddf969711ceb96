/**
 * Retry-After hints: milliseconds, header seconds or an HTTP-date, turned into a delay in milliseconds.
 */
import type { RetryAfterOptions } from './types.ts';

/** Header containers this module reads: a fetch `Headers`, or a plain record (keys in any case). */
export type HeaderSource = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

const DIGITS = /^\d+$/;
const DECIMAL = /^\d+(?:\.\d+)?$/;
// An HTTP-date names a weekday or month; requiring a letter keeps bare numbers and ISO-ish junk out of Date.parse.
const HTTP_DATE_HINT = /^[A-Za-z]{3,9},? /;
const HAS_ZONE = /(?:GMT|UTC|UT|Z|[+-]\d{4})$/i;

/**
 * Turns a Retry-After value into a delay in whole milliseconds from `nowMs`.
 *
 * A number is milliseconds; a string of digits is seconds (the Retry-After header); an HTTP-date (IMF-fixdate,
 * or an obsolete RFC 850 / asctime form) is the delay until that instant, 0 when it is past. Anything else,
 * negative or not finite, is undefined.
 *
 * @example
 * parseRetryAfter('120', 0); // 120000
 * parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.UTC(2015, 9, 21, 7, 27, 0)); // 60000
 */
export function parseRetryAfter(value: number | string, nowMs: number): number | undefined {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
  }
  const text = value.trim();
  if (DIGITS.test(text)) {
    const ms = Number(text) * 1000;
    return Number.isFinite(ms) ? ms : undefined;
  }
  if (!HTTP_DATE_HINT.test(text)) return undefined;
  // HTTP dates are always UTC; asctime carries no zone, and Date.parse would read it as local time.
  const at = Date.parse(HAS_ZONE.test(text) ? text : `${text} GMT`);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.floor(at - nowMs));
}

/** Reads one header from either container, case-insensitively; the first value of a list. */
export function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  for (const [key, value] of Object.entries(record)) {
    if (key.toLowerCase() !== name) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') return first;
  }
  return undefined;
}

/**
 * The delay a response's headers ask for: `retry-after-ms` (milliseconds) first, then `retry-after` (seconds
 * or HTTP-date); undefined when neither is present and valid.
 *
 * @example
 * retryAfterFromHeaders(new Headers({ 'retry-after-ms': '250' }), 0); // 250
 */
export function retryAfterFromHeaders(headers: HeaderSource, nowMs: number): number | undefined {
  const ms = headerValue(headers, 'retry-after-ms')?.trim();
  if (ms !== undefined && DECIMAL.test(ms)) return Math.floor(Number(ms));
  const value = headerValue(headers, 'retry-after');
  return value === undefined ? undefined : parseRetryAfter(value, nowMs);
}

/**
 * The wait a hint actually causes under `options`: undefined when there is no hint or hints are not honoured
 * (the back-off applies then), otherwise the hint cut to `capMs`.
 */
export function effectiveRetryAfter(
  hintMs: number | undefined,
  options: RetryAfterOptions,
): number | undefined {
  if (hintMs === undefined || !options.honour) return undefined;
  if (Number.isNaN(hintMs) || hintMs < 0) return undefined;
  return Math.min(Math.floor(hintMs), Math.max(0, Math.floor(options.capMs)));
}
