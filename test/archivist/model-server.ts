import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A chat-completions request as the server receives it. */
export interface RequestBody {
  readonly model?: string;
  readonly messages: { role: string; content: string }[];
  readonly max_tokens?: number;
  readonly response_format?: { type: string };
}

/** Answers one request. */
export type Handler = (body: RequestBody, res: ServerResponse, req: IncomingMessage) => void;

const open = new Set<Server>();

/** Starts an OpenAI-protocol server on 127.0.0.1 and returns its base URL (ending in /v1). */
export async function serveModel(handler: Handler): Promise<{ baseURL: string; server: Server }> {
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    req.on('end', () => handler(JSON.parse(text || '{}'), res, req));
  });
  open.add(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server };
}

/** Closes every server started by {@link serveModel} and not closed yet (for `afterEach`). */
export function closeModelServers(): void {
  for (const server of open) {
    server.closeAllConnections();
    server.close();
  }
  open.clear();
}

/** Replies with one chat completion whose message is `content`. */
export function completion(res: ServerResponse, content: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 0,
      model: 'local',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
    }),
  );
}

/** Replies with an OpenAI-shaped error. */
export function failure(res: ServerResponse, status: number, message: string, headers = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error: { message, type: 'invalid_request_error' } }));
}

/** True for the classification request (its system prompt names the task). */
export function isClassify(body: RequestBody): boolean {
  return (body.messages[0]?.content ?? '').startsWith('Task: classify');
}

/** Answers like a model would: JSON for classification, prose naming the first shortlisted book for composition. */
export function answerLikeAModel(body: RequestBody, res: ServerResponse): void {
  const user = body.messages.at(-1)?.content ?? '';
  if (isClassify(body)) {
    completion(
      res,
      'Sure! {"intent": "find", "title": null, "author": "George Orwell", "subjects": [], "keywords": "orwell", "shorter": false, "longer": false}',
    );
    return;
  }
  const first = /^1\. "(.+?)" by (.+?) \(/m.exec(user);
  completion(res, `You will like "${first?.[1]}" by ${first?.[2]}, a classic of the catalog.`);
}
