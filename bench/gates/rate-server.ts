/**
 * A rate-limited HTTP service on 127.0.0.1 for the gates benchmark (bench/gates.bench.ts): it accepts at
 * most `limit` requests in any `windowMs` (a sliding window over the times of the requests it accepted),
 * answers the rest `429 Too Many Requests` with `Retry-After` in whole seconds, and counts every request.
 * It reads time from an injected clock, so that a test can drive the window with a virtual one.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock } from '../../src/policy/clock.ts';
import type { Clock } from '../../src/policy/types.ts';

/** How the service limits; every field has a default. */
export interface RateServerOptions {
  /** Requests accepted in any window; default 20. */
  readonly limit?: number;
  /** The sliding window, ms; default 1000. */
  readonly windowMs?: number;
  /** The `Retry-After` of a 429, seconds; default 1. */
  readonly retryAfterSeconds?: number;
  /** Time for the window (its `now`); default the system's monotonic clock. */
  readonly clock?: Pick<Clock, 'now'>;
}

/** What the service answered so far. */
export interface RateServerCounts {
  /** Every request it received. */
  readonly requests: number;
  /** Answered 200. */
  readonly accepted: number;
  /** Answered 429. */
  readonly rejected: number;
}

/** A running service. */
export interface RateServer {
  /** Its base URL, `http://127.0.0.1:<port>`. */
  readonly url: string;
  counts(): RateServerCounts;
  /** Zeroes the counts and forgets the window, for the next measurement on the same server. */
  reset(): void;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/**
 * The accepted requests' times within the window, oldest first: a request at `now` is accepted when fewer
 * than `limit` were accepted in `(now - windowMs, now]`.
 */
export class SlidingWindow {
  private times: number[] = [];
  private head = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Accepts a request at `now` (and records it) when the window has room; false when it is full. */
  admit(now: number): boolean {
    while (this.head < this.times.length && (this.times[this.head] as number) <= now - this.windowMs) {
      this.head++;
    }
    if (this.head > 1024) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
    if (this.times.length - this.head >= this.limit) return false;
    this.times.push(now);
    return true;
  }

  clear(): void {
    this.times = [];
    this.head = 0;
  }
}

function answer(response: ServerResponse, status: number, body: unknown, headers = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/**
 * Starts the service on a free port of 127.0.0.1. Every request, whatever its method and path, is counted
 * and answered 200 `{"ok":true}` or 429 `{"error":"rate limited"}` with `Retry-After`.
 * @example
 * const server = await startRateServer({ limit: 20, windowMs: 1000 });
 * await fetch(`${server.url}/call`); // 200, then 429 past 20 in a second
 * await server.close();
 */
export async function startRateServer(options: RateServerOptions = {}): Promise<RateServer> {
  const clock = options.clock ?? systemClock;
  const retryAfter = String(options.retryAfterSeconds ?? 1);
  const window = new SlidingWindow(options.limit ?? 20, options.windowMs ?? 1000);
  let counts = { requests: 0, accepted: 0, rejected: 0 };
  const server = createServer((request, response) => {
    // The decision is taken as the request arrives, before its body is read: a body changes nothing.
    counts.requests++;
    if (window.admit(clock.now())) {
      counts.accepted++;
      answer(response, 200, { ok: true });
    } else {
      counts.rejected++;
      answer(response, 429, { error: 'rate limited' }, { 'retry-after': retryAfter });
    }
    request.resume();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts: () => ({ ...counts }),
    reset() {
      counts = { requests: 0, accepted: 0, rejected: 0 };
      window.clear();
    },
    async close() {
      const closed = once(server, 'close');
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}
