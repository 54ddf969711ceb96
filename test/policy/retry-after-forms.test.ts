import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { parseHttpDate } from '../../src/policy/http-date.ts';
import { parseRetryAfter, unusableRetryAfter } from '../../src/policy/retry-after.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { recorder } from '../runtime/helpers.ts';
import { httpDates } from './hint-server.ts';

// Sun, 06 Nov 1994 08:49:37 GMT, RFC 9110's example instant.
const AT = Date.UTC(1994, 10, 6, 8, 49, 37);

/** [value, wall clock now, delay in ms]: the forms RFC 9110 defines, each read exactly. */
const FORMS: [string, number, number][] = [
  ['120', AT, 120_000],
  ['0', AT, 0],
  ['  7\t', AT, 7000],
  ['Sun, 06 Nov 1994 08:49:37 GMT', AT - 90_000, 90_000],
  ['Sunday, 06-Nov-94 08:49:37 GMT', AT - 90_000, 90_000],
  ['Sun Nov  6 08:49:37 1994', AT - 90_000, 90_000],
  ['Sun Nov 16 08:49:37 1994', AT - 90_000, 10 * 86_400_000 + 90_000],
  ['Sun, 06 Nov 1994 08:49:37 GMT', AT + 60_000, 0],
  // A leap second is the second after 23:59:59.
  ['Sat, 31 Dec 2016 23:59:60 GMT', Date.UTC(2016, 11, 31, 23, 59, 0), 60_000],
  ['Tue, 29 Feb 2000 00:00:00 GMT', Date.UTC(2000, 1, 28), 86_400_000],
  // An RFC 850 year more than 50 years ahead is in the past century; one up to 50 years ahead is not.
  ['Wednesday, 01-Jan-70 00:00:00 GMT', Date.UTC(2025, 5, 1), Date.UTC(2070, 0, 1) - Date.UTC(2025, 5, 1)],
  ['Tuesday, 01-Jan-80 00:00:00 GMT', Date.UTC(2025, 5, 1), 0],
  ['Wednesday, 01-Jan-10 00:00:00 GMT', Date.UTC(2090, 0, 1), Date.UTC(2110, 0, 1) - Date.UTC(2090, 0, 1)],
];

/** Values that look like a hint but are none of RFC 9110's forms, and why. */
const NEAR_MISSES: [string, string][] = [
  ['Sun Nov 06 1994 08:49:37 GMT', "JavaScript's Date#toString form"],
  ['Jan 1 2030', 'a month and a year'],
  ['Later, 2030', 'a word and a year'],
  ['Soon 5', 'a word and a number'],
  ['1994-11-06T08:49:37Z', 'ISO 8601'],
  ['sun, 06 Nov 1994 08:49:37 GMT', 'a weekday in lower case'],
  ['Sun, 06 nov 1994 08:49:37 GMT', 'a month in lower case'],
  ['Sun, 06 Nov 1994 08:49:37 gmt', 'gmt in lower case'],
  ['Sun, 6 Nov 1994 08:49:37 GMT', 'a one-digit day'],
  ['Sun, 06 Nov 94 08:49:37 GMT', 'a two-digit year in an IMF-fixdate'],
  ['Sun, 06 Nov 1994 08:49:37 UTC', 'UTC for GMT'],
  ['Sun, 06 Nov 1994 08:49:37 +0000', 'a numeric zone'],
  ['Sun, 06 Nov 1994 08:49:37', 'no zone'],
  ['Sun,  06 Nov 1994 08:49:37 GMT', 'two spaces'],
  ['Sun 06 Nov 1994 08:49:37 GMT', 'no comma'],
  ['Sunday, 06 Nov 1994 08:49:37 GMT', 'a long weekday in an IMF-fixdate'],
  ['Sun, 31 Nov 1994 08:49:37 GMT', 'a 31 November'],
  ['Tue, 29 Feb 1994 08:49:37 GMT', 'a 29 February of a common year'],
  ['Sun, 06 Nov 1994 24:00:00 GMT', 'hour 24'],
  ['Sun, 06 Nov 1994 08:60:00 GMT', 'minute 60'],
  ['Sun, 06 Nov 1994 08:49:61 GMT', 'second 61'],
  ['Sun, 06 Nov 1994 8:49:37 GMT', 'a one-digit hour'],
  ['Sun, 06-Nov-94 08:49:37 GMT', 'a short weekday in an RFC 850 date'],
  ['Sunday, 06-Nov-1994 08:49:37 GMT', 'a four-digit year in an RFC 850 date'],
  ['Sun Nov 6 08:49:37 1994', 'an asctime day without its padding'],
  ['Sun Nov  6 08:49:37 1994 GMT', 'an asctime date with a zone'],
  ['1.5', 'fractional seconds'],
  ['-3', 'negative seconds'],
  ['+3', 'a signed number'],
  ['1e3', 'an exponent'],
  ['0x10', 'hexadecimal'],
  ['soon', 'a word'],
];

describe('parseRetryAfter: the forms of RFC 9110', () => {
  it.each(FORMS)('%j at %i is %i ms', (value, now, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
    expect(unusableRetryAfter(value)).toBeUndefined();
  });

  it('reads more seconds than a double holds as a very long delay (the cap cuts it)', () => {
    expect(parseRetryAfter('9'.repeat(400), AT)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it.each(NEAR_MISSES)('%j (%s) is no hint', (value) => {
    expect(parseRetryAfter(value, AT)).toBeUndefined();
    expect(unusableRetryAfter(value)).toMatch(/is neither whole seconds nor an HTTP-date/);
  });

  it('reads any instant back from each of the three forms, to the second', () => {
    const instants = fc.integer({ min: 0, max: Date.UTC(9999, 11, 31, 23, 59, 59) });
    fc.assert(
      fc.property(instants, fc.integer({ min: -50, max: 49 }), (at, yearsOff) => {
        const second = Math.floor(at / 1000) * 1000;
        const { imf, rfc850, asctime } = httpDates(second);
        expect(parseHttpDate(imf, 0)).toBe(second);
        expect(parseHttpDate(asctime, 0)).toBe(second);
        // An RFC 850 date names its instant when read within 50 years of it.
        const now = new Date(second);
        now.setUTCFullYear(now.getUTCFullYear() + yearsOff);
        expect(parseHttpDate(rfc850, now.getTime())).toBe(second);
      }),
      { numRuns: 500 },
    );
  });

  it('is no hint for an empty value', () => {
    expect(parseRetryAfter('', AT)).toBeUndefined();
    expect(parseRetryAfter('  ', AT)).toBeUndefined();
  });
});

describe('a 429 whose retry-after is a near miss: no hint, a warning, the back-off used', () => {
  const flow = dag('urn:test:near-miss', { name: 'near miss', version: '1' })
    .budget('again', 1)
    .entry('work')
    .task('work', 'urn:test:limited')
    .route('ok', 'done')
    .retry('retry', 'work', { budget: 'again', exhausted: 'gave_up' })
    .terminal('done', 'completed')
    .terminal('gave_up', 'failed')
    .build();

  /** Runs a node that answers 429 with `retryAfter` once, then succeeds; the events of the run. */
  async function runWith(retryAfter: string, wallStart: number) {
    const limited = defineNode({
      id: 'urn:test:limited',
      outputs: ['ok'],
      run: (_item, ctx) => {
        if (ctx.visit > 1) return 'ok';
        throw Object.assign(new Error('HTTP 429'), { status: 429, headers: { 'retry-after': retryAfter } });
      },
    });
    const rec = recorder();
    const result = await createDispatcher({
      nodes: [limited],
      clock: createVirtualClock({ auto: true, wallStart }),
      policy: { defaults: { backoff: { strategy: 'constant', baseMs: 7 }, jitter: 'none' } },
    }).run(flow, {}, { onEvent: rec.onEvent });
    expect(result.items).toMatchObject([{ terminal: 'done' }]);
    return rec;
  }

  it.each(NEAR_MISSES)('%j (%s)', async (value) => {
    const rec = await runWith(value, AT);
    expect(rec.of('retry.scheduled')).toMatchObject([{ delayMs: 7, delaySource: 'backoff' }]);
    const warnings = rec.of('warning');
    expect(warnings).toMatchObject([{ code: 'W_RETRY_AFTER_IGNORED', placement: 'work' }]);
    expect(warnings[0]?.message).toContain('whose headers hold a Retry-After');
  });

  it.each(FORMS.filter(([, , ms]) => ms <= 60_000))(
    '%j at %i waits %i ms, no warning',
    async (value, now, ms) => {
      const rec = await runWith(value, now);
      expect(rec.of('retry.scheduled')).toMatchObject([{ delayMs: ms }]);
      expect(rec.of('warning')).toEqual([]);
    },
  );
});
