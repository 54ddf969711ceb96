/**
 * Loading better-sqlite3, the driver of the SQLite run store. Its compiled addon is built by its install
 * script, so an install without scripts (`npm install --ignore-scripts`, pnpm by default) has the package
 * and no addon, and the addon is loaded only when the first database opens: a missing or broken one is
 * found here, by opening a database in memory, and is one `E_MISSING_PACKAGE` line saying to rebuild it.
 */
import type Sqlite from 'better-sqlite3';
import { importOptional, SQLITE_DRIVER } from '../optional-import.ts';

/** better-sqlite3's `Database` class. */
export type SqliteDriver = typeof Sqlite;

let loading: Promise<SqliteDriver> | undefined;

/**
 * better-sqlite3's `Database` class, once its addon is known to load (checked once per process).
 * @example
 * const Sqlite = await loadSqliteDriver();
 * const db = new Sqlite('runs.db');
 */
export function loadSqliteDriver(): Promise<SqliteDriver> {
  loading ??= importOptional(
    SQLITE_DRIVER,
    async () => (await import('better-sqlite3')).default,
    (Driver) => new Driver(':memory:').close(),
  ).catch((error: unknown) => {
    // The addon may be rebuilt while a long-lived process (the web viewer) runs: the next open tries again.
    loading = undefined;
    throw error;
  });
  return loading;
}
