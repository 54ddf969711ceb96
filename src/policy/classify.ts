/**
 * Error classification: whether an error a node threw is worth retrying, walking its `cause` / `errors`
 * chain.
 */
import { type HeaderSource, headerValue } from './retry-after.ts';
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
  /** A Retry-After found in the chain: ms as a number (`retry-after-ms`, `retryAfter`), or a header string. */
  readonly retryAfter?: string | number;
}

type Bag = Readonly<Record<string, unknown>>;

/** Codes of our own and of platforms that mean the work was deliberately aborted. */
const ABORT_CODES = new Set(['ABORT_ERR', 'E_ABORTED']);

function isObject(value: unknown): value is Bag {
  return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

function stringField(bag: Bag, key: string): string | undefined {
  const value = bag[key];
  return typeof value === 'string' ? value : undefined;
}

/** The errors of the chain in breadth-first order, each once, down to `maxDepth` levels below the top. */
function chain(error: unknown, maxDepth: number): Bag[] {
  if (!isObject(error)) return [];
  const seen = new Set<Bag>([error]);
  const out: Bag[] = [];
  let level: Bag[] = [error];
  for (let depth = 0; level.length > 0 && depth <= maxDepth; depth++) {
    out.push(...level);
    const next: Bag[] = [];
    for (const bag of level) {
      const children = [bag.cause, ...(Array.isArray(bag.errors) ? bag.errors : [])];
      for (const child of children) {
        if (isObject(child) && !seen.has(child)) {
          seen.add(child);
          next.push(child);
        }
      }
    }
    level = next;
  }
  return out;
}

function isAbort(bag: Bag): boolean {
  const code = stringField(bag, 'code');
  return stringField(bag, 'name') === 'AbortError' || (code !== undefined && ABORT_CODES.has(code));
}

function explicitFlag(bag: Bag): boolean | undefined {
  if (typeof bag.retryable === 'boolean') return bag.retryable;
  if (typeof bag.isRetryable === 'boolean') return bag.isRetryable;
  return undefined;
}

/** An HTTP error status (400–599) carried as `status`, `statusCode` or `response.status`. */
function httpStatus(bag: Bag): number | undefined {
  const response = isObject(bag.response) ? bag.response : undefined;
  for (const value of [bag.status, bag.statusCode, response?.status]) {
    const n = typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : value;
    if (typeof n === 'number' && Number.isInteger(n) && n >= 400 && n <= 599) return n;
  }
  return undefined;
}

function isTimeout(bag: Bag): boolean {
  return stringField(bag, 'name') === 'TimeoutError' || stringField(bag, 'code') === 'E_DEADLINE';
}

/** Whether a status is retried: listed non-retryable never; listed retryable or (5xx with retry5xx) yes. */
export function isRetryableStatus(status: number, options: ClassificationOptions): boolean {
  if (options.nonRetryableStatuses.includes(status)) return false;
  return options.retryableStatuses.includes(status) || (options.retry5xx && status >= 500 && status <= 599);
}

function isHeaderSource(value: unknown): value is HeaderSource {
  return isObject(value) && (typeof value.get === 'function' || !Array.isArray(value));
}

/** A Retry-After hint on one error: `retryAfter`, then `headers`, then `response.headers`. */
function retryAfterOf(bag: Bag): string | number | undefined {
  const own = bag.retryAfter;
  if ((typeof own === 'number' && Number.isFinite(own)) || typeof own === 'string') return own;
  const response = isObject(bag.response) ? bag.response : undefined;
  for (const headers of [bag.headers, response?.headers]) {
    if (!isHeaderSource(headers)) continue;
    const ms = headerValue(headers, 'retry-after-ms');
    if (ms !== undefined && /^\d+(?:\.\d+)?$/.test(ms.trim())) return Math.floor(Number(ms));
    const value = headerValue(headers, 'retry-after');
    if (value !== undefined) return value;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  if (isObject(error) && typeof error.message === 'string') return error.message;
  if (typeof error === 'string') return error;
  try {
    return String(error);
  } catch {
    return 'unprintable error';
  }
}

/**
 * Decides whether a thrown value is worth retrying, and why.
 *
 * The chain (`cause` and AggregateError `errors`, breadth-first, down to `maxDepth`, each error once) is
 * searched rule by rule; the first rule that finds a decisive error anywhere in it wins:
 * 1. abort (`name` 'AbortError', `code` 'ABORT_ERR' or 'E_ABORTED'): never retryable;
 * 2. an explicit boolean `retryable` / `isRetryable` property;
 * 3. an HTTP status 400–599 (`status`, `statusCode`, `response.status`): see {@link isRetryableStatus};
 * 4. a `code` listed in `retryableCodes` (network failures): retryable;
 * 5. a timeout (`name` 'TimeoutError', `code` 'E_DEADLINE'): retryable when `retryTimeouts`.
 * Otherwise it is not retryable, kind `error`. A Retry-After anywhere in the chain is reported.
 *
 * @example
 * classifyError(Object.assign(new Error('busy'), { status: 503 }), defaultPolicy.classification);
 * // { retryable: true, kind: 'http', status: 503, message: 'busy' }
 */
export function classifyError(error: unknown, options: ClassificationOptions): ErrorClassification {
  const errors = chain(error, options.maxDepth);
  const message = messageOf(error);
  const hint = errors.map(retryAfterOf).find((value) => value !== undefined);
  const base = hint === undefined ? { message } : { message, retryAfter: hint };
  const withCode = (bag: Bag) => {
    const code = stringField(bag, 'code');
    return code === undefined ? base : { ...base, code };
  };

  const aborted = errors.find(isAbort);
  if (aborted) return { ...withCode(aborted), retryable: false, kind: 'abort' };

  for (const bag of errors) {
    const flag = explicitFlag(bag);
    if (flag === undefined) continue;
    const status = httpStatus(bag);
    const kind = status !== undefined ? 'http' : isTimeout(bag) ? 'timeout' : 'error';
    return { ...withCode(bag), retryable: flag, kind, ...(status === undefined ? {} : { status }) };
  }

  for (const bag of errors) {
    const status = httpStatus(bag);
    if (status !== undefined) {
      return { ...withCode(bag), retryable: isRetryableStatus(status, options), kind: 'http', status };
    }
  }

  const network = errors.find((bag) => {
    const code = stringField(bag, 'code');
    return code !== undefined && options.retryableCodes.includes(code);
  });
  if (network) return { ...withCode(network), retryable: true, kind: 'network' };

  const timeout = errors.find(isTimeout);
  if (timeout) return { ...withCode(timeout), retryable: options.retryTimeouts, kind: 'timeout' };

  return { ...(isObject(error) ? withCode(error) : base), retryable: false, kind: 'error' };
}
