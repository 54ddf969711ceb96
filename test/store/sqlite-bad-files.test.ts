/**
 * Store files the SQLite store must refuse: each gives one line with a stable code that names the file and
 * says what to do, and leaves the file byte for byte as it was.
 */
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import { SCHEMA_VERSION } from '../../src/store/sqlite-schema.ts';
import { filledStore, hashFile, refusal, tempFolder } from './files.ts';
import { makeRun, runWrite } from './fixtures.ts';

const sqlitePath = createRequire(import.meta.url).resolve('better-sqlite3');

let folder: ReturnType<typeof tempFolder>;
beforeEach(() => {
  folder = tempFolder();
});
afterEach(() => {
  chmodSync(folder.dir, 0o755);
  folder.remove();
});

/** Expects opening `file` to fail with `code` in one line naming the file, and the file unchanged. */
async function expectRefused(
  file: string,
  code: string,
  options: Parameters<typeof openSqliteStore>[1] = {},
) {
  const before = hashFile(file);
  const { code: got, message } = await refusal(openSqliteStore(file, options));
  expect(got).toBe(code);
  expect(message).toContain(file);
  expect(message).not.toContain('\n');
  expect(hashFile(file)).toBe(before);
  return message;
}

describe('a file that is not a database', () => {
  it('is refused, whether long or shorter than a header', async () => {
    const text = join(folder.dir, 'notes.txt');
    writeFileSync(text, 'These are my notes, not a database.\n'.repeat(200));
    expect(await expectRefused(text, 'E_STORE_NOT_A_DATABASE')).toMatch(/pass another store path/);
    const short = join(folder.dir, 'short.db');
    writeFileSync(short, 'tiny');
    await expectRefused(short, 'E_STORE_NOT_A_DATABASE');
  });

  it('is refused when it is a folder or not a regular file', async () => {
    expect((await refusal(openSqliteStore(folder.dir))).code).toBe('E_STORE_OPEN');
    expect((await refusal(openSqliteStore('/dev/null'))).message).toMatch(/not a regular file/);
  });
});

describe('a corrupt file', () => {
  it('is refused when its schema page is damaged', async () => {
    const file = join(folder.dir, 'runs.db');
    await filledStore(file);
    const bytes = readFileSync(file);
    bytes.fill(0x5a, 100, 4096);
    writeFileSync(file, bytes);
    expect(await expectRefused(file, 'E_STORE_CORRUPT')).toMatch(/move it away/);
  });

  it('is refused at open by the integrity check, and on first read without it', async () => {
    const file = join(folder.dir, 'runs.db');
    await filledStore(file, 200);
    const bytes = readFileSync(file);
    expect(bytes.length).toBeGreaterThan(8 * 4096);
    bytes.fill(0x5a, 4 * 4096, bytes.length - 4096);
    writeFileSync(file, bytes);
    await expectRefused(file, 'E_STORE_CORRUPT', { integrityCheck: true });
    const before = hashFile(file);
    const store = await openSqliteStore(file);
    const read = await refusal(store.listRuns({ limit: 1000 }));
    expect(read.code).toBe('E_STORE_CORRUPT');
    expect(read.message).toContain(file);
    await store.close();
    expect(hashFile(file)).toBe(before);
  });
});

describe('a read-only file', () => {
  it('is refused when the file has no write permission, even for root', async () => {
    const file = join(folder.dir, 'runs.db');
    await filledStore(file, 2);
    chmodSync(file, 0o444);
    expect(await expectRefused(file, 'E_STORE_READ_ONLY')).toMatch(/mode 444.*make it writable/);
  });

  it('is refused when its folder has no write permission, for an existing or a new file', async () => {
    const file = join(folder.dir, 'runs.db');
    await filledStore(file, 2);
    chmodSync(folder.dir, 0o555);
    expect(await expectRefused(file, 'E_STORE_READ_ONLY')).toContain(`its folder ${folder.dir} is read-only`);
    const fresh = join(folder.dir, 'new.db');
    expect((await refusal(openSqliteStore(fresh))).code).toBe('E_STORE_READ_ONLY');
    expect(() => statSync(fresh)).toThrow(/ENOENT/);
  });

  it('opens read-only on request: reads work, every write is refused, the file stays as it was', async () => {
    const file = join(folder.dir, 'runs.db');
    await filledStore(file, 3);
    chmodSync(file, 0o444);
    const before = hashFile(file);
    const store = await openSqliteStore(file, { readonly: true });
    expect((await store.listRuns()).runs).toHaveLength(3);
    expect((await refusal(store.commit([runWrite(makeRun('new'))]))).code).toBe('E_STORE_READ_ONLY');
    const lease = store.acquireLease({ runId: 'run-0', holder: { pid: 1, host: 'h' }, now: 0, ttlMs: 10 });
    expect((await refusal(lease)).code).toBe('E_STORE_READ_ONLY');
    expect((await refusal(store.prune({ olderThan: Number.MAX_SAFE_INTEGER }))).code).toBe(
      'E_STORE_READ_ONLY',
    );
    await store.close();
    expect(hashFile(file)).toBe(before);
    expect((await refusal(openSqliteStore(join(folder.dir, 'missing.db'), { readonly: true }))).code).toBe(
      'E_STORE_OPEN',
    );
  });
});

/** Starts a process that holds `file` in an exclusive transaction after `setup` SQL, until it is killed. */
async function holdLock(file: string, setup: string): Promise<() => Promise<void>> {
  const holder = spawn(
    process.execPath,
    [
      '-e',
      `const Database = require(${JSON.stringify(sqlitePath)});
       const db = new Database(${JSON.stringify(file)});
       db.exec(${JSON.stringify(setup)});
       db.exec('BEGIN EXCLUSIVE; CREATE TABLE held (x); INSERT INTO held VALUES (1);');
       process.stdout.write('locked\\n');
       process.stdin.resume();`,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const release = async () => {
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
  };
  await new Promise<void>((resolve, reject) => {
    holder.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve();
    });
    holder.on('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
  }).catch(async (error: unknown) => {
    await release();
    throw error;
  });
  return release;
}

describe('a file locked by another process', () => {
  it('is refused once the busy timeout has passed, and left as it was', async () => {
    const file = join(folder.dir, 'runs.db');
    await filledStore(file, 2);
    const before = hashFile(file);
    const release = await holdLock(file, '');
    try {
      const message = await expectRefused(file, 'E_STORE_LOCKED', { busyTimeoutMs: 50 });
      const waited = Number(/locked by another process \(waited (\d+) ms\)/u.exec(message)?.[1]);
      expect(waited).toBeGreaterThanOrEqual(50);
    } finally {
      await release();
    }
    expect(hashFile(file)).toBe(before);
  });
});

describe('a file locked by another process with a rollback journal', () => {
  it('is refused at the first read once the busy timeout has passed', async () => {
    const file = join(folder.dir, 'runs.db');
    await filledStore(file, 2);
    const release = await holdLock(file, 'PRAGMA journal_mode = DELETE;');
    try {
      const before = hashFile(file);
      await expectRefused(file, 'E_STORE_LOCKED', { busyTimeoutMs: 50 });
      expect(hashFile(file)).toBe(before);
    } finally {
      await release();
    }
  });
});

describe('a file written by a newer Switchyard', () => {
  it('is refused, naming both schema versions', async () => {
    const file = join(folder.dir, 'runs.db');
    await filledStore(file, 2);
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const message = await expectRefused(file, 'E_STORE_TOO_NEW');
    expect(message).toContain(`schema version ${SCHEMA_VERSION + 1}, newer than the ${SCHEMA_VERSION}`);
    expect(message).toMatch(/upgrade Switchyard/);
  });

  it('is refused when the newer version is only in the write-ahead log', async () => {
    const file = join(folder.dir, 'runs.db');
    await filledStore(file, 2);
    const copy = join(folder.dir, 'copy.db');
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(file);
    db.pragma('wal_autocheckpoint = 0');
    db.pragma(`user_version = ${SCHEMA_VERSION + 3}`);
    // Copies the file and its log while the writer still holds them, as a crash would leave them.
    copyFileSync(file, copy);
    copyFileSync(`${file}-wal`, `${copy}-wal`);
    db.close();
    await expectRefused(copy, 'E_STORE_TOO_NEW');
  });
});
