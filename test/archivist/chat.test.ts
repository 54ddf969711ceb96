import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SESSION = `archivist-chat-test-${process.pid}`;

function tmux(...args: string[]): string {
  return execFileSync('tmux', args, { encoding: 'utf8' });
}

function screen(): string {
  return tmux('capture-pane', '-p', '-J', '-S', '-200', '-t', SESSION);
}

/** Polls the pane until `done` holds for its text; fails with the pane's text when it never does. */
async function waitFor(done: (text: string) => boolean): Promise<string> {
  let text = '';
  for (let i = 0; i < 300; i++) {
    text = screen();
    if (done(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the chat never got there; the pane shows:\n${text}`);
}

const answers = (text: string) => text.split('\n').filter((l) => l.startsWith('archivist> '));

// tmux is installed by `npm run setup`; without it this suite fails rather than passing unseen.
describe('archivist chat in a real terminal (tmux)', () => {
  it('has tmux to drive the terminal', () => {
    expect(() => execFileSync('tmux', ['-V']), 'tmux is missing: run npm run setup').not.toThrow();
  });

  afterAll(() => {
    try {
      tmux('kill-session', '-t', SESSION);
    } catch {
      // The session already ended.
    }
  });

  it('remembers the conversation: "something shorter by the same author"', async () => {
    tmux(
      'new-session',
      '-d',
      '-s',
      SESSION,
      '-x',
      '220',
      '-y',
      '50',
      '-c',
      ROOT,
      'node bin/archivist.js chat',
    );
    await waitFor((t) => t.includes('you> '));
    tmux('send-keys', '-t', SESSION, 'Nineteen Eighty-Four by George Orwell', 'Enter');
    const first = await waitFor((t) => answers(t).length >= 1);
    expect(answers(first)[0]).toContain('"Nineteen Eighty-Four" by George Orwell (1949)');
    tmux('send-keys', '-t', SESSION, 'something shorter by the same author', 'Enter');
    const second = await waitFor((t) => answers(t).length >= 2);
    const reply = answers(second)[1] ?? '';
    expect(reply).toMatch(/^archivist> You could try "[^"]+" by George Orwell \(\d+, (\d+) pages\)/);
    const pages = Number(/, (\d+) pages\)/.exec(reply)?.[1]);
    expect(pages).toBeLessThan(330);
    expect(reply).not.toContain('Nineteen Eighty-Four');
    tmux('send-keys', '-t', SESSION, 'exit', 'Enter');
  });
});
