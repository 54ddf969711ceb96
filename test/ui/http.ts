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

/**
 * Reads a server-sent event stream until `enough` says so (or `timeoutMs` passes), and returns its events.
 */
export function readEvents(
  base: string,
  path: string,
  enough: (events: readonly { event: string; data: string }[]) => boolean,
  timeoutMs = 10_000,
): Promise<{ event: string; data: string }[]> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const events: { event: string; data: string }[] = [];
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
          if (enough(events)) {
            clearTimeout(timer);
            req.destroy();
            resolve(events);
          }
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve(events);
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no enough events from ${path} in ${timeoutMs} ms: ${JSON.stringify(events)}`));
    }, timeoutMs);
    req.on('error', (error) => {
      if (!req.destroyed) reject(error);
    });
    req.end();
  });
}
