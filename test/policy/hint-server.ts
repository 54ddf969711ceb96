/**
 * A local HTTP server on 127.0.0.1 that rate-limits: the first requests under a path prefix get the refusals
 * (a 429 and its headers) the test gave for that prefix, the rest a 200 with a chat completion any OpenAI-style client
 * accepts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One refusal: its status (429 unless given) and headers. */
export interface Refusal {
  readonly status?: number;
  readonly headers: Readonly<Record<string, string>>;
}

/** The refusals a prefix answers, in order; after the last, the prefix answers 200. */
export type Script = readonly Refusal[];

const COMPLETION = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 0,
  model: 'local',
  choices: [{ index: 0, message: { role: 'assistant', content: 'fine' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});

/** A started server; `script(prefix, answers)` says how requests under `/<prefix>/` are answered. */
export interface HintServer {
  readonly url: string;
  script(prefix: string, answers: Script): string;
  /** How many requests each prefix got. */
  readonly hits: Map<string, number>;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 with a port of the system's choosing. */
export async function startHintServer(): Promise<HintServer> {
  const scripts = new Map<string, Script>();
  const hits = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const prefix = (request.url ?? '/').split('/')[1] ?? '';
      const hit = hits.get(prefix) ?? 0;
      hits.set(prefix, hit + 1);
      const refusal = scripts.get(prefix)?.[hit];
      const body = refusal === undefined ? COMPLETION : JSON.stringify({ error: { message: 'slow down' } });
      response.writeHead(refusal === undefined ? 200 : (refusal.status ?? 429), {
        'content-type': 'application/json',
        ...refusal?.headers,
      });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    hits,
    script(prefix, answers) {
      scripts.set(prefix, answers);
      return `${url}/${prefix}`;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** An instant in each of RFC 9110's three HTTP-date forms. */
export function httpDates(ms: number): { imf: string; rfc850: string; asctime: string } {
  const d = new Date(ms);
  const day = WEEKDAYS[d.getUTCDay()] as string;
  const month = MONTHS[d.getUTCMonth()] as string;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const date = d.getUTCDate();
  return {
    imf: d.toUTCString(),
    rfc850: `${day}, ${pad(date)}-${month}-${pad(d.getUTCFullYear() % 100)} ${time} GMT`,
    asctime: `${day.slice(0, 3)} ${month} ${String(date).padStart(2, ' ')} ${time} ${d.getUTCFullYear()}`,
  };
}
