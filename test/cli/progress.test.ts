/**
 * Progress during the waits of a run: on a terminal (driven through tmux) the line names the item that waits,
 * the placement it waits for, why, and counts down; off a terminal `--progress` prints the same as plain lines
 * on stderr, in the run's clock time, so with `--virtual-time` they count virtual time and are exact.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { countdown, progressState, why } from '../../src/cli/progress-state.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { SWITCHYARD, shellCommand } from '../cli-entry.ts';
import { runCli } from './run-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUSY = join(ROOT, 'test/cli/fixtures/busy-nodes.ts');
const REASON = '429 Too Many Requests';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-progress-'));
  await copyFile(join(ROOT, 'dags/compose-validate.jsonld'), join(dir, 'cv.jsonld'));
  // Retry-After honoured up to ten minutes; a back-off of exactly 12 s when the node names no wait.
  const policy = {
    defaults: {
      backoff: { strategy: 'constant', baseMs: 12000, capMs: 12000 },
      jitter: 'none',
      retryAfter: { honour: true, capMs: 600000 },
    },
  };
  await writeFile(join(dir, 'cv.policy.json'), JSON.stringify(policy));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The progress lines of a run's stderr. */
const progressLines = (err: string) => err.split('\n').filter((l) => l.startsWith('switchyard: running'));

/** A run of cv.jsonld over `input` with the busy composer, on the virtual clock, recording nothing. */
function busyRun(input: unknown, ...flags: string[]) {
  const args = ['run', 'cv.jsonld', '--nodes', BUSY, '--no-store', '--virtual-time', '--input'];
  return runCli([...args, JSON.stringify(input), ...flags], dir);
}

describe('the progress line', () => {
  const at = (type: string, fields: Record<string, unknown>) =>
    ({ type, seq: 0, time: 0, runId: 'r', dag: 'd', ...fields }) as unknown as RunEvent;

  it('counts down in whole seconds, rounding up', () => {
    expect([0, 1, 999, 1000, 1001, 59_000, 60_000, 61_500, 3_600_000].map(countdown)).toEqual([
      '0 s',
      '1 s',
      '1 s',
      '1 s',
      '2 s',
      '59 s',
      '1 min',
      '1 min 2 s',
      '60 min',
    ]);
    expect(countdown(-5)).toBe('0 s');
  });

  it('says why an item waits, on one short line', () => {
    const wait = { item: '1', placement: 'p', delayMs: 1, until: 1 };
    expect(why({ ...wait, source: 'retry-after', reason: REASON })).toBe(`Retry-After from ${REASON}`);
    expect(why({ ...wait, source: 'backoff', reason: undefined })).toBe('back-off');
    const long = why({ ...wait, source: 'backoff', reason: `a\n${'x'.repeat(500)}` });
    expect(long).not.toContain('\n');
    expect(long.length).toBeLessThan(100);
  });

  it('names the wait that ends first, how many more wait, and forgets a wait once its item moves on', () => {
    const state = progressState('run r', 3);
    const retry = (item: string, delayMs: number, delaySource: string) =>
      at('retry.scheduled', {
        item,
        from: 'a',
        output: 'retry',
        to: 'b',
        budget: 'x',
        attempt: 1,
        delayMs,
        delaySource,
        reason: REASON,
      });
    state.onEvent(retry('1', 30_000, 'retry-after'), 0, 0);
    state.onEvent(retry('2', 5_000, 'backoff'), 1_000, 1_000);
    expect(state.line(2_000)).toBe(
      `run r: 0/3 items ended, 2 retries; item 2 waits 4 s before b (back-off after ${REASON}), 1 more waiting`,
    );
    state.onEvent(at('placement.start', { item: '2', placement: 'b', visit: 2 }), 6_000, 6_000);
    state.onEvent(at('item.end', { item: '2', terminal: 't', outcome: 'completed' }), 6_000, 6_000);
    state.onEvent(at('item.end', { item: '2.1', terminal: 't', outcome: 'completed' }), 6_000, 6_000);
    expect(state.line(10_000)).toBe(
      `run r: 1/3 items ended, 2 retries; item 1 waits 20 s before b (Retry-After from ${REASON})`,
    );
    state.onEvent(
      at('run.end', { status: 'aborted', completed: 1, failed: 0, durationMs: 1 }),
      11_000,
      11_000,
    );
    expect(state.line(11_000)).toBe('run r: 1/3 items ended, 2 retries');
  });
});

describe('off a terminal', () => {
  it('--progress prints plain lines for a Retry-After wait, counting down in virtual time', async () => {
    const result = await busyRun({ retryAfterMs: 25_000 }, '--progress');
    expect(result.code, result.err).toBe(0);
    const wait = `item 1 waits %s before compose (Retry-After from ${REASON})`;
    expect(progressLines(result.err)).toEqual([
      'switchyard: running: 0/1 items ended',
      `switchyard: running: 0/1 items ended, 1 retry; ${wait.replace('%s', '25 s')}`,
      `switchyard: running: 0/1 items ended, 1 retry; ${wait.replace('%s', '15 s')}`,
      `switchyard: running: 0/1 items ended, 1 retry; ${wait.replace('%s', '5 s')}`,
      'switchyard: running: 1/1 items ended, 1 retry',
    ]);
    expect(result.out).toMatch(/^time: 25\.0 s \(virtual clock\)$/m);
  });

  it('--progress says when the wait is the back-off the policy chose', async () => {
    const result = await busyRun({}, '--progress');
    expect(result.code, result.err).toBe(0);
    expect(progressLines(result.err).slice(1, 3)).toEqual([
      `switchyard: running: 0/1 items ended, 1 retry; item 1 waits 12 s before compose (back-off after ${REASON})`,
      `switchyard: running: 0/1 items ended, 1 retry; item 1 waits 2 s before compose (back-off after ${REASON})`,
    ]);
  });

  it('without --progress nothing is printed, and --progress moves no virtual time', async () => {
    const events = (name: string) => ['--events', join(dir, name)];
    const quiet = await busyRun({ retryAfterMs: 25_000 }, ...events('quiet.jsonl'));
    const shown = await busyRun({ retryAfterMs: 25_000 }, '--progress', ...events('shown.jsonl'));
    expect(progressLines(quiet.err)).toEqual([]);
    expect(quiet.err).toBe('');
    const times = async (name: string) =>
      (await import('node:fs/promises')).readFile(join(dir, name), 'utf8').then((text) =>
        text
          .trimEnd()
          .split('\n')
          .map((l) => [JSON.parse(l).type, JSON.parse(l).time]),
      );
    expect(await times('shown.jsonl')).toEqual(await times('quiet.jsonl'));
    expect(shown.out.replace(/run \S+:/, '')).toBe(quiet.out.replace(/run \S+:/, ''));
  });

  it('--no-progress draws nothing even on a terminal', async () => {
    const terminal = Object.assign(new PassThrough(), {
      isTTY: true,
      columns: 200,
      cursorTo: () => true,
      moveCursor: () => true,
      clearLine: () => true,
    });
    let drawn = '';
    terminal.on('data', (chunk: Buffer) => {
      drawn += chunk.toString();
    });
    const io = { out: () => {}, err: () => {}, cwd: dir, isTTY: false, progress: terminal };
    const args = [
      'run',
      'cv.jsonld',
      '--nodes',
      BUSY,
      '--no-store',
      '--virtual-time',
      '--input',
      '{"retryAfterMs":5000}',
    ];
    expect(await main(['node', 'switchyard', ...args, '--no-progress'], io)).toBe(0);
    expect(drawn).toBe('');
    expect(await main(['node', 'switchyard', ...args], io)).toBe(0);
    expect(drawn).toContain('item 1 waits 5 s before compose');
  });
});

/** True once the store records item 1 of run `id` as waiting. */
async function recordedWaiting(id: string, store: string): Promise<boolean> {
  const shown = await runCli(['runs', 'show', id, '--store', store, '--json'], dir);
  if (shown.code !== 0) return false;
  const items = (JSON.parse(shown.out) as { items: { id: string; wait?: unknown }[] }).items;
  return items.some((item) => item.id === '1' && item.wait !== undefined);
}

/**
 * Starts `run` as a real process and kills it once its progress says that item 1 waits and the store has
 * recorded the wait; resolves the run id.
 */
async function killedWhileWaiting(args: readonly string[], store: string): Promise<string> {
  const child = spawn(process.execPath, [...SWITCHYARD, ...args], { cwd: dir });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  try {
    for (let i = 0; i < 600; i++) {
      const id = /^switchyard: run (\S+): .*item 1 waits/m.exec(err)?.[1];
      if (id !== undefined && (await recordedWaiting(id, store))) return id;
      if (child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the run never waited with its wait recorded:\n${err}`);
  } finally {
    // Gone before the resume starts, so that its lease is a dead process's.
    const gone = new Promise((resolve) => child.once('close', resolve));
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await gone;
  }
}

describe('resume', () => {
  it('goes on counting down the wait a killed run was in, though no event announces it', {
    timeout: 60_000,
  }, async () => {
    const store = join(dir, 'killed.db');
    const common = ['--nodes', BUSY, '--store', store, '--progress'];
    const id = await killedWhileWaiting(
      // A wait of minutes: however long the kill and the resume take here, it is not over when the resume starts.
      ['run', 'cv.jsonld', ...common, '--input', '{"retryAfterMs":600000}'],
      store,
    );
    const resumed = await runCli(['resume', id, ...common, '--virtual-time'], dir);
    expect(resumed.code, resumed.err).toBe(0);
    const lines = resumed.err.split('\n').filter((l) => l.startsWith(`switchyard: run ${id}:`));
    // The countdown as seconds: `1 min`, `50 s`, `1 min 5 s`.
    const left = lines.flatMap((l) => {
      const m = /item 1 waits (?:(\d+) min)? ?(?:(\d+) s)? before compose \(Retry-After\)$/.exec(l);
      return m === null ? [] : [Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)];
    });
    expect(left.length, resumed.err).toBeGreaterThan(3);
    // What is left of the recorded wait: some of it, never more than it.
    expect(left[0], resumed.err).toBeGreaterThan(0);
    expect(left[0], resumed.err).toBeLessThanOrEqual(600);
    expect(left.slice(1).map((s, i) => (left[i] as number) - s)).toEqual(left.slice(1).map(() => 10));
    expect(lines.at(-1)).toBe(`switchyard: run ${id}: 1/1 items ended`);
  });
});

describe('on a terminal (tmux)', () => {
  const session = `switchyard-progress-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
  const screen = () => tmux('capture-pane', '-p', '-J', '-S', '-100', '-t', session);
  afterAll(() => {
    try {
      tmux('kill-session', '-t', session);
    } catch {
      // The session already ended.
    }
  });

  /** Polls the pane until `found` gives a value; fails with the pane's text when it never does. */
  async function waitFor<T>(found: (text: string) => T | undefined): Promise<T> {
    let text = '';
    for (let i = 0; i < 400; i++) {
      text = screen();
      const value = found(text);
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the pane never showed it; it shows:\n${text}`);
  }

  it('counts down a real Retry-After wait, naming the item, the placement and why, then clears', {
    timeout: 60_000,
  }, async () => {
    // Without CI in its environment: the spinner, like most, prints plain lines when it sees a CI.
    const run = `env -u CI ${shellCommand([
      ...SWITCHYARD,
      'run',
      'cv.jsonld',
      '--nodes',
      BUSY,
      '--no-store',
      '--input',
      '{"retryAfterMs":6000}',
    ])}`;
    tmux('new-session', '-d', '-s', session, '-x', '220', '-y', '20', '-c', dir, `${run}; echo "[exit $?]"`);
    tmux('set-option', '-t', session, 'remain-on-exit', 'on');
    const pattern =
      /running: 0\/1 items ended, 1 retry; item 1 waits (\d+) s before compose \(Retry-After from 429 Too Many Requests\)/;
    const first = await waitFor((text) => pattern.exec(text)?.[1]);
    const later = await waitFor((text) => {
      const left = pattern.exec(text)?.[1];
      return left !== undefined && Number(left) < Number(first) ? left : undefined;
    });
    expect(Number(later)).toBeLessThan(Number(first));
    const done = await waitFor((text) => (/^\[exit (\d+)\]$/m.test(text) ? text : undefined));
    expect(done).toMatch(/^\[exit 0\]$/m);
    expect(done).toMatch(/^run \S+: completed/m);
    expect(done).not.toMatch(/items ended/);
  });
});
