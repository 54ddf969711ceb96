/** Real HTTP requests to a viewer on 127.0.0.1, with the request path sent exactly as written. */
import { request } from 'node:http';

/** A response: status, headers and body text. */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

/**
 * GETs `path` from `base` (`http://127.0.0.1:port`) without normalising it: `/../` and `%2e%2e` reach the
 * server as written, as a hostile client would send them.
 */
export function get(base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** GETs `path` and parses the body as JSON. */
export async function getJson<T = Record<string, unknown>>(
  base: string,
  path: string,
): Promise<{ status: number; json: T }> {
  const answer = await get(base, path);
  return { status: answer.status, json: JSON.parse(answer.body) as T };
}

/** One server-sent event. */
export interface StreamEvent {
  readonly event: string;
  readonly data: string;
}

/** An open server-sent event stream: the events so far, and a wait for the ones a test needs. */
export interface EventStream {
  /**
   * Resolves with every event so far once `enough` says so, rejects when the stream ends first or after
   * `timeoutMs` (a bound on a wait for a condition, not a guess at how long it takes).
   */
  until(enough: (events: readonly StreamEvent[]) => boolean, timeoutMs?: number): Promise<StreamEvent[]>;
  close(): void;
}

/**
 * Opens the server-sent event stream at `path`; read it with {@link EventStream.until}.
 * @example
 * const stream = openEvents(url, '/api/documents-live');
 * await stream.until((events) => events.some((e) => e.event === 'ready'));
 */
export function openEvents(base: string, path: string): EventStream {
  const url = new URL(base);
  const events: StreamEvent[] = [];
  const waiters = new Set<() => void>();
  let ended: Error | undefined;
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };
  let buffer = '';
  const req = request(
    { host: url.hostname, port: url.port, path, headers: { accept: 'text/event-stream' } },
    (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: ?(.*)$/mu.exec(block)?.[1] ?? 'message';
          const data = [...block.matchAll(/^data: ?(.*)$/gmu)].map((m) => m[1]).join('\n');
          events.push({ event, data });
          end = buffer.indexOf('\n\n');
        }
        wake();
      });
      res.on('end', () => {
        ended = new Error(`the stream ${path} ended: ${JSON.stringify(events)}`);
        wake();
      });
    },
  );
  req.on('error', (error) => {
    ended ??= error;
    wake();
  });
  req.end();
  return {
    until(enough, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (enough(events)) {
            done();
            resolve([...events]);
          } else if (ended !== undefined) {
            done();
            reject(ended);
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(
            new Error(`not the events wanted from ${path} in ${timeoutMs} ms: ${JSON.stringify(events)}`),
          );
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close() {
      req.destroy();
    },
  };
}

/** Reads a server-sent event stream until `enough` says so, and returns its events. */
export async function readEvents(
  base: string,
  path: string,
  enough: (events: readonly StreamEvent[]) => boolean,
  timeoutMs = 20_000,
): Promise<StreamEvent[]> {
  const stream = openEvents(base, path);
  try {
    return await stream.until(enough, timeoutMs);
  } finally {
    stream.close();
  }
}
