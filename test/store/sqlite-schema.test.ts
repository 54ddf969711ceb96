/**
 * The SQLite store's file: WAL mode and its settings, forward migrations from older schema versions in one
 * transaction, a size that grows linearly with transitions and shrinks after a prune, and better-sqlite3
 * loaded only when a store is opened.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteRunStore } from '../../src/store/sqlite.ts';
import { MIGRATIONS, migrate, SCHEMA_VERSION, schemaVersion } from '../../src/store/sqlite-schema.ts';
import type { StoreWrite } from '../../src/store/types.ts';
import { tempFolder } from './files.ts';
import { eventWrites, makeCheckpoint, makeRun, runWrite, T0 } from './fixtures.ts';

let folder: ReturnType<typeof tempFolder>;
beforeEach(() => {
  folder = tempFolder();
});
afterEach(() => folder.remove());

describe('a new store file', () => {
  it('is created with its folder, in WAL mode, at the latest schema version, with foreign keys on', async () => {
    const file = join(folder.dir, '.switchyard', 'runs.db');
    const store = await openSqliteStore(file);
    expect(store.pragmas()).toEqual({ journalMode: 'wal', userVersion: SCHEMA_VERSION, foreignKeys: true });
    await store.commit([runWrite(makeRun('r1'))]);
    expect(existsSync(`${file}-wal`)).toBe(true);
    await store.close();
    const again = await openSqliteStore(file);
    expect((await again.getRun('r1'))?.id).toBe('r1');
    await again.close();
  });
});

describe('migrations', () => {
  it('move a version 1 file forward, keeping its records', async () => {
    const file = join(folder.dir, 'old.db');
    const { default: Database } = await import('better-sqlite3');
    const old = new Database(file);
    migrate(old, 1);
    expect(schemaVersion(old)).toBe(1);
    old
      .prepare(
        `INSERT INTO runs (id, dag_iri, dag_hash, status, created_at, updated_at, finished_at, format_version,
           engine_version, dag, documents, policy, policy_hash, input, options)
         VALUES ('r1', 'urn:test:dag', 'h', 'running', ?, ?, NULL, 1, '0.0.1', ?, '[]', '{}', 'p', '[]', '{}')`,
      )
      .run(T0, T0, JSON.stringify({ iri: 'urn:test:dag', hash: 'h' }));
    old
      .prepare("INSERT INTO checkpoints (run_id, item_id, status, record) VALUES ('r1', '1', 'waiting', ?)")
      .run(JSON.stringify(makeCheckpoint('r1', '1')));
    expect(old.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'leases'").pluck().get()).toBe(0);
    old.close();

    const store = await openSqliteStore(file);
    expect(store.pragmas().userVersion).toBe(SCHEMA_VERSION);
    expect(await store.getRun('r1')).toMatchObject({ id: 'r1', status: 'running', engineVersion: '0.0.1' });
    expect(await store.getCheckpoint('r1', '1')).toEqual(makeCheckpoint('r1', '1'));
    const lease = await store.acquireLease({
      runId: 'r1',
      holder: { pid: 7, host: 'h' },
      now: T0,
      ttlMs: 10,
    });
    expect(await store.getLease('r1')).toEqual(lease);
    await store.close();
  });

  it('run in one transaction: a failing step leaves the file at its old version with nothing half done', async () => {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(join(folder.dir, 'half.db'));
    const broken = [
      MIGRATIONS[0] as (typeof MIGRATIONS)[number],
      { version: 2, sql: 'CREATE TABLE x (a); NOT SQL' },
    ];
    expect(() => migrate(db, 2, broken)).toThrow(/syntax error/);
    expect(schemaVersion(db)).toBe(0);
    expect(db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get()).toBe(0);
    db.close();
  });

  it('refuse a read-only open of a file that needs migrating', async () => {
    const file = join(folder.dir, 'old.db');
    const { default: Database } = await import('better-sqlite3');
    const old = new Database(file);
    migrate(old, 1);
    old.close();
    await expect(openSqliteStore(file, { readonly: true })).rejects.toThrow(/needs migrating to 2/);
  });
});

/** The writes of `n` transitions of run `runId`: a checkpoint of one of 10 items and two events each. */
function transitions(runId: string, from: number, n: number): StoreWrite[] {
  const writes: StoreWrite[] = [];
  for (let t = from; t < from + n; t++) {
    writes.push({ kind: 'checkpoint', checkpoint: makeCheckpoint(runId, String(t % 10), t) });
    writes.push(...eventWrites(runId, 2 * t, 2 * t + 2));
  }
  return writes;
}

describe('file size', () => {
  it('grows linearly with the transitions and is given back by a prune', async () => {
    const file = join(folder.dir, 'runs.db');
    const store: SqliteRunStore = await openSqliteStore(file);
    await store.commit([
      runWrite(makeRun('keep', { createdAt: T0 + 1 })),
      runWrite(makeRun('old', { status: 'completed' })),
    ]);
    const empty = store.databaseBytes();
    const sizes: number[] = [];
    const step = 3000;
    for (let i = 0; i < 4; i++) {
      await store.commit(transitions('old', i * step, step));
      sizes.push(store.databaseBytes());
    }
    const growth = sizes.map((size, i) => size - (i === 0 ? empty : (sizes[i - 1] as number)));
    for (const g of growth) expect(g / (growth[0] as number)).toBeGreaterThan(0.8);
    for (const g of growth) expect(g / (growth[0] as number)).toBeLessThan(1.25);
    await store.commit(transitions('keep', 0, 20));
    const onDisk = store.size();
    const result = await store.prune({ olderThan: T0 + 1 });
    expect(result.runs).toBe(1);
    expect(result.reclaimedBytes).toBeGreaterThan(onDisk * 0.8);
    expect(statSync(file).size).toBeLessThan(onDisk * 0.1);
    expect(await store.readEvents('keep')).toHaveLength(40);
    await store.close();
  });
});

describe('loading better-sqlite3', () => {
  it('waits until a SQLite store is opened', () => {
    const script = `
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      const loaded = () => Object.keys(require.cache).some((path) => path.includes('better-sqlite3'));
      const store = await import('./src/store/index.ts');
      const before = loaded();
      const sqlite = await store.openSqliteStore(':memory:');
      await sqlite.close();
      process.stdout.write(JSON.stringify([before, loaded()]));
    `;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: join(import.meta.dirname, '..', '..'),
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual([false, true]);
  });
});
