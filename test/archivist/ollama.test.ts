import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { closeModelServers, isClassify, type RequestBody, serveModel } from './model-server.ts';
import { runMain } from './run-main.ts';

afterEach(closeModelServers);

/** An Ollama `/api/chat` request as the server receives it. */
interface OllamaBody extends RequestBody {
  readonly format?: string;
  readonly options?: { num_predict?: number };
}

function chatReply(res: ServerResponse, content: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      model: 'local',
      created_at: '2026-01-01T00:00:00Z',
      message: { role: 'assistant', content },
      done: true,
    }),
  );
}

const NO_DEADLINES = { defaults: { jitter: 'none' as const } };

describe('archivist with an Ollama-protocol server on 127.0.0.1', () => {
  it('asks with num_predict, and format "json" for the classification only', async () => {
    const bodies: OllamaBody[] = [];
    const { baseURL } = await serveModel((body, res) => {
      bodies.push(body);
      if (isClassify(body)) {
        chatReply(
          res,
          '{"intent": "find", "title": null, "author": "George Orwell", "subjects": [], "keywords": "orwell"}',
        );
        return;
      }
      const first = /^1\. "(.+?)" by (.+?) \(/m.exec(body.messages.at(-1)?.content ?? '');
      chatReply(res, `Read "${first?.[1]}" by ${first?.[2]}.`);
    });
    const host = baseURL.replace(/\/v1$/, '');
    const run = await runMain(
      [
        'ask',
        '--llm',
        'ollama',
        '--base-url',
        host,
        '--model',
        'local',
        '--max-tokens',
        '300',
        '--json',
        'books by George Orwell',
      ],
      { policy: NO_DEADLINES },
    );
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out)).toMatchObject({ source: 'model', classifiedBy: 'model' });
    expect(bodies.map((b) => [isClassify(b), b.options?.num_predict, b.format])).toEqual([
      [true, 300, 'json'],
      [false, 300, undefined],
    ]);
  });

  it('an unknown model (404) is one warning line saying to pull it; the catalog answers; exit 3', async () => {
    let calls = 0;
    const { baseURL } = await serveModel((_body, res) => {
      calls += 1;
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: "model 'nope' not found, try pulling it first" }));
    });
    const host = baseURL.replace(/\/v1$/, '');
    const run = await runMain(
      ['ask', '--llm', 'ollama', '--base-url', host, '--model', 'nope', 'books by George Orwell'],
      {
        policy: NO_DEADLINES,
      },
    );
    expect(run.code).toBe(3);
    expect(run.err).toBe(
      `archivist: Ollama at ${host} answered HTTP 404: it has no model 'nope'; run \`ollama pull nope\` or pass --model (answers come from the catalog without the model)\n`,
    );
    expect(run.out).toContain('George Orwell');
    expect(calls).toBe(1);
  });
});
