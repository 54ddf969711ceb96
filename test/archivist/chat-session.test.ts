import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ArchivistEnv } from '../../examples/archivist/environment.ts';
import { main } from '../../examples/archivist/main.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { waitFor } from '../wait-for.ts';
import { closeModelServers, failure, serveModel } from './model-server.ts';

afterEach(closeModelServers);

const dir = mkdtempSync(join(tmpdir(), 'archivist-chat-session-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `archivist chat …` in-process with `lines` as its piped input. */
async function chat(args: readonly string[], lines: readonly string[], env: Record<string, string> = {}) {
  const stdin = new PassThrough();
  stdin.end(lines.map((l) => `${l}\n`).join(''));
  return chatWith(args, stdin, env, false).done;
}

/** Starts `archivist chat …` in-process reading `stdin`, as a terminal when `isTTY`. */
function chatWith(args: readonly string[], stdin: PassThrough, env: Record<string, string>, isTTY: boolean) {
  let out = '';
  let err = '';
  const io: ArchivistEnv = {
    out: (text) => {
      out += text.endsWith('\n') ? text : `${text}\n`;
    },
    err: (text) => {
      err += text.endsWith('\n') ? text : `${text}\n`;
    },
    env,
    clock: createVirtualClock({ auto: true }),
    isTTY,
    cwd: process.cwd(),
    stdin,
    stdout: new PassThrough(),
    progress: process.stderr,
    policy: { defaults: { jitter: 'none' } },
  };
  const done = main(['node', 'archivist', 'chat', ...args], io).then((code) => ({ code, out, err }));
  return { done, err: () => err };
}

describe('archivist chat with piped input', () => {
  it('a refused key is told once for the whole chat; every question is answered from the catalog', async () => {
    let calls = 0;
    const { baseURL } = await serveModel((_body, res) => {
      calls += 1;
      failure(res, 401, 'Incorrect API key provided');
    });
    const run = await chat(
      ['--no-store', '--llm', 'openai', '--base-url', baseURL],
      ['books by George Orwell', 'books by Ursula K. Le Guin', 'Quit'],
      { OPENAI_API_KEY: 'bad' },
    );
    expect(run.code).toBe(0);
    expect(run.err.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^archivist: openai at .* answered HTTP 401: the API key in OPENAI_API_KEY was refused/,
      ),
    ]);
    expect(run.out).toContain('George Orwell');
    expect(run.out).toContain('Ursula K. Le Guin');
    expect(calls).toBe(1);
  });

  it('a question over 50,000 characters is one line, and the chat goes on; "EXIT" in any case ends it', async () => {
    const run = await chat(
      ['--no-store'],
      ['x'.repeat(50_001), 'books by George Orwell', 'EXIT', 'books by Ursula K. Le Guin'],
    );
    expect(run.code).toBe(0);
    expect(run.err).toBe(
      'archivist: the question is 50001 characters long; the limit is 50000: ask it in fewer words\n',
    );
    const answers = run.out.split('\n').filter((l) => l.startsWith('archivist> '));
    expect(answers).toHaveLength(1);
    expect(answers[0]).toContain('George Orwell');
  });

  it('a turn cancelled with Ctrl-C is recorded without an answer, and --resume does not answer it again', async () => {
    let calls = 0;
    const { baseURL } = await serveModel(() => {
      calls += 1;
    });
    const store = join(dir, 'runs.db');
    const args = ['--store', store, '--llm', 'openai', '--base-url', baseURL];
    const env = { OPENAI_API_KEY: 'k' };
    const stdin = new PassThrough();
    const running = chatWith(args, stdin, env, true);
    stdin.write('books by George Orwell\r');
    await waitFor(() => calls === 1, { what: 'the question to reach the model', seen: running.err });
    stdin.write('\x03');
    await waitFor(() => running.err().includes('answer cancelled'), {
      what: 'the answer to be cancelled',
      seen: running.err,
    });
    stdin.write('exit\r');
    const first = await running.done;
    expect(first.code).toBe(0);
    expect(first.out).not.toContain('archivist> ');
    const again = await chat(['--resume', ...args], [], env);
    expect(again.code).toBe(0);
    expect(again.out).toContain('you> books by George Orwell');
    expect(again.out).not.toContain('archivist> ');
    expect(calls).toBe(1);
  });
});
