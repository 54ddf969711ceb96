import { describe, expect, it } from 'vitest';
import { SwitchyardError } from '../../src/errors.ts';
import { classifyError, isRetryableStatus } from '../../src/policy/classify.ts';
import { defaultClassification } from '../../src/policy/defaults.ts';
import type { ClassificationOptions } from '../../src/policy/types.ts';

const options = defaultClassification;

function withProps(message: string, props: Record<string, unknown>): Error {
  return Object.assign(new Error(message), props);
}

describe('classifyError: HTTP statuses', () => {
  const table: [number, boolean][] = [
    [408, true],
    [409, true],
    [425, true],
    [429, true],
    [500, true],
    [502, true],
    [503, true],
    [504, true],
    [599, true],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [422, false],
    [418, false],
  ];
  it.each(table)('status %i → retryable %s', (status, retryable) => {
    expect(classifyError(withProps('http', { status }), options)).toMatchObject({
      retryable,
      kind: 'http',
      status,
    });
  });

  it('reads statusCode and response.status too', () => {
    expect(classifyError(withProps('x', { statusCode: 503 }), options)).toMatchObject({
      retryable: true,
      status: 503,
    });
    expect(classifyError(withProps('x', { response: { status: 404 } }), options)).toMatchObject({
      retryable: false,
      status: 404,
    });
  });

  it('follows retry5xx and the non-retryable list', () => {
    const no5xx: ClassificationOptions = { ...options, retry5xx: false };
    expect(isRetryableStatus(503, no5xx)).toBe(false);
    const listed: ClassificationOptions = {
      ...options,
      nonRetryableStatuses: [501],
      retryableStatuses: [501, 429],
    };
    expect(isRetryableStatus(501, listed)).toBe(false);
    expect(isRetryableStatus(429, listed)).toBe(true);
  });
});

describe('classifyError: network codes and timeouts', () => {
  const codes = [
    'ECONNRESET',
    'ECONNREFUSED',
    'ETIMEDOUT',
    'EPIPE',
    'ENOTFOUND',
    'EAI_AGAIN',
    'ENETUNREACH',
    'EHOSTUNREACH',
    'UND_ERR_SOCKET',
    'UND_ERR_CONNECT_TIMEOUT',
  ];
  it.each(codes)('code %s is retryable', (code) => {
    expect(classifyError(withProps('net', { code }), options)).toMatchObject({
      retryable: true,
      kind: 'network',
      code,
    });
  });

  it('does not retry unknown codes', () => {
    expect(classifyError(withProps('x', { code: 'ERR_INVALID_ARG_TYPE' }), options)).toMatchObject({
      retryable: false,
      kind: 'error',
      code: 'ERR_INVALID_ARG_TYPE',
    });
  });

  it('retries timeouts only when retryTimeouts', () => {
    const timeout = new DOMException('timed out', 'TimeoutError');
    const deadline = new SwitchyardError('E_DEADLINE', 'compose took longer than 30000 ms');
    expect(classifyError(timeout, options)).toMatchObject({ retryable: true, kind: 'timeout' });
    expect(classifyError(deadline, options)).toMatchObject({
      retryable: true,
      kind: 'timeout',
      code: 'E_DEADLINE',
    });
    expect(classifyError(deadline, { ...options, retryTimeouts: false })).toMatchObject({
      retryable: false,
      kind: 'timeout',
    });
  });

  it('does not retry a plain error or a thrown non-error', () => {
    expect(classifyError(new Error('boom'), options)).toEqual({
      retryable: false,
      kind: 'error',
      message: 'boom',
    });
    expect(classifyError('just a string', options)).toEqual({
      retryable: false,
      kind: 'error',
      message: 'just a string',
    });
    expect(classifyError(undefined, options)).toMatchObject({ retryable: false, message: 'undefined' });
  });
});

describe('classifyError: chains and precedence', () => {
  it('finds a status nested three causes deep', () => {
    const inner = withProps('rate limited', { status: 429 });
    const error = new Error('outer', {
      cause: new Error('middle', { cause: new Error('deeper', { cause: inner }) }),
    });
    expect(classifyError(error, options)).toMatchObject({
      retryable: true,
      kind: 'http',
      status: 429,
      message: 'outer',
    });
  });

  it('stops at maxDepth', () => {
    const inner = withProps('rate limited', { status: 429 });
    const error = new Error('outer', { cause: new Error('middle', { cause: inner }) });
    expect(classifyError(error, { ...options, maxDepth: 1 })).toMatchObject({
      retryable: false,
      kind: 'error',
    });
    expect(classifyError(error, { ...options, maxDepth: 2 })).toMatchObject({ retryable: true, status: 429 });
  });

  it('walks AggregateError errors', () => {
    const error = new AggregateError([new Error('a'), withProps('b', { code: 'ECONNRESET' })], 'all failed');
    expect(classifyError(error, options)).toMatchObject({
      retryable: true,
      kind: 'network',
      code: 'ECONNRESET',
    });
  });

  it('never retries when an abort is anywhere in the chain', () => {
    const abort = new DOMException('aborted', 'AbortError');
    const error = withProps('request failed', { status: 503, cause: abort });
    expect(classifyError(error, options)).toMatchObject({ retryable: false, kind: 'abort' });
    expect(classifyError(withProps('x', { code: 'ABORT_ERR' }), options)).toMatchObject({ kind: 'abort' });
    const flagged = withProps('x', { retryable: true, cause: withProps('y', { name: 'AbortError' }) });
    expect(classifyError(flagged, options)).toMatchObject({ retryable: false, kind: 'abort' });
  });

  it('lets an explicit retryable:false beat a 503, and isRetryable:true beat a 400', () => {
    expect(classifyError(withProps('x', { status: 503, retryable: false }), options)).toMatchObject({
      retryable: false,
      kind: 'http',
      status: 503,
    });
    const nested = withProps('outer', { status: 400, cause: withProps('inner', { isRetryable: true }) });
    expect(classifyError(nested, options)).toMatchObject({ retryable: true, kind: 'error' });
  });

  it('prefers a status over a code, and a code over a timeout', () => {
    const statusAndCode = withProps('x', { code: 'ECONNRESET', cause: withProps('y', { status: 404 }) });
    expect(classifyError(statusAndCode, options)).toMatchObject({
      retryable: false,
      kind: 'http',
      status: 404,
    });
    const codeAndTimeout = withProps('x', { name: 'TimeoutError', cause: withProps('y', { code: 'EPIPE' }) });
    expect(classifyError(codeAndTimeout, { ...options, retryTimeouts: false })).toMatchObject({
      retryable: true,
      kind: 'network',
    });
  });

  it('terminates on cycles in the cause chain', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(classifyError(a, { ...options, maxDepth: 1000 })).toMatchObject({
      retryable: false,
      kind: 'error',
    });
    const self = withProps('self', {});
    (self as { errors?: unknown }).errors = [self, self];
    expect(classifyError(self, options).kind).toBe('error');
  });
});

describe('classifyError: Retry-After', () => {
  it('picks up a retryAfter property', () => {
    expect(classifyError(withProps('x', { status: 429, retryAfter: 1500 }), options).retryAfter).toBe(1500);
  });

  it('reads headers and response.headers, retry-after-ms first', () => {
    const headers = new Headers({ 'retry-after-ms': '250', 'retry-after': '5' });
    expect(classifyError(withProps('x', { status: 429, headers }), options).retryAfter).toBe(250);
    const response = {
      status: 503,
      headers: new Headers({ 'retry-after': 'Sun, 06 Nov 1994 08:49:37 GMT' }),
    };
    expect(classifyError(withProps('x', { response }), options).retryAfter).toBe(
      'Sun, 06 Nov 1994 08:49:37 GMT',
    );
    expect(classifyError(withProps('x', { headers: { 'Retry-After': '3' } }), options).retryAfter).toBe('3');
  });

  it('finds the hint on a nested cause and leaves it out when absent', () => {
    const error = new Error('outer', {
      cause: withProps('inner', { status: 429, headers: { 'retry-after': '7' } }),
    });
    expect(classifyError(error, options).retryAfter).toBe('7');
    expect('retryAfter' in classifyError(withProps('x', { status: 429 }), options)).toBe(false);
  });
});
