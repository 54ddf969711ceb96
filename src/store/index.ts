/**
 * Run stores: the {@link RunStore} interface and its records, the in-memory store, group commit, the
 * SQLite store and the Redis store. Importing this module loads neither better-sqlite3 nor ioredis:
 * {@link openSqliteStore} and {@link openRedisStore} load them on their first call.
 */
export { createGroupCommitter, type GroupCommitter, type Schedule } from './group-commit.ts';
export { isLive } from './lease.ts';
export { createMemoryStore } from './memory.ts';
export { openRedisStore, RedisRunStore, type RedisStoreOptions } from './redis.ts';
export { openSqliteStore, SqliteRunStore, type SqliteStoreOptions } from './sqlite.ts';
export { SCHEMA_VERSION } from './sqlite-schema.ts';
export type * from './types.ts';
