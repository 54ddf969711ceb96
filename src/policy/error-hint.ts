/**
 * Where the common HTTP and model clients put a response's Retry-After on the errors they throw.
 */
import { hintInHeaders } from './retry-after.ts';
import { isObjectLike, read } from './safe-read.ts';

/** A Retry-After found on one error: the value as {@link classifyError} reports it, and where it was. */
export interface FoundHint {
  /** Milliseconds (a number), or a Retry-After header value (a string). */
  readonly value: string | number;
  /** Where it was, for messages: `retryAfter`, `responseHeaders`, `headers` or `response.headers`. */
  readonly from: string;
}

/**
 * The header containers of one error, with the name to report each by:
 * - `responseHeaders`: the AI SDK's `APICallError` (a plain record);
 * - `headers`: the `openai` and `@anthropic-ai/sdk` SDKs' `APIError` (a `Headers`), undici's
 *   `ResponseStatusCodeError` (a record), a fetch `Response` thrown as it is;
 * - `response.headers`: `ky`'s `HTTPError` (a fetch `Response`), `got`'s `HTTPError` (Node's
 *   `IncomingHttpHeaders`), axios's `AxiosError` (an `AxiosHeaders`).
 */
function containers(error: object): [string, unknown][] {
  const response = read(error, 'response');
  return [
    ['responseHeaders', read(error, 'responseHeaders')],
    ['headers', read(error, 'headers')],
    ['response.headers', isObjectLike(response) ? read(response, 'headers') : undefined],
  ];
}

/**
 * The Retry-After of one error: its own `retryAfter` (milliseconds as a number, or a header value), else the
 * first container of {@link containers} with a `retry-after-ms` or `retry-after` header. Never throws.
 *
 * @example
 * hintOn(Object.assign(new Error('429'), { responseHeaders: { 'retry-after-ms': '1500' } }));
 * // { value: 1500, from: 'responseHeaders' }
 */
export function hintOn(error: object): FoundHint | undefined {
  const own = read(error, 'retryAfter');
  if ((typeof own === 'number' && Number.isFinite(own)) || typeof own === 'string') {
    return { value: own, from: 'retryAfter' };
  }
  for (const [from, headers] of containers(error)) {
    if (!isObjectLike(headers)) continue;
    const value = hintInHeaders(headers);
    if (value !== undefined) return { value, from };
  }
  return undefined;
}
