/**
 * Retry-After hints: milliseconds, header seconds or an HTTP-date, turned into a delay in milliseconds.
 */
import { parseHttpDate } from './http-date.ts';
import { isArraySafe, isObjectLike, read } from './safe-read.ts';
import type { RetryAfterOptions } from './types.ts';

/**
 * Header containers this module reads: a fetch or undici `Headers`, anything with a `get(name)` method (axios's
 * `AxiosHeaders`), a `Map`, a list of `[name, value]` pairs, or a plain record (Node's `IncomingHttpHeaders`,
 * the AI SDK's `responseHeaders`). Names are matched in any case.
 */
export type HeaderSource =
  | Headers
  | ReadonlyMap<string, unknown>
  | Iterable<readonly [string, unknown]>
  | Readonly<Record<string, string | number | readonly string[] | undefined>>;

const DIGITS = /^\d+$/;
const DECIMAL = /^\d+(?:\.\d+)?$/;

/** Most header entries read from one container: a hostile or endless one costs no more. */
const HEADER_LIMIT = 1000;

/**
 * Turns a Retry-After value into a delay in whole milliseconds.
 *
 * A number is milliseconds; a string of digits is seconds (the Retry-After header's delay-seconds); both are
 * relative and ignore `wallNowMs`. An HTTP-date in one of the three forms of RFC 9110 (IMF-fixdate
 * `Sun, 06 Nov 1994 08:49:37 GMT`, RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT`, asctime
 * `Sun Nov  6 08:49:37 1994`), exactly as written there, is an absolute instant: the delay until it from
 * `wallNowMs`, a wall-clock reading in ms since the Unix epoch (`clock.wallNow()`, never a monotonic
 * reading), and 0 when it is past. Anything else (another date form, a negative or fractional number of
 * seconds, a value that is not a number or string) is undefined: no hint.
 *
 * @example
 * parseRetryAfter('120', clock.wallNow()); // 120000
 * parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.UTC(2015, 9, 21, 7, 27, 0)); // 60000
 * parseRetryAfter('Wed Oct 21 2015 07:28:00 GMT', Date.UTC(2015, 9, 21, 7, 27, 0)); // undefined
 */
export function parseRetryAfter(value: unknown, wallNowMs: number): number | undefined {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (DIGITS.test(text)) {
    // More seconds than a double holds is still a valid (very long) delay: the cap cuts it.
    return Math.min(Number(text) * 1000, Number.MAX_SAFE_INTEGER);
  }
  const at = parseHttpDate(text, wallNowMs);
  if (at === undefined || !Number.isFinite(wallNowMs)) return undefined;
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
      ? `${JSON.stringify(value.slice(0, 64))} is neither whole seconds nor an HTTP-date of RFC 9110 (such as "Sun, 06 Nov 1994 08:49:37 GMT")`
      : undefined;
  }
  const what = value === null ? 'null' : isArraySafe(value) ? 'an array' : `a ${typeof value}`;
  return `${what} is neither milliseconds (a number) nor a Retry-After header value (a string)`;
}

/** A header value as read: a string, the first of a list, a number written as text; else undefined. */
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (isArraySafe(value)) return text(read(value, 0));
  return undefined;
}

/** The value of `name` among `[key, value]` pairs, keys in any case. */
function fromPairs(pairs: Iterable<unknown>, name: string): string | undefined {
  let count = 0;
  for (const pair of pairs) {
    if (++count > HEADER_LIMIT) break;
    if (!isObjectLike(pair)) continue;
    const key = read(pair, 0);
    if (typeof key === 'string' && key.toLowerCase() === name) return text(read(pair, 1));
  }
  return undefined;
}

/**
 * Reads one header from any {@link HeaderSource}, its name in any case; the first value of a list; undefined
 * when it is absent or the container cannot be read (a getter or Proxy that throws).
 */
export function headerValue(headers: HeaderSource | object, name: string): string | undefined {
  const lower = name.toLowerCase();
  if (!isObjectLike(headers)) return undefined;
  try {
    const get = read(headers, 'get');
    if (typeof get === 'function') {
      const found = text(get.call(headers, lower));
      if (found !== undefined) return found;
    }
    const iterate = read(headers, Symbol.iterator);
    if (typeof iterate === 'function') return fromPairs(headers as Iterable<unknown>, lower);
    for (const key of Object.keys(headers).slice(0, HEADER_LIMIT)) {
      if (key.toLowerCase() === lower) return text(read(headers, key));
    }
  } catch {
    // A container that throws when read holds no hint.
  }
  return undefined;
}

/**
 * The hint in one header container, as a classification reports it: `retry-after-ms` as a number of
 * milliseconds, else `retry-after` as written (seconds or an HTTP-date); a malformed `retry-after-ms` is
 * passed over for `retry-after`, and reported as written when there is none, so that it is heard of. An empty
 * value is no hint.
 */
export function hintInHeaders(headers: HeaderSource | object): string | number | undefined {
  const ms = headerValue(headers, 'retry-after-ms')?.trim();
  if (ms !== undefined && DECIMAL.test(ms)) return Math.floor(Number(ms));
  const value = headerValue(headers, 'retry-after')?.trim();
  if (value !== undefined && value !== '') return value;
  return ms === undefined || ms === '' ? undefined : ms;
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
  const hint = hintInHeaders(headers);
  return hint === undefined ? undefined : parseRetryAfter(hint, wallNowMs);
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
