import { describe, expect, it } from 'vitest';
import { effectiveRetryAfter, parseRetryAfter, retryAfterFromHeaders } from '../../src/policy/retry-after.ts';

// Sun, 06 Nov 1994 08:49:37 GMT
const AT = Date.UTC(1994, 10, 6, 8, 49, 37);

describe('parseRetryAfter', () => {
  it('reads a number as milliseconds', () => {
    expect(parseRetryAfter(250, AT)).toBe(250);
    expect(parseRetryAfter(12.9, AT)).toBe(12);
    expect(parseRetryAfter(0, AT)).toBe(0);
  });

  it('reads a string of digits as seconds', () => {
    expect(parseRetryAfter('120', AT)).toBe(120_000);
    expect(parseRetryAfter(' 3 ', AT)).toBe(3000);
    expect(parseRetryAfter('0', AT)).toBe(0);
  });

  it('reads an IMF-fixdate as the delay from now', () => {
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', AT - 90_000)).toBe(90_000);
  });

  it('reads the obsolete RFC 850 and asctime forms as UTC', () => {
    expect(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', AT - 5000)).toBe(5000);
    expect(parseRetryAfter('Sun Nov  6 08:49:37 1994', AT - 5000)).toBe(5000);
  });

  it('turns a date in the past into 0', () => {
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', AT + 60_000)).toBe(0);
  });

  it('rejects junk, negative and non-finite values', () => {
    for (const junk of ['', 'soon', '1.5', '-3', '2024-01-01', 'Mon, 99 Foo 1994', '0x10']) {
      expect(parseRetryAfter(junk, AT), junk).toBeUndefined();
    }
    expect(parseRetryAfter(-1, AT)).toBeUndefined();
    expect(parseRetryAfter(Number.NaN, AT)).toBeUndefined();
    expect(parseRetryAfter(Number.POSITIVE_INFINITY, AT)).toBeUndefined();
  });
});

describe('retryAfterFromHeaders', () => {
  it('prefers retry-after-ms over retry-after', () => {
    expect(retryAfterFromHeaders(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), AT)).toBe(250);
    expect(retryAfterFromHeaders({ 'Retry-After-Ms': '40.7', 'Retry-After': '9' }, AT)).toBe(40);
  });

  it('falls back to retry-after seconds or date, in any header case', () => {
    expect(retryAfterFromHeaders(new Headers({ 'Retry-After': '2' }), AT)).toBe(2000);
    expect(retryAfterFromHeaders({ 'RETRY-AFTER': 'Sun, 06 Nov 1994 08:49:37 GMT' }, AT - 1000)).toBe(1000);
    expect(retryAfterFromHeaders({ 'retry-after-ms': 'nope', 'retry-after': '1' }, AT)).toBe(1000);
  });

  it('is undefined when no valid header is present', () => {
    expect(retryAfterFromHeaders(new Headers(), AT)).toBeUndefined();
    expect(retryAfterFromHeaders({ 'retry-after': undefined }, AT)).toBeUndefined();
    expect(retryAfterFromHeaders({ 'retry-after': 'later' }, AT)).toBeUndefined();
  });
});

describe('effectiveRetryAfter', () => {
  it('caps an honoured hint', () => {
    expect(effectiveRetryAfter(5000, { honour: true, capMs: 60_000 })).toBe(5000);
    expect(effectiveRetryAfter(120_000, { honour: true, capMs: 60_000 })).toBe(60_000);
  });

  it('ignores hints when honour is false or there is none', () => {
    expect(effectiveRetryAfter(5000, { honour: false, capMs: 60_000 })).toBeUndefined();
    expect(effectiveRetryAfter(undefined, { honour: true, capMs: 60_000 })).toBeUndefined();
    expect(effectiveRetryAfter(-5, { honour: true, capMs: 60_000 })).toBeUndefined();
  });
});
