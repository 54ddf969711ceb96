/**
 * The Archivist beside other processes on one store file: several `archivist ask` at once all answer and
 * are all recorded, and a chat turn whose store stays locked past the busy timeout says in one line that
 * it was not answered and why, and the chat goes on. Real processes on a real SQLite file.
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ASK_DAG } from '../../examples/archivist/paths.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import { ARCHIVIST } from '../cli-entry.ts';

const run = promisify(execFile);
const sqlitePath = createRequire(import.meta.url).resolve('better-sqlite3');

const folders: string[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'archivist-contention-'));
  folders.push(dir);
  return dir;
}

/** A process holding the write lock of `file` until it is killed; resolves once the lock is taken. */
async function holdLock(file: string): Promise<ChildProcessWithoutNullStreams> {
  const child = spawn(process.execPath, [
    '-e',
    `const db = new (require(${JSON.stringify(sqlitePath)}))(${JSON.stringify(file)});
     db.exec('BEGIN IMMEDIATE');
     process.stdout.write('locked\\n');
     process.stdin.resume();`,
  ]);
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  return child;
}

describe('the Archivist on a store other processes use', () => {
  it('answers several questions asked at once, each recorded', { timeout: 120_000 }, async () => {
    const file = join(folder(), 'runs.db');
    const questions = ['books by George Orwell', 'books by Jane Austen', 'books by Ernest Hemingway'];
    const asked = await Promise.all(
      questions.map((question) =>
        run(process.execPath, [...ARCHIVIST, 'ask', '--json', '--store', file, question], {
          env: { ...process.env, SWITCHYARD_STORE: '' },
        }),
      ),
    );
    for (const { stderr } of asked) expect(stderr).toBe('');
    const store = await openSqliteStore(file, { readonly: true });
    try {
      const { runs } = await store.listRuns({ dag: ASK_DAG });
      expect(runs.map((r) => r.status)).toEqual(questions.map(() => 'completed'));
    } finally {
      await store.close();
    }
  });

  it('says in one line that a turn failed while the store stayed locked, and the chat goes on', {
    timeout: 120_000,
  }, async () => {
    const file = join(folder(), 'runs.db');
    const chat = spawn(process.execPath, [...ARCHIVIST, 'chat', '--store', file], {
      env: { ...process.env, SWITCHYARD_STORE: '' },
    });
    children.push(chat);
    let out = '';
    let err = '';
    const wake: (() => void)[] = [];
    chat.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      for (const w of wake.splice(0)) w();
    });
    chat.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      for (const w of wake.splice(0)) w();
    });
    const until = (done: () => boolean) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (done()) resolve();
          else if (chat.exitCode !== null) reject(new Error(`the chat ended first:\n${out}\n${err}`));
          else wake.push(check);
        };
        check();
      });
    const answers = () => out.split('archivist> ').length - 1;
    chat.stdin.write('books by George Orwell\n');
    await until(() => answers() === 1);
    const holder = await holdLock(file);
    chat.stdin.write('books by Jane Austen\n');
    await until(() => err.includes('locked by another process'));
    const failed = err.split('\n').filter((line) => line.includes('locked by another process'));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatch(
      /^archivist: that question was not answered: .*runs\.db is locked by another process \(waited \d+ ms\); .* \(E_STORE_LOCKED\)$/u,
    );
    holder.kill('SIGKILL');
    await once(holder, 'exit');
    chat.stdin.write('books by Ernest Hemingway\n');
    await until(() => answers() === 2);
    chat.stdin.end('exit\n');
    const [code] = (await once(chat, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(out).toContain('Hemingway');
  });
});
