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
 * Turns a Retry-After value into a delay in whole milliseconds.
 *
 * A number is milliseconds; a string of digits is seconds (the Retry-After header); both are relative and
 * ignore `wallNowMs`. An HTTP-date (IMF-fixdate, or an obsolete RFC 850 / asctime form) is an absolute
 * instant: the delay until it from `wallNowMs`, a wall-clock reading in ms since the Unix epoch
 * (`clock.wallNow()`, never a monotonic reading), and 0 when it is past. Anything else (negative, not finite,
 * not a number or string) is undefined.
 *
 * @example
 * parseRetryAfter('120', clock.wallNow()); // 120000
 * parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.UTC(2015, 9, 21, 7, 27, 0)); // 60000
 */
export function parseRetryAfter(value: unknown, wallNowMs: number): number | undefined {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (DIGITS.test(text)) {
    const ms = Number(text) * 1000;
    return Number.isFinite(ms) ? ms : undefined;
  }
  if (!HTTP_DATE_HINT.test(text)) return undefined;
  // HTTP dates are always UTC; asctime carries no zone, and Date.parse would read it as local time.
  const at = Date.parse(HAS_ZONE.test(text) ? text : `${text} GMT`);
  if (Number.isNaN(at) || !Number.isFinite(wallNowMs)) return undefined;
  return Math.max(0, Math.floor(at - wallNowMs));
}

/**
 * Why a Retry-After hint cannot be used, so that the back-off applies instead; undefined when there is no
 * hint or it is usable. Whether a hint is usable does not depend on the time: a past HTTP-date is usable
 * (it means no wait).
 *
 * @example
 * unusableRetryAfter({}); // 'an object is neither milliseconds (a number) nor a Retry-After header value (a string)'
 */
export function unusableRetryAfter(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= 0
      ? undefined
      : `${String(value)} is not a number of milliseconds ≥ 0`;
  }
  if (typeof value === 'string') {
    return parseRetryAfter(value, 0) === undefined
      ? `${JSON.stringify(value.slice(0, 64))} is neither seconds nor an HTTP-date`
      : undefined;
  }
  const what = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
  return `${what} is neither milliseconds (a number) nor a Retry-After header value (a string)`;
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
 * or HTTP-date, measured from `wallNowMs`, ms since the Unix epoch); undefined when neither is present and
 * valid.
 *
 * @example
 * retryAfterFromHeaders(new Headers({ 'retry-after-ms': '250' }), clock.wallNow()); // 250
 */
export function retryAfterFromHeaders(headers: HeaderSource, wallNowMs: number): number | undefined {
  const ms = headerValue(headers, 'retry-after-ms')?.trim();
  if (ms !== undefined && DECIMAL.test(ms) && Number.isFinite(Number(ms))) return Math.floor(Number(ms));
  const value = headerValue(headers, 'retry-after');
  return value === undefined ? undefined : parseRetryAfter(value, wallNowMs);
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
