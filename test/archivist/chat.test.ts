import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ARCHIVIST, shellCommand } from '../cli-entry.ts';
import { waitFor } from '../wait-for.ts';
import { answerLikeAModel, closeModelServers, serveModel } from './model-server.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SESSION = `archivist-chat-test-${process.pid}`;
const dir = mkdtempSync(join(tmpdir(), 'archivist-chat-'));
let sessions = 0;
let current = SESSION;

function tmux(...args: string[]): string {
  return execFileSync('tmux', args, { encoding: 'utf8' });
}

function screen(): string {
  return tmux('capture-pane', '-p', '-J', '-S', '-200', '-t', current);
}

/**
 * Starts `command` in a new tmux session of its own; the shell then prints the program's exit status, and the
 * pane stays open so that it can be read.
 */
function start(command: string): void {
  sessions += 1;
  current = `${SESSION}-${sessions}`;
  tmux(
    'new-session',
    '-d',
    '-s',
    current,
    '-x',
    '220',
    '-y',
    '50',
    '-c',
    ROOT,
    `${command}; echo "[exit $?]"`,
  );
  tmux('set-option', '-t', current, 'remain-on-exit', 'on');
}

/** The exit status of the program in the pane once it has ended, undefined while it runs. */
function exitStatus(text = screen()): number | undefined {
  const status = /^\[exit (\d+)\]$/m.exec(text)?.[1];
  return status === undefined ? undefined : Number(status);
}

/**
 * Waits until `done` holds for the pane's text and returns its value; fails with the pane's text when it
 * never does, or at once when the program ended without it holding.
 */
function paneShows<T>(done: (text: string) => T | undefined | false, what: string): Promise<T> {
  let text = '';
  return waitFor(
    () => {
      text = screen();
      const value = done(text);
      if (value !== undefined && value !== false) return value;
      if (exitStatus(text) !== undefined) throw new Error(`the chat ended before ${what}:\n${text}`);
      return undefined;
    },
    { what, everyMs: 50, seen: () => text },
  );
}

/** Waits until the program has ended and returns its exit status. */
const ended = () => paneShows((t) => exitStatus(t) ?? false, 'the chat to end') as Promise<number>;

/** The pane's last line that is not blank, without trailing spaces. */
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';

const answers = (text: string) => text.split('\n').filter((l) => l.startsWith('archivist> '));

afterEach(closeModelServers);
afterAll(() => {
  for (let i = 1; i <= sessions; i++) {
    try {
      tmux('kill-session', '-t', `${SESSION}-${i}`);
    } catch {
      // The session already ended.
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

// tmux is installed by `npm run setup`; without it this suite fails rather than passing unseen.
describe('archivist chat in a real terminal (tmux)', () => {
  it('has tmux to drive the terminal', () => {
    expect(() => execFileSync('tmux', ['-V']), 'tmux is missing: run npm run setup').not.toThrow();
  });

  it('remembers the conversation: "something shorter by the same author"; "EXIT" ends it with 0', {
    timeout: 120_000,
  }, async () => {
    start(`${shellCommand(ARCHIVIST)} chat --store '${join(dir, 'memory.db')}'`);
    await paneShows((t) => t.includes('you> '), 'the first prompt');
    tmux('send-keys', '-t', current, 'Nineteen Eighty-Four by George Orwell', 'Enter');
    const first = await paneShows((t) => answers(t).length >= 1 && t, 'the first answer');
    expect(answers(first)[0]).toContain('"Nineteen Eighty-Four" by George Orwell (1949)');
    tmux('send-keys', '-t', current, 'something shorter by the same author', 'Enter');
    const second = await paneShows((t) => answers(t).length >= 2 && t, 'the second answer');
    const reply = answers(second)[1] ?? '';
    expect(reply).toMatch(/^archivist> You could try "[^"]+" by George Orwell \(\d+, (\d+) pages\)/);
    const pages = Number(/, (\d+) pages\)/.exec(reply)?.[1]);
    expect(pages).toBeLessThan(330);
    expect(reply).not.toContain('Nineteen Eighty-Four');
    tmux('send-keys', '-t', current, 'EXIT', 'Enter');
    expect(await ended()).toBe(0);
  });

  it('Ctrl-C during an answer cancels it and the next question is answered; Ctrl-C at an empty prompt ends with 0', {
    timeout: 120_000,
  }, async () => {
    let requests = 0;
    const { baseURL } = await serveModel((body, res) => {
      requests += 1;
      // The first request hangs until the client goes away: the answer is still being prepared.
      if (requests > 1) answerLikeAModel(body, res);
    });
    const archivist = shellCommand([...ARCHIVIST, 'chat', '--llm', 'openai', '--base-url', baseURL]);
    start(`env OPENAI_API_KEY=test-key ${archivist} --model local --store '${join(dir, 'cancel.db')}'`);
    await paneShows((t) => t.includes('you> '), 'the first prompt');
    tmux('send-keys', '-t', current, 'books by George Orwell', 'Enter');
    await waitFor(() => requests > 0, { what: 'the question to reach the model', seen: screen });
    expect(requests).toBe(1);
    tmux('send-keys', '-t', current, 'C-c');
    await paneShows((t) => t.includes('archivist: answer cancelled'), 'the cancelled answer');
    tmux('send-keys', '-t', current, 'books by George Orwell', 'Enter');
    const answered = await paneShows((t) => answers(t).length >= 1 && t, 'the answer after the cancel');
    expect(answers(answered)).toEqual([
      expect.stringMatching(/^archivist> You will like "[^"]+" by George Orwell/),
    ]);
    // Ctrl-C drops text typed at the prompt, once the prompt shows it, and the prompt stays; at an empty
    // prompt Ctrl-C leaves.
    tmux('send-keys', '-t', current, 'half a question');
    await paneShows((t) => lastLine(t) === 'you> half a question', 'the text typed at the prompt');
    tmux('send-keys', '-t', current, 'C-c');
    await paneShows((t) => lastLine(t) === 'you>', 'an empty prompt after Ctrl-C');
    tmux('send-keys', '-t', current, 'C-c');
    expect(await ended()).toBe(0);
  });
});
