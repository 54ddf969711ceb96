/**
 * Several processes on one SQLite store file: each write waits for the others' locks for as long as the busy
 * timeout says, so writers that start at once all succeed; a write refused after the timeout says how long
 * it really waited. Real child processes on a real file.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/policy/clock.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import { refusal, tempFolder } from './files.ts';
import { eventWrites, makeRun, runWrite } from './fixtures.ts';

/** A child process with a stdin and a stdout (its stderr is the test's). */
type Child = ChildProcessByStdio<Writable, Readable, null>;

const HAMMER = join(import.meta.dirname, 'store-hammer.ts');
const sqlitePath = createRequire(import.meta.url).resolve('better-sqlite3');
const WRITERS = 4;
const RUNS_EACH = 150;

let folder: ReturnType<typeof tempFolder>;
const children: Child[] = [];
beforeEach(() => {
  folder = tempFolder();
});
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
  folder.remove();
});

/** Resolves with the child's stdout so far once it prints `line`; rejects if it exits first. */
function printed(child: Child, line: string): Promise<string> {
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.split('\n').includes(line)) resolve(out);
    });
    child.on('exit', (code) => reject(new Error(`the child exited with ${code} before '${line}': ${out}`)));
  });
}

/** A writer process on `file`, ready to start once it reads a line. */
async function writer(file: string, name: string): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', HAMMER, file, name, String(RUNS_EACH)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(child);
  await printed(child, 'ready');
  return child;
}

/**
 * A process that takes the write lock of `file` and holds it for `holdMs` (until killed for none). Resolves
 * once the lock is taken.
 */
async function lockHolder(file: string, holdMs?: number): Promise<Child> {
  const release =
    holdMs === undefined
      ? 'process.stdin.resume();'
      : `setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${holdMs});`;
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const Database = require(${JSON.stringify(sqlitePath)});
       const db = new Database(${JSON.stringify(file)});
       db.exec('BEGIN IMMEDIATE');
       process.stdout.write('locked\\n');
       ${release}`,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  children.push(child);
  await printed(child, 'locked');
  return child;
}

/** A store file holding one run, whose next writes read before they write. */
async function storeWithRun(file: string, busyTimeoutMs: number) {
  const store = await openSqliteStore(file, { busyTimeoutMs });
  await store.commit([runWrite(makeRun('r')), ...eventWrites('r', 0, 1)]);
  return store;
}

describe('several processes writing one store file', () => {
  it('all succeed, each waiting for the others’ locks', { timeout: 120_000 }, async () => {
    const file = join(folder.dir, 'runs.db');
    const writers = await Promise.all(Array.from({ length: WRITERS }, (_x, n) => writer(file, `w${n}`)));
    const ends = writers.map((child) => once(child, 'exit'));
    const outs = writers.map((child) => printed(child, 'done').catch((error: Error) => error.message));
    for (const child of writers) child.stdin.end('go\n');
    await Promise.all(ends);
    expect(await Promise.all(outs)).toEqual(writers.map(() => 'done\n'));
    expect(writers.map((child) => child.exitCode)).toEqual(writers.map(() => 0));
    const store = await openSqliteStore(file, { readonly: true });
    try {
      const { runs } = await store.listRuns({ limit: 1000 });
      expect(runs).toHaveLength(WRITERS * RUNS_EACH);
      expect(runs.every((run) => run.status === 'completed')).toBe(true);
      expect((await store.readEvents('w0-0')).map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    } finally {
      await store.close();
    }
  });

  it('a write waits while another process holds the lock, and lands once it is given up', {
    timeout: 60_000,
  }, async () => {
    const file = join(folder.dir, 'runs.db');
    const store = await storeWithRun(file, 50_000);
    try {
      await store.getRun('r');
      const holder = await lockHolder(file, 300);
      const exited = once(holder, 'exit');
      // Reads first (the last seq of the run's pages), then writes: it must wait at its start, not fail.
      await store.commit(eventWrites('r', 1, 3));
      await exited;
      expect((await store.readEvents('r')).map((e) => e.seq)).toEqual([0, 1, 2]);
    } finally {
      await store.close();
    }
  });

  it('a write refused after the busy timeout says how long it waited, truly', {
    timeout: 60_000,
  }, async () => {
    const file = join(folder.dir, 'runs.db');
    const store = await storeWithRun(file, 200);
    try {
      await lockHolder(file);
      const started = systemClock.now();
      const { code, message } = await refusal(store.commit(eventWrites('r', 1, 3)));
      const elapsed = systemClock.now() - started;
      expect(code).toBe('E_STORE_LOCKED');
      const waited = Number(/\(waited (\d+) ms\)/u.exec(message)?.[1]);
      // It waited out the whole timeout, and says no more than the time that passed.
      expect(waited).toBeGreaterThanOrEqual(200);
      expect(waited).toBeLessThanOrEqual(elapsed);
      expect(message).not.toContain('\n');
    } finally {
      await store.close();
    }
  });
});
