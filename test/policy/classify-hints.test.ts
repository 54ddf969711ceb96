import { RateLimitError } from 'openai';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/policy/classify.ts';
import { defaultClassification } from '../../src/policy/defaults.ts';
import { resolvePolicy } from '../../src/policy/resolve.ts';

const options = defaultClassification;

// Error shapes as the clients build them (fields and their types as in each client's own source), for the
// clients that are not development dependencies; test/policy/real-clients.test.ts throws the real ones.

/** The AI SDK's APICallError (@ai-sdk/provider): `statusCode`, `responseHeaders` (a record), `isRetryable`. */
class APICallErrorShape extends Error {
  override readonly name = 'AI_APICallError';
  readonly url = 'http://127.0.0.1/v1/chat/completions';
  readonly requestBodyValues = {};
  readonly isRetryable: boolean;
  constructor(
    readonly statusCode: number,
    readonly responseHeaders: Record<string, string> | undefined,
  ) {
    super(`HTTP ${statusCode}`);
    this.isRetryable = statusCode === 408 || statusCode === 409 || statusCode === 429 || statusCode >= 500;
  }
}

/** The AI SDK's RetryError (ai): every attempt's error in `errors`, oldest first, and `lastError`. */
class RetryErrorShape extends Error {
  override readonly name = 'AI_RetryError';
  readonly reason = 'maxRetriesExceeded';
  readonly lastError: unknown;
  constructor(readonly errors: unknown[]) {
    super(`Failed after ${errors.length} attempts.`);
    this.lastError = errors.at(-1);
  }
}

/** axios's AxiosHeaders: names kept as written, `get` in any case. */
class AxiosHeadersShape {
  [name: string]: unknown;
  constructor(values: Record<string, string>) {
    Object.assign(this, values);
  }
  get(name: string): string | undefined {
    const key = Object.keys(this).find((k) => k.toLowerCase() === name.toLowerCase());
    return key === undefined ? undefined : (this[key] as string);
  }
}

const aiSdk = (headers: Record<string, string>, status = 429) => new APICallErrorShape(status, headers);

describe('classifyError finds the Retry-After where each client puts it', () => {
  const cases: [string, () => unknown, string | number][] = [
    ['the AI SDK (responseHeaders, retry-after-ms)', () => aiSdk({ 'retry-after-ms': '1500' }), 1500],
    ['the AI SDK (responseHeaders, retry-after)', () => aiSdk({ 'retry-after': '2' }), '2'],
    [
      'the openai SDK (headers, a Headers)',
      () =>
        new RateLimitError(
          429,
          { message: 'slow down' },
          undefined,
          new Headers({ 'retry-after-ms': '250' }),
        ),
      250,
    ],
    [
      'ky (response, a fetch Response)',
      () =>
        Object.assign(new Error('Request failed with status code 429'), {
          name: 'HTTPError',
          response: new Response(null, { status: 429, headers: { 'Retry-After': '3' } }),
        }),
      '3',
    ],
    [
      'got (response.statusCode, IncomingHttpHeaders)',
      () =>
        Object.assign(new Error('Response code 429 (Too Many Requests)'), {
          name: 'HTTPError',
          code: 'ERR_NON_2XX_3XX_RESPONSE',
          response: { statusCode: 429, headers: { 'retry-after': '4' } },
        }),
      '4',
    ],
    [
      'axios (response.headers, an AxiosHeaders)',
      () =>
        Object.assign(new Error('Request failed with status code 429'), {
          name: 'AxiosError',
          code: 'ERR_BAD_REQUEST',
          status: 429,
          response: { status: 429, headers: new AxiosHeadersShape({ 'Retry-After': '5' }) },
        }),
      '5',
    ],
    [
      "undici's ResponseStatusCodeError (headers, a record with lists)",
      () =>
        Object.assign(new Error('Response status code 429: Too Many Requests'), {
          name: 'ResponseStatusCodeError',
          code: 'UND_ERR_RESPONSE_STATUS_CODE',
          status: 429,
          statusCode: 429,
          headers: { 'retry-after': ['6'] },
        }),
      '6',
    ],
    [
      'a fetch Response thrown as it is',
      () => new Response(null, { status: 429, headers: { 'retry-after': '7' } }),
      '7',
    ],
    [
      'a Map, names in any case',
      () => Object.assign(new Error('429'), { status: 429, headers: new Map([['Retry-After-Ms', '800']]) }),
      800,
    ],
    [
      'a list of [name, value] pairs',
      () => Object.assign(new Error('429'), { status: 429, headers: [['RETRY-AFTER', '9']] }),
      '9',
    ],
    [
      'a plain record as headers',
      () => Object.assign(new Error('429'), { status: 429, headers: { 'Retry-After': 10 } }),
      '10',
    ],
  ];

  it.each(cases)('%s', (_name, make, hint) => {
    expect(classifyError(make(), options)).toMatchObject({ retryable: true, status: 429, retryAfter: hint });
  });

  it('through a cause: a wrapper of the AI SDK error gets its hint', () => {
    const error = new Error('generate failed', { cause: aiSdk({ 'retry-after-ms': '1500' }) });
    expect(classifyError(error, options)).toMatchObject({
      status: 429,
      retryAfter: 1500,
      retryAfterFrom: 'responseHeaders',
    });
  });

  it('from a holder: the response headers of a wrapper apply to the status of its cause', () => {
    const error = Object.assign(new Error('outer'), {
      headers: { 'retry-after': '3' },
      cause: Object.assign(new Error('inner'), { status: 429 }),
    });
    expect(classifyError(error, options)).toMatchObject({ status: 429, retryAfter: '3' });
  });

  it('passes a malformed retry-after-ms over for retry-after, and reports it when it is alone', () => {
    expect(classifyError(aiSdk({ 'retry-after-ms': 'abc', 'retry-after': '2' }), options).retryAfter).toBe(
      '2',
    );
    expect(classifyError(aiSdk({ 'retry-after-ms': 'abc' }), options).retryAfter).toBe('abc');
    expect('retryAfter' in classifyError(aiSdk({ 'retry-after': '  ' }), options)).toBe(false);
  });
});

describe('classifyError: the latest error of a retry chain decides', () => {
  it("the AI SDK's RetryError: the latest attempt's status, flag and hint", () => {
    const error = new RetryErrorShape([aiSdk({ 'retry-after': '30' }), aiSdk({ 'retry-after-ms': '1500' })]);
    expect(classifyError(error, options)).toMatchObject({ retryable: true, status: 429, retryAfter: 1500 });
    const gaveUp = new RetryErrorShape([aiSdk({ 'retry-after': '1' }), aiSdk({}, 400)]);
    expect(classifyError(gaveUp, options)).toMatchObject({ retryable: false, status: 400 });
    const recovered = new RetryErrorShape([aiSdk({}, 400), aiSdk({ 'retry-after': '2' })]);
    expect(classifyError(recovered, options)).toMatchObject({
      retryable: true,
      status: 429,
      retryAfter: '2',
    });
  });

  it('an AggregateError: the last error, and never an older attempt’s hint', () => {
    const older = Object.assign(new Error('a'), { status: 429, headers: { 'retry-after': '30' } });
    const latest = Object.assign(new Error('b'), { status: 503 });
    const result = classifyError(new AggregateError([older, latest], 'all failed'), options);
    expect(result).toMatchObject({ retryable: true, status: 503 });
    expect('retryAfter' in result).toBe(false);
  });

  it('the latest attempt’s cause is met before an older attempt', () => {
    const older = Object.assign(new Error('a'), { status: 400 });
    const latest = new Error('b', { cause: Object.assign(new Error('c'), { status: 503 }) });
    expect(classifyError(new AggregateError([older, latest]), options)).toMatchObject({ status: 503 });
  });
});

describe('classifyError: statuses retried only with a hint (413)', () => {
  const tooLarge = (headers: Record<string, string>) =>
    Object.assign(new Error('HTTP 413'), { status: 413, headers });

  it('retries a 413 whose response carries a usable Retry-After, and no other 413', () => {
    expect(classifyError(tooLarge({ 'retry-after': '5' }), options)).toMatchObject({
      retryable: true,
      kind: 'http',
      status: 413,
      retryAfter: '5',
    });
    expect(classifyError(tooLarge({}), options)).toMatchObject({ retryable: false, status: 413 });
    expect(classifyError(tooLarge({ 'retry-after': 'Later, 2030' }), options)).toMatchObject({
      retryable: false,
      status: 413,
      retryAfter: 'Later, 2030',
    });
  });

  it("retries the AI SDK's 413 with a hint, which it flags not retryable by its status alone", () => {
    expect(classifyError(aiSdk({ 'retry-after': '5' }, 413), options)).toMatchObject({
      retryable: true,
      status: 413,
    });
    expect(classifyError(aiSdk({}, 413), options)).toMatchObject({ retryable: false, status: 413 });
    // Listed as never retried, it is not, hint or not.
    const never = { ...options, nonRetryableStatuses: [413] };
    expect(classifyError(aiSdk({ 'retry-after': '5' }, 413), never)).toMatchObject({ retryable: false });
  });

  it('follows the policy: an empty list, or 413 listed as never retried, turns it off', () => {
    const off = { ...options, retryableStatusesWithHint: [] };
    expect(classifyError(tooLarge({ 'retry-after': '5' }), off)).toMatchObject({ retryable: false });
    const never = { ...options, nonRetryableStatuses: [413] };
    expect(classifyError(tooLarge({ 'retry-after': '5' }), never)).toMatchObject({ retryable: false });
    const other = resolvePolicy({ classification: { retryableStatusesWithHint: [403] } }).classification;
    const forbidden = Object.assign(new Error('HTTP 403'), { status: 403, headers: { 'retry-after': '1' } });
    expect(classifyError(forbidden, { ...other, nonRetryableStatuses: [] })).toMatchObject({
      retryable: true,
    });
    expect(classifyError(tooLarge({ 'retry-after': '5' }), other)).toMatchObject({ retryable: false });
  });

  it('keeps an explicit retryable:false on a status retried anyway (503) even with a hint', () => {
    const error = Object.assign(new Error('x'), {
      status: 503,
      retryable: false,
      headers: { 'retry-after': '1' },
    });
    expect(classifyError(error, options)).toMatchObject({ retryable: false, status: 503 });
  });

  it('is a policy field, checked like the others', () => {
    expect(resolvePolicy({}).classification.retryableStatusesWithHint).toEqual([413]);
    expect(() => resolvePolicy({ classification: { retryableStatusesWithHint: [99] } })).toThrow(
      expect.objectContaining({ code: 'E_POLICY' }),
    );
  });
});
