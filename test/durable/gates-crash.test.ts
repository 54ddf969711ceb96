/**
 * The gate crash test: `switchyard run` with a store, whose gated call gets a 429 with a Retry-After, killed
 * with SIGKILL once the closing is recorded, then `switchyard resume`: no call under the gate starts before
 * the recorded reopening, and the items that waited spent no budget. Real processes, real SQLite, real clock
 * (the check compares the times the nodes logged with the time the gate.closed event recorded, both wall
 * times of this machine).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/runtime/events.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { RunStore } from '../../src/store/types.ts';
import { BIN, FIXTURES, readLog } from './crash-harness.ts';

/** The node module, where it lives: it imports the engine by a path relative to itself. */
const NODES = join(FIXTURES, 'gate-nodes.ts');
/** The Retry-After of item 1's first call, seconds: the time the resumed run must wait at least. */
const RETRY_AFTER_S = 5;
/** Item 1 gets the 429; the others reach the gate after it (concurrency 1) and wait for the reopening. */
const ITEMS = [{ retryAfterS: RETRY_AFTER_S }, {}, {}, {}, {}];

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-gate-crash-'));
  for (const name of ['gate.jsonld', 'gate.policy.json']) {
    await copyFile(join(FIXTURES, name), join(dir, name));
  }
  await writeFile(join(dir, 'items.json'), JSON.stringify(ITEMS));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A `switchyard` child process, and its exit with what it printed. */
function start(args: readonly string[], log: string): { child: ChildProcess; done: Promise<string> } {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { ...process.env, SWITCHYARD_STORE: '', CRASH_LOG: log },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  child.stdout?.resume();
  const done = new Promise<string>((resolve) => child.on('close', (code) => resolve(`exit ${code}: ${err}`)));
  return { child, done };
}

/** Polls `read` until it gives a value; fails when `done` settles first (the process ended). */
async function until<T>(read: () => Promise<T | undefined>, done: Promise<string>, what: string): Promise<T> {
  let ended: string | undefined;
  void done.then((how) => {
    ended = how;
  });
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (ended !== undefined) throw new Error(`the process ended before ${what}: ${ended}`);
    await sleep(5);
  }
}

/** The run recorded in `store`, once its gate closing and item 1's retry wait are committed. */
async function closedRun(store: RunStore): Promise<{ id: string; untilMs: number } | undefined> {
  const run = (await store.listRuns()).runs[0];
  if (run === undefined) return undefined;
  const events = (await store.readEvents(run.id)).map((e) => e.body as RunEvent);
  const closed = events.find((e) => e.type === 'gate.closed');
  const waiting = await store.listCheckpoints(run.id, 'waiting');
  if (closed?.type !== 'gate.closed' || waiting.length === 0) return undefined;
  return { id: run.id, untilMs: closed.untilMs };
}

describe('a run killed while its gate is closed', () => {
  it('resumes with no call under the gate before the reopening, and no budget spent waiting', async () => {
    const db = join(dir, 'runs.db');
    const log = join(dir, 'calls.log');
    const first = start(
      ['run', 'gate.jsonld', '--nodes', NODES, '--input', '@items.json', '--store', db],
      log,
    );
    // The run uses gate.policy.json beside its document.
    const reader = await until(
      () => openSqliteStore(db, { readonly: true }).catch(() => undefined),
      first.done,
      'its store was made',
    );
    let closed: { id: string; untilMs: number };
    try {
      closed = await until(() => closedRun(reader), first.done, 'the gate closed');
    } finally {
      await reader.close();
    }
    // Killed milliseconds after the closing: the resume below starts well within the Retry-After. (Were it
    // to start after the reopening on a slow machine, every check below still holds.)
    first.child.kill('SIGKILL');
    await first.done;
    const before = readLog(log).filter((l) => l.k === 'start');
    expect(before.map((l) => l.item)).toEqual(['1']);

    const second = start(['resume', closed.id, '--nodes', NODES, '--store', db], log);
    expect(await second.done).toMatch(/^exit 0/);
    const resumed = readLog(log).filter((l) => l.k === 'start' && l.pid === second.child.pid);
    expect(resumed.map((l) => l.item).sort()).toEqual(['1', '2', '3', '4', '5']);
    // No call under the gate started before the gate reopened.
    const early = resumed.filter((l) => l.at < closed.untilMs);
    expect(early).toEqual([]);

    const store = await openSqliteStore(db, { readonly: true });
    try {
      expect((await store.getRun(closed.id))?.status).toBe('completed');
      const budgets = (await store.listCheckpoints(closed.id)).map((c) => [c.itemId, c.state.budgets]);
      expect(budgets).toEqual([
        ['1', { tries: 1 }],
        ['2', {}],
        ['3', {}],
        ['4', {}],
        ['5', {}],
      ]);
      // The resumed process told its items waited for the recorded reopening.
      const events = (await store.readEvents(closed.id)).map((e) => e.body as RunEvent);
      const resumedFrom = events.findIndex((e) => e.type === 'run.start' && e.resumed === true);
      const waits = events.slice(resumedFrom).filter((e) => e.type === 'gate.wait' && e.why === 'closed');
      expect(waits.filter((e) => e.type === 'gate.wait' && e.untilMs !== closed.untilMs)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
