import { afterEach, describe, expect, it } from 'vitest';
import { type RateServer, SlidingWindow, startRateServer } from '../../bench/gates/rate-server.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';

/** Sends `n` requests at once and answers their statuses, sorted, and the Retry-After of each 429. */
async function burst(url: string, n: number): Promise<{ statuses: number[]; retryAfter: string[] }> {
  const responses = await Promise.all(Array.from({ length: n }, () => fetch(`${url}/call`)));
  await Promise.all(responses.map((r) => r.text()));
  return {
    statuses: responses.map((r) => r.status).sort((a, b) => a - b),
    retryAfter: responses.filter((r) => r.status === 429).map((r) => r.headers.get('retry-after') ?? ''),
  };
}

const times = (n: number, status: number) => Array.from({ length: n }, () => status);

describe('the gates benchmark rate server', () => {
  let server: RateServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('accepts `limit` of a burst, answers the rest 429 with Retry-After, and counts every request', async () => {
    const clock = createVirtualClock();
    server = await startRateServer({ limit: 20, windowMs: 1000, retryAfterSeconds: 1, clock });
    const first = await burst(server.url, 25);
    expect(first.statuses).toEqual([...times(20, 200), ...times(5, 429)]);
    expect(first.retryAfter).toEqual(times(5, 1).map(String));
    expect(server.counts()).toEqual({ requests: 25, accepted: 20, rejected: 5 });
  });

  it('keeps the window sliding: a place frees exactly `windowMs` after the request that took it', async () => {
    const clock = createVirtualClock();
    server = await startRateServer({ limit: 3, windowMs: 1000, clock });
    expect((await burst(server.url, 2)).statuses).toEqual([200, 200]);
    await clock.advance(500);
    expect((await burst(server.url, 2)).statuses).toEqual([200, 429]);
    await clock.advance(499);
    expect((await burst(server.url, 1)).statuses).toEqual([429]);
    // At 1000 the two taken at 0 leave the window; the one taken at 500 stays.
    await clock.advance(1);
    expect((await burst(server.url, 3)).statuses).toEqual([200, 200, 429]);
    await clock.advance(500);
    expect((await burst(server.url, 2)).statuses).toEqual([200, 429]);
    expect(server.counts()).toEqual({ requests: 10, accepted: 6, rejected: 4 });
  });

  it('forgets its counts and window on reset', async () => {
    const clock = createVirtualClock();
    server = await startRateServer({ limit: 2, clock });
    await burst(server.url, 3);
    server.reset();
    expect(server.counts()).toEqual({ requests: 0, accepted: 0, rejected: 0 });
    expect((await burst(server.url, 3)).statuses).toEqual([200, 200, 429]);
  });

  it('counts a window that never holds more than its limit over a long paced stream', () => {
    const window = new SlidingWindow(20, 1000);
    // One request every 50 ms fits exactly; one every 49 ms overflows once the first 21 are within 1000 ms.
    const paced = Array.from({ length: 2000 }, (_x, i) => window.admit(i * 50));
    expect(paced.every(Boolean)).toBe(true);
    const tight = new SlidingWindow(20, 1000);
    const rushed = Array.from({ length: 2000 }, (_x, i) => tight.admit(i * 49));
    expect(rushed.filter((ok) => !ok).length).toBeGreaterThan(0);
    expect(rushed.slice(0, 20).every(Boolean)).toBe(true);
    expect(rushed[20]).toBe(false);
  });
});
