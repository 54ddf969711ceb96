/**
 * The SQLite store's tables and their history. The schema version lives in the file's `user_version`; each
 * migration moves a file one version forward, and {@link migrate} runs the ones a file needs in one
 * transaction, so a file is either wholly at the old version or wholly at the new one.
 */
import type { Database } from 'better-sqlite3';
import { SwitchyardError } from '../errors.ts';
import { unpageUnkeyable } from './sqlite-migrate-pages.ts';

/** One step of the schema's history: the SQL that moves a file from `version - 1` to `version`. */
export interface Migration {
  readonly version: number;
  readonly sql: string;
  /** What the SQL cannot do, run in the same transaction just before it. */
  readonly before?: (db: Database) => void;
}

/** The schema version that adds the table of answers; a file read as it is at an older one holds none. */
export const ANSWERS_SINCE = 6;

/** The schema version from which pages of events are written by shape (see `sqlite-page-text.ts`). */
export const SHAPED_PAGES_SINCE = 7;

/**
 * The schema version from which each run has a number (`runs.num`) and a page of events is keyed by its
 * run's number and its first seq in one integer (see `MAX_PAGE_SEQ` in `sqlite-statements.ts`).
 */
export const NUMBERED_RUNS_SINCE = 8;

/**
 * Every migration, oldest first. Version 1 holds runs, checkpoints, journal entries and events; version 2
 * adds leases and the indexes that listing runs uses; version 3 adds pages of events, each row a JSON array
 * of `[seq, type, body]` spanning `first_seq` to `last_seq`, which never overlap each other nor an `events` row,
 * and rebuilds leases without a rowid, so that taking or giving up a lease writes one b-tree instead of two.
 * Version 4 drops the indexes of runs by status and by DAG, which every run's start and end wrote (a listing
 * filtered on them walks the runs newest first instead), and lets a page of events hold an event as its body
 * alone, without the run id its row holds, when the body carries its own `seq` and `type` (see `pageText`),
 * which a version 3 program would misread. Version 5 moves the lease into the run's row (its token, holder
 * and times as columns, empty when nobody holds it), so that taking, checking and giving up a lease touch the
 * b-tree a run's start and end write anyway, and adds `texts`: JSON texts many runs share (a document's
 * record, a policy), each kept once under the SHA-256 of its text, which a run's `dag`, `documents` or
 * `policy` column names as `#<hash>` (see `sqlite-texts.ts`), which a version 4 program would misread; a row
 * written before keeps its text in place. Version 6 adds `answers`: the answers to a run's awaits, one row per
 * token (`data` the JSON text of the answer's data, NULL when it carries none). Version 7 changes no table but
 * writes a page of events by shape (`sqlite-page-text.ts`): each order of keys once, each event as its values,
 * which a version 6 program would misread; pages written before keep their form and read as they did.
 * Version 8 numbers the runs (`num`, the rowid, with the id a unique key) and keys each page of events by
 * one integer, its run's number times 2^32 plus its first seq, in a table with no other index, so that a page
 * writes one b-tree instead of a table and its key, and always at its end (a run's number only grows,
 * where its id falls anywhere among the others); it lists runs by age from an index in ascending order, read
 * backwards for newest first, so that a new run's entry also goes at its end. Checkpoints, journal entries
 * and answers keep a rowid, so they read back in the order they were first written; an upsert keeps it.
 */
export const MIGRATIONS: readonly Migration[] = Object.freeze([
  {
    version: 1,
    sql: `
      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        dag_iri TEXT NOT NULL,
        dag_hash TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        finished_at INTEGER,
        format_version INTEGER NOT NULL,
        engine_version TEXT NOT NULL,
        dag TEXT NOT NULL,
        documents TEXT NOT NULL,
        policy TEXT NOT NULL,
        policy_hash TEXT NOT NULL,
        input TEXT NOT NULL,
        options TEXT NOT NULL
      );
      CREATE TABLE checkpoints (
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        item_id TEXT NOT NULL,
        status TEXT NOT NULL,
        record TEXT NOT NULL,
        UNIQUE (run_id, item_id)
      );
      CREATE TABLE journal (
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        item_path TEXT NOT NULL,
        step_key TEXT NOT NULL,
        value TEXT NOT NULL,
        committed_at INTEGER NOT NULL,
        UNIQUE (run_id, item_path, step_key)
      );
      CREATE TABLE events (
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    sql: `
      CREATE TABLE leases (
        run_id TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        token TEXT NOT NULL,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        acquired_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX runs_by_status ON runs (status, created_at DESC, id DESC);
      CREATE INDEX runs_by_dag ON runs (dag_iri, created_at DESC, id DESC);
      CREATE INDEX runs_by_age ON runs (created_at DESC, id DESC);
    `,
  },
  {
    version: 3,
    sql: `
      CREATE TABLE event_pages (
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        first_seq INTEGER NOT NULL,
        last_seq INTEGER NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (run_id, first_seq)
      );
      CREATE TABLE leases_v3 (
        run_id TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        token TEXT NOT NULL,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        acquired_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      INSERT INTO leases_v3 SELECT run_id, token, pid, host, acquired_at, expires_at FROM leases;
      DROP TABLE leases;
      ALTER TABLE leases_v3 RENAME TO leases;
    `,
  },
  {
    version: 4,
    sql: `
      DROP INDEX runs_by_status;
      DROP INDEX runs_by_dag;
    `,
  },
  {
    version: 5,
    sql: `
      ALTER TABLE runs ADD COLUMN lease_token TEXT;
      ALTER TABLE runs ADD COLUMN lease_pid INTEGER;
      ALTER TABLE runs ADD COLUMN lease_host TEXT;
      ALTER TABLE runs ADD COLUMN lease_acquired_at INTEGER;
      ALTER TABLE runs ADD COLUMN lease_expires_at INTEGER;
      UPDATE runs SET (lease_token, lease_pid, lease_host, lease_acquired_at, lease_expires_at) =
        (SELECT token, pid, host, acquired_at, expires_at FROM leases WHERE leases.run_id = runs.id)
        WHERE id IN (SELECT run_id FROM leases);
      DROP TABLE leases;
      CREATE TABLE texts (
        hash TEXT PRIMARY KEY,
        body TEXT NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: ANSWERS_SINCE,
    sql: `
      CREATE TABLE answers (
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        token TEXT NOT NULL,
        output TEXT NOT NULL,
        data TEXT,
        answered_at INTEGER NOT NULL,
        UNIQUE (run_id, token)
      );
    `,
  },
  { version: SHAPED_PAGES_SINCE, sql: '' },
  {
    version: NUMBERED_RUNS_SINCE,
    before: unpageUnkeyable,
    sql: `
      CREATE TABLE runs_v8 (
        num INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        dag_iri TEXT NOT NULL,
        dag_hash TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        finished_at INTEGER,
        format_version INTEGER NOT NULL,
        engine_version TEXT NOT NULL,
        dag TEXT NOT NULL,
        documents TEXT NOT NULL,
        policy TEXT NOT NULL,
        policy_hash TEXT NOT NULL,
        input TEXT NOT NULL,
        options TEXT NOT NULL,
        lease_token TEXT,
        lease_pid INTEGER,
        lease_host TEXT,
        lease_acquired_at INTEGER,
        lease_expires_at INTEGER
      );
      INSERT INTO runs_v8 (num, id, dag_iri, dag_hash, status, created_at, updated_at, finished_at,
        format_version, engine_version, dag, documents, policy, policy_hash, input, options, lease_token,
        lease_pid, lease_host, lease_acquired_at, lease_expires_at)
      SELECT rowid, id, dag_iri, dag_hash, status, created_at, updated_at, finished_at, format_version,
        engine_version, dag, documents, policy, policy_hash, input, options, lease_token, lease_pid, lease_host,
        lease_acquired_at, lease_expires_at
      FROM runs ORDER BY rowid;
      DROP TABLE runs;
      ALTER TABLE runs_v8 RENAME TO runs;
      CREATE INDEX runs_by_age ON runs (created_at, id);
      CREATE TABLE event_pages_v8 (
        key INTEGER PRIMARY KEY,
        last_seq INTEGER NOT NULL,
        body TEXT NOT NULL
      );
      INSERT INTO event_pages_v8 (key, last_seq, body)
      SELECT (runs.num << 32) + event_pages.first_seq, event_pages.last_seq, event_pages.body
      FROM event_pages JOIN runs ON runs.id = event_pages.run_id ORDER BY 1;
      DROP TABLE event_pages;
      ALTER TABLE event_pages_v8 RENAME TO event_pages;
    `,
  },
]);

/** The schema version this program writes and the highest it can read. */
export const SCHEMA_VERSION: number = (MIGRATIONS.at(-1) as Migration).version;

/**
 * The oldest schema version this program reads without migrating it: a file opened read-only (a listing, a
 * viewer) at a version from this one up to {@link SCHEMA_VERSION} is read as it is, since migrating needs a
 * writable connection. Version 4 differs only in where the lease is kept and in holding every text in place,
 * versions 4 and 5 in having no table of answers (read as no answers), versions 4 to 6 in the form of
 * their pages of events, which a reader tells apart by their text, and versions 4 to 7 in keying pages by
 * run id and first seq, which a reader of such a file reads them by.
 */
export const READABLE_FROM = 4;

/** The file's schema version (0 for a new, empty file). */
export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Moves the file forward to version `target` (the latest by default) in one immediate transaction, which also
 * takes the write lock: a file another process holds fails here, after the busy timeout, before anything is
 * written. Returns the version the file was at. `migrations` is the history to follow (the real one by default).
 */
export function migrate(
  db: Database,
  target: number = SCHEMA_VERSION,
  migrations: readonly Migration[] = MIGRATIONS,
): number {
  const run = db.transaction(() => {
    const from = schemaVersion(db);
    for (const migration of migrations) {
      if (migration.version > from && migration.version <= target) {
        migration.before?.(db);
        db.exec(migration.sql);
      }
    }
    if (target <= from) return from;
    db.pragma(`user_version = ${target}`);
    const broken = (db.pragma('foreign_key_check') as unknown[]).length;
    if (broken > 0) {
      throw new SwitchyardError(
        'E_STORE_CORRUPT',
        `${broken} row(s) of the store name a run it does not hold; the file was changed outside Switchyard`,
      );
    }
    return from;
  });
  // A migration that rebuilds a table drops the old one, which with foreign keys on would delete every row
  // naming it; so they are off while the migrations run (they cannot change inside a transaction), and the
  // transaction checks them before it commits.
  if (schemaVersion(db) >= target) return run.immediate();
  const foreignKeys = db.pragma('foreign_keys', { simple: true }) === 1;
  db.pragma('foreign_keys = OFF');
  try {
    return run.immediate();
  } finally {
    if (foreignKeys) db.pragma('foreign_keys = ON');
  }
}
