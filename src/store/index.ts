/**
 * Run stores: the {@link RunStore} interface and its records, the in-memory store, group commit, and the
 * SQLite store. Importing this module does not load better-sqlite3: {@link openSqliteStore} loads it on
 * its first call.
 */
export { createGroupCommitter, type GroupCommitter, type Schedule } from './group-commit.ts';
export { isLive } from './lease.ts';
export { createMemoryStore } from './memory.ts';
export { openSqliteStore, SqliteRunStore, type SqliteStoreOptions } from './sqlite.ts';
export { SCHEMA_VERSION } from './sqlite-schema.ts';
export type * from './types.ts';
