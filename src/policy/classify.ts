/**
 * Error classification: whether an error a node threw is worth retrying, walking its `cause` / `errors`
 * chain, and the Retry-After it carries. Any thrown value is classified, however hostile.
 */
import { errorChain, type Link, lineage } from './error-chain.ts';
import { type FoundHint, hintOn } from './error-hint.ts';
import { unusableRetryAfter } from './retry-after.ts';
import { describeThrown, isObjectLike, read, readString } from './safe-read.ts';
import type { ClassificationOptions } from './types.ts';

/** What {@link classifyError} found out about an error. */
export interface ErrorClassification {
  readonly retryable: boolean;
  /** Which rule decided: `timeout`, `abort`, `http` (a status), `network` (a code), or `error` (none did). */
  readonly kind: 'timeout' | 'abort' | 'http' | 'network' | 'error';
  /** The HTTP status that decided, when one did. */
  readonly status?: number;
  /** The error code of the deciding error (or of the top error when no rule decided). */
  readonly code?: string;
  /** The top error's message. */
  readonly message: string;
  /** The deciding error's Retry-After: ms as a number (`retry-after-ms`, `retryAfter`), or a header value. */
  readonly retryAfter?: string | number;
  /** Where {@link retryAfter} was found: `retryAfter`, `responseHeaders`, `headers` or `response.headers`. */
  readonly retryAfterFrom?: string;
}

/** Codes of our own and of platforms that mean the work was deliberately aborted. */
const ABORT_CODES = new Set(['ABORT_ERR', 'E_ABORTED']);

function isAbort(error: object): boolean {
  const code = readString(error, 'code');
  return readString(error, 'name') === 'AbortError' || (code !== undefined && ABORT_CODES.has(code));
}

function explicitFlag(error: object): boolean | undefined {
  const retryable = read(error, 'retryable');
  if (typeof retryable === 'boolean') return retryable;
  const isRetryable = read(error, 'isRetryable');
  return typeof isRetryable === 'boolean' ? isRetryable : undefined;
}

/** An HTTP error status (400–599) carried as `status`, `statusCode`, `response.status` or `response.statusCode`. */
function httpStatus(error: object): number | undefined {
  const response = read(error, 'response');
  const fromResponse = isObjectLike(response) ? [read(response, 'status'), read(response, 'statusCode')] : [];
  for (const value of [read(error, 'status'), read(error, 'statusCode'), ...fromResponse]) {
    const n = typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : value;
    if (typeof n === 'number' && Number.isInteger(n) && n >= 400 && n <= 599) return n;
  }
  return undefined;
}

function isTimeout(error: object): boolean {
  return readString(error, 'name') === 'TimeoutError' || readString(error, 'code') === 'E_DEADLINE';
}

/**
 * Whether a status is retried: listed non-retryable never; listed retryable, a 5xx with `retry5xx`, or
 * listed in `retryableStatusesWithHint` when `hinted` (its response carries a usable Retry-After) yes.
 */
export function isRetryableStatus(status: number, options: ClassificationOptions, hinted = false): boolean {
  if (options.nonRetryableStatuses.includes(status)) return false;
  if (hinted && options.retryableStatusesWithHint.includes(status)) return true;
  return options.retryableStatuses.includes(status) || (options.retry5xx && status >= 500 && status <= 599);
}

/**
 * Whether a status is retried when its response carries a usable Retry-After, and only then: for an error
 * whose explicit flag says not retryable, which {@link isRetryableStatus} does not read.
 */
function retriedWithHint(status: number, options: ClassificationOptions): boolean {
  return !options.nonRetryableStatuses.includes(status) && options.retryableStatusesWithHint.includes(status);
}

/** The Retry-After that belongs to the error at `index`: its own, a holder's, or one it holds. */
function hintOf(chain: readonly Link[], index: number): FoundHint | undefined {
  for (const at of lineage(chain, index)) {
    const error = chain[at]?.error;
    const hint = error === undefined ? undefined : hintOn(error);
    if (hint !== undefined) return hint;
  }
  return undefined;
}

/**
 * Decides whether a thrown value is worth retrying, and why. Never throws, whatever was thrown: a getter or
 * Proxy trap that throws reads as an absent property.
 *
 * The chain (`cause`, and the `errors` of an AggregateError or the AI SDK's RetryError, latest first, depth
 * first, down to `maxDepth`, each error once) is searched rule by rule; the first rule that finds a decisive
 * error anywhere in it wins, and among several the latest failure decides:
 * 1. abort (`name` 'AbortError', `code` 'ABORT_ERR' or 'E_ABORTED'): never retryable;
 * 2. an explicit boolean `retryable` / `isRetryable` property (but a `false` on an error whose own status is
 *    listed in `retryableStatusesWithHint` and that carries a usable Retry-After is retried: the AI SDK
 *    flags by status alone);
 * 3. an HTTP status 400–599 (`status`, `statusCode`, `response.status`, `response.statusCode`): see
 *    {@link isRetryableStatus};
 * 4. a `code` listed in `retryableCodes` (network failures): retryable;
 * 5. a timeout (`name` 'TimeoutError', `code` 'E_DEADLINE'): retryable when `retryTimeouts`.
 * Otherwise it is not retryable, kind `error`. The Retry-After reported is the deciding error's own, else
 * one of the errors holding it (nearest first), else one it holds; never an older attempt's.
 *
 * @example
 * classifyError(Object.assign(new Error('busy'), { status: 503 }), defaultPolicy.classification);
 * // { retryable: true, kind: 'http', status: 503, message: 'busy' }
 */
export function classifyError(error: unknown, options: ClassificationOptions): ErrorClassification {
  const chain = errorChain(error, options.maxDepth);
  const message = describeThrown(error, 'unprintable error');
  const hinted = (index: number) => {
    const hint = hintOf(chain, index);
    return hint !== undefined && unusableRetryAfter(hint.value) === undefined;
  };
  const decided = (index: number, verdict: Omit<ErrorClassification, 'message' | 'code'>) => {
    const link = chain[index];
    const code = link === undefined ? undefined : readString(link.error, 'code');
    const hint = link === undefined ? undefined : hintOf(chain, index);
    return {
      message,
      ...(code === undefined ? {} : { code }),
      ...(hint === undefined ? {} : { retryAfter: hint.value, retryAfterFrom: hint.from }),
      ...verdict,
    };
  };
  const find = (test: (error: object) => boolean) => chain.findIndex((link) => test(link.error));

  const aborted = find(isAbort);
  if (aborted >= 0) return decided(aborted, { retryable: false, kind: 'abort' });

  for (const [index, { error: bag }] of chain.entries()) {
    const flag = explicitFlag(bag);
    if (flag === undefined) continue;
    const status = httpStatus(bag);
    const kind = status !== undefined ? 'http' : isTimeout(bag) ? 'timeout' : 'error';
    const retryable = flag || (status !== undefined && retriedWithHint(status, options) && hinted(index));
    return decided(index, { retryable, kind, ...(status === undefined ? {} : { status }) });
  }

  for (const [index, { error: bag }] of chain.entries()) {
    const status = httpStatus(bag);
    if (status === undefined) continue;
    const retryable = isRetryableStatus(status, options, hinted(index));
    return decided(index, { retryable, kind: 'http', status });
  }

  const network = find((bag) => {
    const code = readString(bag, 'code');
    return code !== undefined && options.retryableCodes.includes(code);
  });
  if (network >= 0) return decided(network, { retryable: true, kind: 'network' });

  const timeout = find(isTimeout);
  if (timeout >= 0) return decided(timeout, { retryable: options.retryTimeouts, kind: 'timeout' });

  return decided(0, { retryable: false, kind: 'error' });
}
