/**
 * Schema version 8: a version 7 file (runs, a lease, checkpoints, journal entries, answers, single events and
 * pages of events) reads the same read-only as it is, and once migrated; runs are numbered, pages keyed by
 * their run's number and first seq, and a prune still deletes a run's pages with it.
 */
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteRunStore } from '../../src/store/sqlite.ts';
import { pageText } from '../../src/store/sqlite-page-text.ts';
import { MIGRATIONS, migrate, SCHEMA_VERSION, schemaVersion } from '../../src/store/sqlite-schema.ts';
import { prepareStatements } from '../../src/store/sqlite-statements.ts';
import { applyBatch } from '../../src/store/sqlite-writes.ts';
import type { EventRecord, StoreWrite } from '../../src/store/types.ts';
import { tempFolder } from './files.ts';
import { makeCheckpoint, makeEvent, makeRun, runWrite, T0 } from './fixtures.ts';

let folder: ReturnType<typeof tempFolder>;
beforeEach(() => {
  folder = tempFolder();
});
afterEach(() => folder.remove());

const RUNS = ['r1', 'r2', 'r3'] as const;

/** Engine-shaped events `from` to `to - 1` of `runId`, as a page holds them by shape. */
function engineEvents(runId: string, from: number, to: number): EventRecord[] {
  const events: EventRecord[] = [];
  for (let seq = from; seq < to; seq++) {
    const body = { type: 'placement.start', item: '1', dag: 'urn:test:dag', placement: `p${seq % 3}` };
    events.push({
      runId,
      seq,
      type: 'placement.start',
      body: { ...body, visit: seq, seq, time: seq / 7, runId },
    });
  }
  return events;
}

/**
 * Writes to `db`, a file at version 7, what a version 7 program would: rows through the statements both
 * versions share, events and pages as that version keeps them.
 */
function fillVersion7(db: Database): void {
  const sql = prepareStatements(db, 7);
  const lease = { runId: 'r1', token: 'tok-1', pid: 42, host: 'h1', acquiredAt: T0, expiresAt: T0 + 60_000 };
  const writes: StoreWrite[] = [
    // Created out of order, so that listing newest first is not the order of insertion.
    runWrite(makeRun('r1', { createdAt: T0 + 20 })),
    { kind: 'lease', lease },
    runWrite(makeRun('r2', { createdAt: T0 + 30, status: 'completed', finishedAt: T0 + 31 })),
    runWrite(makeRun('r3', { createdAt: T0 + 10, input: [{ text: 'x'.repeat(3000) }] })),
    { kind: 'checkpoint', checkpoint: makeCheckpoint('r1', '2') },
    { kind: 'checkpoint', checkpoint: makeCheckpoint('r1', '1') },
    { kind: 'checkpoint', checkpoint: { ...makeCheckpoint('r1', '2', 3), status: 'ended' } },
    { kind: 'checkpoint', checkpoint: makeCheckpoint('r2', '1') },
    {
      kind: 'journal',
      entry: { runId: 'r1', itemPath: '1', stepKey: 'charge', value: '"ok"', committedAt: T0 },
    },
    { kind: 'journal', entry: { runId: 'r1', itemPath: '2', stepKey: 'a', value: '1', committedAt: T0 + 1 } },
    {
      kind: 'answer',
      answer: { runId: 'r1', token: 'aw-1', output: 'approved', data: { by: 'ed' }, answeredAt: T0 },
    },
  ];
  db.transaction(() => applyBatch(sql, writes))();
  const event = db.prepare('INSERT INTO events (run_id, seq, type, body) VALUES (?, ?, ?, ?)');
  for (const e of [makeEvent('r1', 5), makeEvent('r2', 0)])
    event.run(e.runId, e.seq, e.type, JSON.stringify(e.body));
  const page = db.prepare('INSERT INTO event_pages (run_id, first_seq, last_seq, body) VALUES (?, ?, ?, ?)');
  for (const [runId, from, to] of [
    ['r1', 0, 5],
    ['r1', 6, 40],
    ['r2', 1, 4],
    ['r3', 0, 3],
  ] as const) {
    page.run(runId, from, to - 1, pageText(runId, engineEvents(runId, from, to), 'the page'));
  }
}

/** Everything the store reads of the runs of {@link fillVersion7}. */
async function everything(store: SqliteRunStore): Promise<unknown> {
  const runs = [];
  for (const id of RUNS) {
    runs.push({
      run: await store.getRun(id),
      lease: await store.getLease(id),
      checkpoints: await store.listCheckpoints(id),
      ended: await store.listCheckpoints(id, 'ended'),
      journal: await store.listJournal(id),
      answers: await store.listAnswers(id),
      events: await store.readEvents(id),
      after: await store.readEvents(id, { after: 5, limit: 3 }),
      inPage: await store.readEvents(id, { after: 12, limit: 2 }),
      last: await store.lastEventSeq(id),
    });
  }
  const listed = (await store.listRuns()).runs.map((run) => run.id);
  const older = (await store.listRuns({ limit: 1 })).next;
  return { runs, listed, older };
}

/** A version 7 file filled by {@link fillVersion7}, closed. */
async function version7File(name: string): Promise<string> {
  const file = join(folder.dir, name);
  const { default: Sqlite } = await import('better-sqlite3');
  const db = new Sqlite(file);
  db.pragma('foreign_keys = ON');
  migrate(db, 7);
  db.pragma('journal_mode = WAL');
  fillVersion7(db);
  db.close();
  return file;
}

describe('a page of events at version 8', () => {
  it('whose seqs its key cannot hold is kept as single events, apart from the pages of the run before', async () => {
    const file = join(folder.dir, 'seqs.db');
    const store = await openSqliteStore(file);
    await store.commit([runWrite(makeRun('a')), runWrite(makeRun('b'))]);
    await store.commit([{ kind: 'events', runId: 'a', events: engineEvents('a', 0, 4) }]);
    const odd = (seqs: readonly number[]): EventRecord[] =>
      seqs.map((seq) => ({ runId: 'b', seq, type: 'route', body: { type: 'route', seq, runId: 'b' } }));
    // Below 0, not whole, and past 2^32 - 1: none can be a page's key, which would fall in run a's range.
    const pages = [odd([-3, -2]), odd([0.5, 1, 1.5]), odd([2, 2 ** 32, 2 ** 32 + 1])];
    for (const events of pages) await store.commit([{ kind: 'events', runId: 'b', events }]);
    expect((await store.readEvents('b')).map((e) => e.seq)).toEqual([
      -3,
      -2,
      0.5,
      1,
      1.5,
      2,
      2 ** 32,
      2 ** 32 + 1,
    ]);
    expect((await store.readEvents('b', { after: 1 })).map((e) => e.seq)).toEqual([
      1.5,
      2,
      2 ** 32,
      2 ** 32 + 1,
    ]);
    expect(await store.lastEventSeq('b')).toBe(2 ** 32 + 1);
    expect((await store.readEvents('a')).map((e) => e.seq)).toEqual([0, 1, 2, 3]);
    expect(await store.lastEventSeq('a')).toBe(3);
    await expect(store.commit([{ kind: 'events', runId: 'b', events: odd([1, 3]) }])).rejects.toMatchObject({
      code: 'E_STORE_CONFLICT',
    });
    await store.close();
    const { default: Sqlite } = await import('better-sqlite3');
    const db = new Sqlite(file, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM event_pages').pluck().get()).toBe(1);
    db.close();
  });
});

describe('a version 7 file', () => {
  it('reads the same read-only as it is and once migrated to 8, its pages keyed by run number and first seq', async () => {
    expect(SCHEMA_VERSION).toBe(8);
    const file = await version7File('v7.db');
    const reader = await openSqliteStore(file, { readonly: true });
    expect(reader.pragmas().userVersion).toBe(7);
    const before = await everything(reader);
    await reader.close();
    expect((before as { listed: string[] }).listed).toEqual(['r2', 'r1', 'r3']);
    expect(((before as { runs: { events: unknown[] }[] }).runs[0]?.events ?? []).length).toBe(40);

    const store = await openSqliteStore(file);
    expect(store.pragmas()).toEqual({ journalMode: 'wal', userVersion: 8, foreignKeys: true });
    expect(await everything(store)).toEqual(before);
    await store.close();

    const { default: Sqlite } = await import('better-sqlite3');
    const db = new Sqlite(file, { readonly: true });
    const nums = db.prepare('SELECT id, num FROM runs ORDER BY num').raw().all();
    // Numbered in the order the runs were first written.
    expect(nums).toEqual([
      ['r1', 1],
      ['r2', 2],
      ['r3', 3],
    ]);
    const keys = db.prepare('SELECT key, last_seq FROM event_pages ORDER BY key').raw().all();
    expect(keys).toEqual([
      [1 * 2 ** 32 + 0, 4],
      [1 * 2 ** 32 + 6, 39],
      [2 * 2 ** 32 + 1, 3],
      [3 * 2 ** 32 + 0, 2],
    ]);
    expect(
      (db.pragma('index_xinfo(runs_by_age)') as { name: string | null; desc: number }[]).map((c) => [
        c.name,
        c.desc,
      ]),
    ).toEqual([
      ['created_at', 0],
      ['id', 0],
      [null, 0],
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.close();
  });

  it('once migrated, takes new pages after the old ones and prunes a run with its pages alone', async () => {
    const file = await version7File('prune.db');
    const store = await openSqliteStore(file);
    const more = engineEvents('r1', 40, 45);
    await store.commit([{ kind: 'events', runId: 'r1', events: more }]);
    await expect(
      store.commit([{ kind: 'events', runId: 'r1', events: engineEvents('r1', 30, 42) }]),
    ).rejects.toMatchObject({
      code: 'E_STORE_CONFLICT',
    });
    expect((await store.readEvents('r1', { after: 38 })).map((e) => e.seq)).toEqual([39, 40, 41, 42, 43, 44]);
    const r3 = await store.readEvents('r3');
    expect((await store.prune({ olderThan: T0 + 31 })).runs).toBe(1);
    expect(await store.getRun('r2')).toBeUndefined();
    expect(await store.readEvents('r2')).toEqual([]);
    expect(await store.readEvents('r3')).toEqual(r3);
    expect((await store.readEvents('r1')).length).toBe(45);
    // A run made after the prune has pages of its own, whatever number it is given.
    await store.commit([
      runWrite(makeRun('r4')),
      { kind: 'events', runId: 'r4', events: engineEvents('r4', 0, 3) },
    ]);
    expect((await store.readEvents('r4')).map((e) => e.seq)).toEqual([0, 1, 2]);
    await store.close();
  });

  it('that holds a row naming a missing run is left at 7 by the migration, refused as changed outside', async () => {
    const file = await version7File('orphan.db');
    const { default: Sqlite } = await import('better-sqlite3');
    const db = new Sqlite(file);
    db.pragma('foreign_keys = OFF');
    db.prepare(
      "INSERT INTO checkpoints (run_id, item_id, status, record) VALUES ('gone', '1', 'waiting', '{}')",
    ).run();
    db.close();
    await expect(openSqliteStore(file)).rejects.toMatchObject({ code: 'E_STORE_CORRUPT' });
    const again = new Sqlite(file, { readonly: true });
    expect(schemaVersion(again)).toBe(7);
    expect(again.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'runs_v8'").pluck().get()).toBe(0);
    again.close();
  });

  it('is migrated with foreign keys left as they were on the connection', async () => {
    const { default: Sqlite } = await import('better-sqlite3');
    const off = new Sqlite(':memory:');
    off.pragma('foreign_keys = OFF');
    migrate(off, 7);
    migrate(off, 8, MIGRATIONS);
    expect(off.pragma('foreign_keys', { simple: true })).toBe(0);
    off.close();
    const on = new Sqlite(':memory:');
    on.pragma('foreign_keys = ON');
    migrate(on);
    expect(on.pragma('foreign_keys', { simple: true })).toBe(1);
    on.close();
  });
});

describe('a version 7 file with pages whose first seq a version 8 key cannot hold', () => {
  it('migrates to 8 with every run reading the events it read at 7, and none of another run', async () => {
    const file = join(folder.dir, 'odd-seqs.db');
    const { default: Sqlite } = await import('better-sqlite3');
    const db = new Sqlite(file);
    db.pragma('foreign_keys = ON');
    migrate(db, 7);
    const sql = prepareStatements(db, 7);
    db.transaction(() =>
      applyBatch(sql, [runWrite(makeRun('a')), runWrite(makeRun('b')), runWrite(makeRun('c'))]),
    )();
    const odd = (runId: string, seqs: readonly number[]): EventRecord[] =>
      seqs.map((seq) => ({ runId, seq, type: 'route', body: { type: 'route', seq, runId } }));
    const page = db.prepare(
      'INSERT INTO event_pages (run_id, first_seq, last_seq, body) VALUES (?, ?, ?, ?)',
    );
    // What a version 7 program wrote for a page of more than one event, whatever its seqs.
    const pages: [string, number[]][] = [
      ['a', [0, 1]],
      ['b', [-3, -2]],
      ['b', [0.5, 1]],
      ['b', [2 ** 32, 2 ** 32 + 1]],
      ['c', [0, 1]],
    ];
    for (const [runId, seqs] of pages) {
      page.run(runId, seqs[0], seqs.at(-1), pageText(runId, odd(runId, seqs), 'the page'));
    }
    db.close();
    const reader = await openSqliteStore(file, { readonly: true });
    const before = [];
    for (const id of ['a', 'b', 'c']) before.push((await reader.readEvents(id)).map((e) => e.seq));
    await reader.close();
    expect(before).toEqual([
      [0, 1],
      [-3, -2, 0.5, 1, 2 ** 32, 2 ** 32 + 1],
      [0, 1],
    ]);
    const store = await openSqliteStore(file);
    const after = [];
    for (const id of ['a', 'b', 'c']) after.push((await store.readEvents(id)).map((e) => e.seq));
    expect(after).toEqual(before);
    expect(await store.lastEventSeq('a')).toBe(1);
    expect(await store.lastEventSeq('b')).toBe(2 ** 32 + 1);
    await store.close();
  });
});

describe('page keys of a run numbered past 2^21', () => {
  it('are exact: every page is written and read back, none taken for another', async () => {
    const file = join(folder.dir, 'many.db');
    let store = await openSqliteStore(file);
    await store.commit([runWrite(makeRun('old'))]);
    await store.close();
    const { default: Sqlite } = await import('better-sqlite3');
    const db = new Sqlite(file);
    // As in a store that has numbered two million runs: its next run's key is past 2^53.
    db.prepare("UPDATE runs SET num = ? WHERE id = 'old'").run(2 ** 21);
    db.close();
    store = await openSqliteStore(file);
    await store.commit([runWrite(makeRun('a'))]);
    for (const [from, to] of [
      [0, 3],
      [3, 5],
      [5, 7],
      [7, 10],
    ] as const) {
      await store.commit([{ kind: 'events', runId: 'a', events: engineEvents('a', from, to) }]);
    }
    await store.commit([{ kind: 'event', event: makeEvent('a', 10) }]);
    const seqs = Array.from({ length: 11 }, (_, i) => i);
    expect((await store.readEvents('a')).map((e) => e.seq)).toEqual(seqs);
    for (let after = 0; after < 11; after++) {
      expect((await store.readEvents('a', { after, limit: 2 })).map((e) => e.seq)).toEqual(
        seqs.slice(after + 1, after + 3),
      );
    }
    await expect(
      store.commit([{ kind: 'events', runId: 'a', events: engineEvents('a', 4, 6) }]),
    ).rejects.toMatchObject({ code: 'E_STORE_CONFLICT' });
    await expect(store.commit([{ kind: 'event', event: makeEvent('a', 6) }])).rejects.toMatchObject({
      code: 'E_STORE_CONFLICT',
    });
    expect(await store.lastEventSeq('a')).toBe(10);
    await store.close();
  });
});
