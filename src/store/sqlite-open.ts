/**
 * Opening a store file: checks made before SQLite touches it, then checks through SQLite before anything is
 * written, then the settings and the migration. Any refusal closes the connection and leaves the file as it
 * was.
 */
import { resolve } from 'node:path';
import type { Database } from 'better-sqlite3';
import { isSwitchyardError, SwitchyardError } from '../errors.ts';
import { loadSqliteDriver } from './sqlite-driver.ts';
import { cannotOpen, type FailureScene, fromSqlite, readOnly, tooNew } from './sqlite-errors.ts';
import { checkStoreFile } from './sqlite-files.ts';
import { migrate, READABLE_FROM, SCHEMA_VERSION, schemaVersion } from './sqlite-schema.ts';

/** How a store file is opened. */
export interface SqliteStoreOptions {
  /** Open for reading only: every write fails with `E_STORE_READ_ONLY`. Default false. */
  readonly readonly?: boolean;
  /** How long to wait for a lock another process holds before failing with `E_STORE_LOCKED`. Default 5000 ms. */
  readonly busyTimeoutMs?: number;
  /**
   * `normal` (the default) survives a crash of the process, which is what a resume needs: in WAL mode a
   * commit is in the log once its transaction ends, and the log is synced only when it is checkpointed into
   * the file, so a power cut or an OS crash may lose the last commits (never corrupt the file). `full` also
   * survives those, at the cost of a sync per transaction.
   */
  readonly synchronous?: 'normal' | 'full';
  /** Check every page at open (`PRAGMA quick_check`), which takes time in proportion to the file. Default false. */
  readonly integrityCheck?: boolean;
}

/** The options with their defaults filled in. */
export type ResolvedSqliteOptions = Required<SqliteStoreOptions>;

/** The defaults of {@link SqliteStoreOptions}. */
export const defaultSqliteOptions: ResolvedSqliteOptions = Object.freeze({
  readonly: false,
  busyTimeoutMs: 5000,
  synchronous: 'normal',
  integrityCheck: false,
});

/** An open, checked and migrated connection. */
export interface OpenedFile {
  readonly db: Database;
  readonly file: string;
  readonly options: ResolvedSqliteOptions;
  /** The file's schema version once open: the latest, or an older one read as it is (read-only). */
  readonly version: number;
}

/** True for the path SQLite takes as a private in-memory database. */
export function isMemoryPath(path: string): boolean {
  return path === ':memory:';
}

/**
 * Opens `path` as a store: refuses a file that is not a database, is corrupt, is read-only (unless opened
 * read-only), is locked past the busy timeout, or has a newer schema; migrates an older one forward.
 * better-sqlite3 is loaded here, on first use, so that importing the store costs nothing; a missing or broken
 * addon is `E_MISSING_PACKAGE` (see sqlite-driver.ts).
 */
export async function openStoreFile(path: string, options: SqliteStoreOptions = {}): Promise<OpenedFile> {
  const resolved: ResolvedSqliteOptions = { ...defaultSqliteOptions, ...options };
  const memory = isMemoryPath(path);
  const file = memory ? path : resolve(path);
  const exists = !memory && checkStoreFile(file, SCHEMA_VERSION, resolved.readonly);
  const Sqlite = await loadSqliteDriver();
  const failed = (error: unknown, readonly: boolean) =>
    failure(error, { file, busyTimeoutMs: resolved.busyTimeoutMs, opening: true }, readonly);
  const connect = (readonly: boolean): Database => {
    try {
      return new Sqlite(file, { readonly, fileMustExist: readonly, timeout: resolved.busyTimeoutMs });
    } catch (error) {
      throw failed(error, readonly);
    }
  };
  // A writable connection that closes checkpoints the write-ahead log into the file, so an existing file is
  // first read through a read-only one, which never writes: a refusal then leaves the file as it was.
  if (exists && !resolved.readonly) {
    const probe = connect(true);
    try {
      inspect(probe, file, resolved);
    } catch (error) {
      throw failed(error, true);
    } finally {
      probe.close();
    }
  }
  const db = connect(resolved.readonly && !memory);
  let version: number;
  try {
    version = inspect(db, file, { ...resolved, integrityCheck: resolved.integrityCheck && !exists });
    configure(db, file, version, resolved);
  } catch (error) {
    db.close();
    throw failed(error, db.readonly);
  }
  return { db, file, options: resolved, version: db.readonly ? version : schemaVersion(db) };
}

/**
 * The store error of a failure while opening. A read-only connection to a file in WAL mode must create the
 * shared-memory file beside it, so on a read-only folder or mount it cannot even read; that is said plainly,
 * unless the disk is full.
 */
function failure(error: unknown, scene: FailureScene, readonly: boolean): unknown {
  const refusal = fromSqlite(error, scene);
  const cantOpen = readonly && (error as { code?: unknown } | null)?.code === 'SQLITE_CANTOPEN';
  if (!cantOpen || (isSwitchyardError(refusal) && refusal.code === 'E_STORE_FULL')) return refusal;
  return cannotOpen(
    scene.file,
    'SQLite cannot create its shared-memory file beside it, which it needs even to read a store in WAL mode; ' +
      'copy the store to a writable folder',
    error,
  );
}

/** The checks that only read: the header, the schema, the version and, on request, every page. */
function inspect(db: Database, file: string, options: ResolvedSqliteOptions): number {
  const version = schemaVersion(db);
  // Parsing the schema reads page 1 whole: a damaged one fails here.
  db.prepare('SELECT count(*) FROM sqlite_schema').get();
  if (version > SCHEMA_VERSION) throw tooNew(file, version, SCHEMA_VERSION);
  if (options.integrityCheck) checkIntegrity(db);
  return version;
}

/**
 * Log pages after which a commit copies the write-ahead log into the file (SQLite's default is 1000). A
 * checkpoint copies each page changed since the one before and syncs both files; with a longer log, a page
 * that many commits change (the last leaf of a table or an index) is copied once for all of them, and the
 * syncs are rarer. The log grows to about 40 MB (4 KiB pages) before it starts over, and is removed when the
 * last connection closes.
 */
const WAL_CHECKPOINT_PAGES = 10_000;

/**
 * Settings and migrations, once every check has passed. WAL lets other processes read (a listing, a resume
 * checking the lease) while a run writes; each commit then costs SQLite's locks on the shared-memory file
 * and a write per changed page, which is why callers batch their writes. Exclusive locking would save the
 * locks but shut every other process out of the file, lease checks included.
 */
function configure(db: Database, file: string, version: number, options: ResolvedSqliteOptions): void {
  db.pragma('foreign_keys = ON');
  if (db.readonly) {
    if (version < READABLE_FROM) {
      throw readOnly(
        file,
        `it has schema version ${version} and needs migrating to ${SCHEMA_VERSION} (open it writable once)`,
      );
    }
    return;
  }
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  migrate(db);
}

function checkIntegrity(db: Database): void {
  const found = db.pragma('quick_check(1)', { simple: true });
  if (found !== 'ok') {
    throw Object.assign(new Error(`integrity check: ${String(found)}`), { code: 'SQLITE_CORRUPT' });
  }
}

/** Fails with `E_STORE_READ_ONLY` when the connection cannot write. */
export function assertWritable(db: Database, file: string): void {
  if (db.readonly)
    throw new SwitchyardError(
      'E_STORE_READ_ONLY',
      `${file} was opened read-only; open it without readonly to write runs`,
    );
}
