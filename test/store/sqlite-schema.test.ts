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
import { eventWrites, makeCheckpoint, makeEvent, makeRun, runWrite, T0 } from './fixtures.ts';

/** The code of the store error `promise` rejects with. */
async function codeOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: { code?: unknown }) => error.code,
  );
}

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

  it('move a version 2 file forward to event pages, reading its old event rows beside new pages', async () => {
    const file = join(folder.dir, 'v2.db');
    const { default: Database } = await import('better-sqlite3');
    const old = new Database(file);
    migrate(old, 2);
    old.pragma('journal_mode = WAL');
    old
      .prepare(
        `INSERT INTO runs (id, dag_iri, dag_hash, status, created_at, updated_at, finished_at, format_version,
           engine_version, dag, documents, policy, policy_hash, input, options)
         VALUES ('r1', 'urn:test:dag', 'h', 'running', ?, ?, NULL, 1, '0.0.1', ?, '[]', '{}', 'p', '[]', '{}')`,
      )
      .run(T0, T0, JSON.stringify({ iri: 'urn:test:dag', hash: 'h' }));
    const insert = old.prepare("INSERT INTO events (run_id, seq, type, body) VALUES ('r1', ?, 'route', ?)");
    for (const seq of [0, 1, 2]) insert.run(seq, JSON.stringify({ seq }));
    old.prepare("INSERT INTO leases VALUES ('r1', 'old-token', 7, 'h', ?, ?)").run(T0, T0 + 10);
    expect(old.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'event_pages'").pluck().get()).toBe(
      0,
    );
    old.close();

    const store = await openSqliteStore(file);
    expect(store.pragmas().userVersion).toBe(SCHEMA_VERSION);
    expect(await store.lastEventSeq('r1')).toBe(2);
    const page = [3, 4, 5].map((seq) => ({ runId: 'r1', seq, type: 'route', body: { seq } }));
    await store.commit([{ kind: 'events', runId: 'r1', events: page }]);
    expect((await store.readEvents('r1', { after: 1 })).map((e) => e.body)).toEqual(
      [2, 3, 4, 5].map((seq) => ({ seq })),
    );
    expect(await store.lastEventSeq('r1')).toBe(5);
    expect((await store.getLease('r1'))?.token).toBe('old-token');
    await store.close();
    const migrated = new Database(file, { readonly: true });
    const lease = migrated.prepare("SELECT lease_token, lease_pid FROM runs WHERE id = 'r1'").raw().get();
    expect(lease).toEqual(['old-token', 7]);
    migrated.close();
  });

  it('move a version 3 file forward, reading its pages of [seq, type, body] beside pages of bodies', async () => {
    const file = join(folder.dir, 'v3.db');
    const { default: Database } = await import('better-sqlite3');
    const old = new Database(file);
    migrate(old, 3);
    old.pragma('journal_mode = WAL');
    old
      .prepare(
        `INSERT INTO runs (id, dag_iri, dag_hash, status, created_at, updated_at, finished_at, format_version,
           engine_version, dag, documents, policy, policy_hash, input, options)
         VALUES ('r1', 'urn:test:dag', 'h', 'failed', ?, ?, NULL, 1, '0.0.1', ?, '[]', '{}', 'p', '[]', '{}')`,
      )
      .run(T0, T0, JSON.stringify({ iri: 'urn:test:dag', hash: 'h' }));
    const v3Page = [0, 1, 2].map((seq) => [seq, 'route', { type: 'route', seq, runId: 'r1' }]);
    old.prepare("INSERT INTO event_pages VALUES ('r1', 0, 2, ?)").run(JSON.stringify(v3Page));
    old.close();

    const store = await openSqliteStore(file);
    expect(store.pragmas().userVersion).toBe(SCHEMA_VERSION);
    // Bodies that carry their own seq, type and run id are kept by shape; any other body is kept whole.
    const page = [
      { runId: 'r1', seq: 3, type: 'route', body: { type: 'route', seq: 3, runId: 'r1' } },
      { runId: 'r1', seq: 4, type: 'route', body: { type: 'item.end', seq: 4 } },
      { runId: 'r1', seq: 5, type: 'route', body: [5] },
      { runId: 'r1', seq: 6, type: 'route', body: null },
      { runId: 'r1', seq: 7, type: 'route', body: fixedRunId({ type: 'route', seq: 7 }) },
    ];
    await store.commit([{ kind: 'events', runId: 'r1', events: page }]);
    // The body written without its run id is the caller's, unchanged once the commit is done.
    expect(Object.keys(page[0]?.body as object)).toEqual(['type', 'seq', 'runId']);
    const expected = [...v3Page.map(([seq, type, body]) => ({ runId: 'r1', seq, type, body })), ...page];
    expect(await store.readEvents('r1')).toEqual(expected);
    expect(await store.readEvents('r1', { after: 2, limit: 2 })).toEqual(page.slice(0, 2));
    expect((await store.listRuns({ status: 'failed' })).runs.map((run) => run.id)).toEqual(['r1']);
    expect((await store.listRuns({ dag: 'urn:test:dag', status: 'running' })).runs).toEqual([]);
    await store.close();
    const migrated = new Database(file, { readonly: true });
    // A page's key is its run's number times 2^32 plus its first seq.
    const stored = migrated.prepare('SELECT body FROM event_pages WHERE key % 4294967296 = 3').pluck().get();
    // Written by shape: each order of keys once, each event as a mask and its values; a body that does not
    // fit whole.
    expect(JSON.parse(stored as string)).toEqual({
      k: [['route', 'type', 'seq']],
      e: [
        [0, 0, 3],
        [-1, 4, 'route', { type: 'item.end', seq: 4 }],
        [-1, 5, 'route', [5]],
        [-1, 6, 'route', null],
        [0, 0, 7],
      ],
    });
    const indexes = migrated
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'runs' AND sql IS NOT NULL",
      )
      .pluck()
      .all();
    expect(indexes).toEqual(['runs_by_age']);
    migrated.close();
  });

  it('read a version 4 file read-only as it is, and move it forward when writable: its runs, leases and pages read as written, beside runs written after', async () => {
    const file = join(folder.dir, 'v4.db');
    const { default: Database } = await import('better-sqlite3');
    const old = new Database(file);
    migrate(old, 4);
    old.pragma('journal_mode = WAL');
    const document = { '@id': 'urn:test:dag', placements: Array.from({ length: 30 }, (_, i) => `p${i}`) };
    const policy = { defaults: { note: 'x'.repeat(200) } };
    const written = makeRun('r1', {
      dag: { iri: 'urn:test:dag', hash: 'h'.repeat(64), document },
      policy: { value: policy, hash: 'p'.repeat(64) },
    });
    // The row as a version 4 program writes it: every text in place.
    old
      .prepare(
        `INSERT INTO runs (id, dag_iri, dag_hash, status, created_at, updated_at, finished_at, format_version,
           engine_version, dag, documents, policy, policy_hash, input, options)
         VALUES ('r1', 'urn:test:dag', ?, 'running', ?, ?, NULL, 1, '0.1.0', ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        written.dag.hash,
        T0,
        T0,
        JSON.stringify(written.dag),
        JSON.stringify(written.documents),
        JSON.stringify(policy),
        written.policy.hash,
        JSON.stringify(written.input),
        JSON.stringify(written.options),
      );
    old.prepare("INSERT INTO leases VALUES ('r1', 'old-token', 7, 'h', ?, ?)").run(T0, T0 + 10);
    const checkpoint = makeCheckpoint('r1', '1');
    old
      .prepare("INSERT INTO checkpoints (run_id, item_id, status, record) VALUES ('r1', '1', ?, ?)")
      .run(checkpoint.status, JSON.stringify(checkpoint));
    const bodies = [0, 1, 2].map((seq) => ({ type: 'route', item: '1', seq, time: seq / 2 }));
    old.prepare("INSERT INTO event_pages VALUES ('r1', 0, 2, ?)").run(JSON.stringify(bodies));
    old.close();
    const events = bodies.map((body) => ({
      runId: 'r1',
      seq: body.seq,
      type: 'route',
      body: { ...body, runId: 'r1' },
    }));

    // Read-only (a listing, the viewer), it is read as it is, and left at version 4.
    const reader = await openSqliteStore(file, { readonly: true });
    expect(reader.pragmas().userVersion).toBe(4);
    expect(await reader.getRun('r1')).toEqual(written);
    expect((await reader.listRuns()).runs).toEqual([written]);
    expect(await reader.listCheckpoints('r1')).toEqual([checkpoint]);
    expect(await reader.readEvents('r1')).toEqual(events);
    expect((await reader.getLease('r1'))?.token).toBe('old-token');
    expect(await codeOf(reader.commit([runWrite(makeRun('r9'))]))).toBe('E_STORE_READ_ONLY');
    await reader.close();

    const store = await openSqliteStore(file);
    expect(store.pragmas().userVersion).toBe(SCHEMA_VERSION);
    expect(await store.getRun('r1')).toEqual(written);
    expect(await store.getCheckpoint('r1', '1')).toEqual(checkpoint);
    expect(await store.readEvents('r1')).toEqual(events);
    expect(await store.getLease('r1')).toEqual({
      runId: 'r1',
      token: 'old-token',
      pid: 7,
      host: 'h',
      acquiredAt: T0,
      expiresAt: T0 + 10,
    });
    // The old lease still fences: a batch under another token is refused, under its own it goes in.
    const lease = (await store.getLease('r1')) as NonNullable<Awaited<ReturnType<typeof store.getLease>>>;
    await expect(store.commit([{ kind: 'held', lease: { ...lease, token: 'other' } }])).rejects.toThrow(
      /lease/,
    );
    const page = [3, 4].map((seq) => ({
      runId: 'r1',
      seq,
      type: 'route',
      body: { type: 'route', item: '1', seq, runId: 'r1' },
    }));
    await store.commit([
      { kind: 'held', lease },
      { kind: 'events', runId: 'r1', events: page },
    ]);
    await store.commit([{ kind: 'release', lease }]);
    expect(await store.getLease('r1')).toBeUndefined();
    // A run written now shares the document and the policy texts; both runs read back whole.
    const next = makeRun('r2', { dag: written.dag, policy: written.policy, createdAt: T0 + 1 });
    await store.commit([runWrite(next)]);
    expect((await store.listRuns()).runs).toEqual([next, written]);
    expect((await store.readEvents('r1', { after: 2 })).map((event) => event.body)).toEqual(
      page.map((event) => event.body),
    );
    await store.close();
    const migrated = new Database(file, { readonly: true });
    expect(migrated.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'leases'").pluck().get()).toBe(
      0,
    );
    expect(migrated.prepare('SELECT count(*) FROM texts').pluck().get()).toBe(2);
    expect(
      migrated
        .prepare("SELECT substr(dag, 1, 1), substr(policy, 1, 1) FROM runs WHERE id = 'r2'")
        .raw()
        .get(),
    ).toEqual(['#', '#']);
    migrated.close();
  });

  it('tell a reader opened read-only at version 4 to open the file again once a writer moved it forward', async () => {
    const file = join(folder.dir, 'v4-moved.db');
    const { default: Database } = await import('better-sqlite3');
    const old = new Database(file);
    migrate(old, 4);
    old.pragma('journal_mode = WAL');
    old.close();
    const reader = await openSqliteStore(file, { readonly: true });
    expect(await reader.getLease('r1')).toBeUndefined();
    const writer = await openSqliteStore(file);
    expect(writer.pragmas().userVersion).toBe(SCHEMA_VERSION);
    await writer.close();
    const error = await reader.getLease('r1').then(
      () => undefined,
      (e: Error & { code?: unknown }) => e,
    );
    expect(error?.code).toBe('E_STORE_SCHEMA_CHANGED');
    expect(error?.message).toBe(
      `${file} moved from store schema version 4 to ${SCHEMA_VERSION} while it was open read-only; open it again`,
    );
    await reader.close();
  });

  it('read a version 5 file read-only as holding no answers, and give it its table of answers when writable', async () => {
    const file = join(folder.dir, 'v5.db');
    const { default: Database } = await import('better-sqlite3');
    const old = new Database(file);
    migrate(old, 5);
    old.pragma('journal_mode = WAL');
    old
      .prepare(
        `INSERT INTO runs (id, dag_iri, dag_hash, status, created_at, updated_at, finished_at, format_version,
           engine_version, dag, documents, policy, policy_hash, input, options)
         VALUES ('r1', 'urn:test:dag', 'h', 'running', ?, ?, NULL, 1, '0.1.0', ?, '[]', '{}', 'p', '[]', '{}')`,
      )
      .run(T0, T0, JSON.stringify({ iri: 'urn:test:dag', hash: 'h' }));
    expect(old.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'answers'").pluck().get()).toBe(0);
    old.close();

    const reader = await openSqliteStore(file, { readonly: true });
    expect(reader.pragmas().userVersion).toBe(5);
    expect(await reader.getAnswer('r1', 'aw-1')).toBeUndefined();
    expect(await reader.listAnswers('r1')).toEqual([]);
    expect((await reader.getRun('r1'))?.status).toBe('running');

    const store = await openSqliteStore(file);
    expect(store.pragmas().userVersion).toBe(SCHEMA_VERSION);
    const answer = { runId: 'r1', token: 'aw-1', output: 'approved', data: { by: 'ed' }, answeredAt: T0 + 1 };
    await store.commit([
      { kind: 'run-status', update: { runId: 'r1', status: 'waiting', at: T0 + 1 } },
      { kind: 'answer', answer },
    ]);
    expect(await store.listAnswers('r1')).toEqual([answer]);
    expect(await codeOf(store.commit([{ kind: 'answer', answer: { ...answer, output: 'x' } }]))).toBe(
      'E_STORE_CONFLICT',
    );
    await store.close();
    // The reader opened before sees the answers once the table is there.
    expect(await reader.getAnswer('r1', 'aw-1')).toEqual(answer);
    await reader.close();
    const migrated = new Database(file, { readonly: true });
    expect(migrated.prepare('SELECT token, output, data FROM answers').raw().all()).toEqual([
      ['aw-1', 'approved', '{"by":"ed"}'],
    ]);
    migrated.close();
  });

  it('read a version 6 file read-only as it is, its lease and pages of bodies, and write pages by shape beside them once writable', async () => {
    const file = join(folder.dir, 'v6.db');
    const { default: Database } = await import('better-sqlite3');
    const old = new Database(file);
    migrate(old, 6);
    old.pragma('journal_mode = WAL');
    old
      .prepare(
        `INSERT INTO runs (id, dag_iri, dag_hash, status, created_at, updated_at, finished_at, format_version,
           engine_version, dag, documents, policy, policy_hash, input, options, lease_token, lease_pid,
           lease_host, lease_acquired_at, lease_expires_at)
         VALUES ('r1', 'urn:test:dag', 'h', 'running', ?, ?, NULL, 1, '0.1.0', ?, '[]', '{}', 'p', '[]', '{}',
           'old-token', 7, 'h', ?, ?)`,
      )
      .run(T0, T0, JSON.stringify({ iri: 'urn:test:dag', hash: 'h' }), T0, T0 + 10);
    // A version 6 page: bodies alone without their run id, and a [seq, type, body] entry.
    const v6Page = [
      { type: 'route', item: '1', seq: 0, time: 0.5 },
      [1, 'route', { type: 'item.end', seq: 1 }],
    ];
    old.prepare("INSERT INTO event_pages VALUES ('r1', 0, 1, ?)").run(JSON.stringify(v6Page));
    old.close();
    const v6Events = [
      {
        runId: 'r1',
        seq: 0,
        type: 'route',
        body: { type: 'route', item: '1', seq: 0, time: 0.5, runId: 'r1' },
      },
      { runId: 'r1', seq: 1, type: 'route', body: { type: 'item.end', seq: 1 } },
    ];

    const reader = await openSqliteStore(file, { readonly: true });
    expect(reader.pragmas().userVersion).toBe(6);
    expect(await reader.readEvents('r1')).toEqual(v6Events);
    expect((await reader.getLease('r1'))?.token).toBe('old-token');

    const store = await openSqliteStore(file);
    expect(store.pragmas().userVersion).toBe(SCHEMA_VERSION);
    const page = [2, 3, 4].map((seq) => ({
      runId: 'r1',
      seq,
      type: seq === 4 ? 'item.end' : 'route',
      body: {
        type: seq === 4 ? 'item.end' : 'route',
        item: '1',
        reason: undefined,
        seq,
        time: seq / 4,
        runId: 'r1',
      },
    }));
    await store.commit([{ kind: 'events', runId: 'r1', events: page }]);
    const written = page.map((event) => ({ ...event, body: JSON.parse(JSON.stringify(event.body)) }));
    expect(await store.readEvents('r1')).toEqual([...v6Events, ...written]);
    expect(await store.readEvents('r1', { after: 1, limit: 2 })).toEqual(written.slice(0, 2));
    await store.close();
    // The reader opened before sees the file's tables rebuilt under it; opened again, it reads the pages
    // written by shape too.
    expect(await codeOf(reader.readEvents('r1', { after: 2 }))).toBe('E_STORE_SCHEMA_CHANGED');
    await reader.close();
    const again = await openSqliteStore(file, { readonly: true });
    expect(await again.readEvents('r1', { after: 2 })).toEqual(written.slice(1));
    await again.close();
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
    await expect(openSqliteStore(file, { readonly: true })).rejects.toThrow(
      new RegExp(`needs migrating to ${SCHEMA_VERSION}`),
    );
  });
});

describe('event pages', () => {
  it('are kept as one row each; a page of one event as an events row', async () => {
    const file = join(folder.dir, 'pages.db');
    const store = await openSqliteStore(file);
    const page = Array.from({ length: 50 }, (_, seq) => makeEvent('r1', seq));
    await store.commit([runWrite(makeRun('r1')), { kind: 'events', runId: 'r1', events: page }]);
    await store.commit([{ kind: 'events', runId: 'r1', events: [makeEvent('r1', 50)] }]);
    await store.close();
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(file, { readonly: true });
    const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
    expect([count('event_pages'), count('events')]).toEqual([1, 1]);
    // Keyed by the run's number times 2^32 plus the first seq.
    const num = db.prepare("SELECT num FROM runs WHERE id = 'r1'").pluck().get() as number;
    expect(db.prepare('SELECT key, last_seq FROM event_pages').get()).toEqual({
      key: num * 2 ** 32,
      last_seq: 49,
    });
    db.close();
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

/** `body` with a run id `r1` that cannot be deleted. */
function fixedRunId(body: Record<string, unknown>): Record<string, unknown> {
  return Object.defineProperty(body, 'runId', { value: 'r1', enumerable: true, configurable: false });
}
