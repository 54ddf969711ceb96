import { mkdtempSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RetryScheduledEvent, RunEvent } from '../../src/runtime/events.ts';
import { answerLikeAModel, closeModelServers, type Handler, serveModel } from './model-server.ts';
import { runMain } from './run-main.ts';

let server: Server | undefined;
afterEach(closeModelServers);

async function serve(handler: Handler): Promise<string> {
  const started = await serveModel(handler);
  server = started.server;
  return started.baseURL;
}

const NO_DEADLINES = { defaults: { jitter: 'none' as const } };

describe('archivist with an OpenAI-compatible endpoint on 127.0.0.1', () => {
  it('waits the Retry-After of a 429 on the clock, then answers', async () => {
    let calls = 0;
    const baseURL = await serve((body, res) => {
      calls += 1;
      if (calls === 1) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end(JSON.stringify({ error: { message: 'rate limited', type: 'rate_limit_exceeded' } }));
        return;
      }
      answerLikeAModel(body, res);
    });
    const file = join(mkdtempSync(join(tmpdir(), 'archivist-')), 'run.jsonl');
    // Deadlines off: the virtual clock cannot see real I/O, and would jump to a pending deadline.
    const run = await runMain(
      [
        'ask',
        '--llm',
        'openai',
        '--base-url',
        baseURL,
        '--model',
        'local',
        '--json',
        '--events',
        file,
        'books by George Orwell',
      ],
      { env: { OPENAI_API_KEY: 'test-key' }, policy: NO_DEADLINES },
    );
    // The wait is told on standard error, where a terminal shows it.
    expect(run.err).toBe('archivist: rate-limited by openai, retrying in 1 s\n');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.out);
    expect(result).toMatchObject({ source: 'model', classifiedBy: 'model', model: 'openai:local' });
    expect(result.answer).toMatch(/^You will like "[^"]+" by George Orwell/);
    const events = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as RunEvent);
    const retry = events.find((e): e is RetryScheduledEvent => e.type === 'retry.scheduled');
    expect(retry).toMatchObject({ from: 'classify', delayMs: 1000, delaySource: 'retry-after' });
    const next = events.find(
      (e) => e.type === 'placement.start' && e.placement === 'classify' && e.visit === 2,
    );
    expect((next?.time ?? 0) - (retry?.time ?? 0)).toBe(1000);
    expect(calls).toBe(3);
  });

  it('a hanging server: the deadline fires, the retry route is taken, then salvage answers', async () => {
    let calls = 0;
    const baseURL = await serve(() => {
      calls += 1;
    });
    const run = await runMain(
      ['ask', '--llm', 'openai', '--base-url', baseURL, '--trace', 'books by George Orwell'],
      { env: { OPENAI_API_KEY: 'test-key' } },
    );
    expect(run.code).toBe(0);
    expect(run.err).toMatch(
      /✗ classify failed: placement 'classify' did not finish within its 20000 ms deadline/,
    );
    expect(run.err).toContain('↻ retry classify → classify');
    expect(run.err).toContain('⚑ salvage classify → classify-rules');
    expect(run.err).toMatch(
      /✗ compose failed: placement 'compose' did not finish within its 60000 ms deadline/,
    );
    expect(run.err).toContain('↻ retry compose → compose');
    expect(run.err).toContain('⚑ salvage compose → salvage');
    expect(run.out).toContain('"Animal Farm" by George Orwell');
    expect(calls).toBe(6);
  });

  it('an unreachable endpoint is one clear line and a non-zero exit', async () => {
    const baseURL = await serve(() => undefined);
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = undefined;
    const run = await runMain(['ask', '--llm', 'openai', '--base-url', baseURL, 'hi'], {
      env: { OPENAI_API_KEY: 'k' },
    });
    expect(run.code).not.toBe(0);
    expect(run.err).toBe(
      `archivist: cannot reach the chat-completions endpoint at ${baseURL}: check --base-url and that the server is running (E_USAGE)\n`,
    );
  });

  it('an unreachable Ollama is one clear line', async () => {
    const host = (await serve(() => undefined)).replace('/v1', '');
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = undefined;
    const run = await runMain(['ask', '--llm', 'ollama', '--base-url', host, 'hi']);
    expect(run.code).not.toBe(0);
    expect(run.err).toBe(
      `archivist: cannot reach Ollama at ${host}: start it with \`ollama serve\` or pass --base-url (E_USAGE)\n`,
    );
  });
});
