/**
 * What SQLite's failures mean for a store file, as one line each naming the file and what to do. Only the
 * failures a user can act on are turned into store errors; anything else is a bug and keeps its stack.
 */
import { SwitchyardError } from '../errors.ts';
import { type DiskRefusal, diskRefusal } from './disk-check.ts';

/** What the store was doing when SQLite failed, for the words of the error. */
export interface FailureScene {
  /** The store file. */
  readonly file: string;
  /**
   * The connection's busy timeout (ms). A call refused with plain `SQLITE_BUSY` waited it out whole: SQLite's
   * busy handler sleeps until it has, and only then gives up (every write begins IMMEDIATE, so a write never
   * holds a lock that would make SQLite refuse it without waiting).
   */
  readonly busyTimeoutMs: number;
  /** True while the file is being opened, false once it is in use. */
  readonly opening: boolean;
  /** The run a failed write was for, when it was for one: it can be resumed once the store takes writes. */
  readonly runId?: string | undefined;
}

/** The SQLite result code of an error from better-sqlite3 (`SQLITE_BUSY`, `SQLITE_CORRUPT_VTAB`…). */
function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/** What to do once the store takes writes again: resume the run a write was for, or use another store. */
function afterwards(runId: string | undefined, elsewhere: string): string {
  return runId === undefined
    ? `, or ${elsewhere}`
    : `, then resume run '${runId}' where it stopped (switchyard resume ${runId})`;
}

/** `file` is not an SQLite database at all. */
export function notADatabase(file: string, cause?: unknown): SwitchyardError {
  return new SwitchyardError(
    'E_STORE_NOT_A_DATABASE',
    `${file} is not a run store (it is not an SQLite database); pass another store path, or move the file away`,
    { cause },
  );
}

/** `file` was written by a newer Switchyard. */
export function tooNew(file: string, version: number, supported: number): SwitchyardError {
  return new SwitchyardError(
    'E_STORE_TOO_NEW',
    `${file} has store schema version ${version}, newer than the ${supported} this Switchyard reads; ` +
      'upgrade Switchyard, or pass another store path',
  );
}

/**
 * `file`, opened read-only at an older schema version and read as that version lays it out, was moved
 * forward by a writer since: its tables are no longer where this store reads them.
 */
export function schemaChanged(file: string, opened: number, now: number, cause: unknown): SwitchyardError {
  return new SwitchyardError(
    'E_STORE_SCHEMA_CHANGED',
    `${file} moved from store schema version ${opened} to ${now} while it was open read-only; open it again`,
    { cause },
  );
}

/** `file` (or its folder) cannot be written; `runId` names the run a failed write was for. */
export function readOnly(file: string, why: string, cause?: unknown, runId?: string): SwitchyardError {
  return new SwitchyardError(
    'E_STORE_READ_ONLY',
    `${file} cannot be written: ${why}; make it writable${afterwards(runId, 'pass another store path')}`,
    { cause },
  );
}

/** `file` cannot be opened for a reason other than the ones above. */
export function cannotOpen(file: string, why: string, cause?: unknown): SwitchyardError {
  return new SwitchyardError('E_STORE_OPEN', `cannot open the run store ${file}: ${why}`, { cause });
}

/** `file` cannot grow: its disk is full, or the user's quota on it is used up. */
export function full(
  file: string,
  why: 'ENOSPC' | 'EDQUOT',
  cause?: unknown,
  runId?: string,
): SwitchyardError {
  const message =
    why === 'EDQUOT'
      ? `${file} cannot be written: this user's disk quota is used up (EDQUOT); free space within the quota or raise it`
      : `${file} cannot be written: the disk it is on is full (ENOSPC); free space on that disk`;
  return new SwitchyardError(
    'E_STORE_FULL',
    `${message}${afterwards(runId, 'pass a store path on another disk')}`,
    {
      cause,
    },
  );
}

/** The store error of a write the file system refused for `refusal`. */
export function refused(
  refusal: DiskRefusal,
  file: string,
  cause?: unknown,
  runId?: string,
): SwitchyardError {
  switch (refusal) {
    case 'ENOSPC':
    case 'EDQUOT':
      return full(file, refusal, cause, runId);
    case 'EROFS':
      return readOnly(file, 'the file system it is on is mounted read-only (EROFS)', cause, runId);
    case 'EACCES':
      return readOnly(file, 'this process may not write it or its folder (EACCES)', cause, runId);
  }
}

/**
 * The store error a failure of SQLite means in `scene`, or the failure itself when it is none of them. A
 * write the disk refused is asked of the file system (see `disk-check.ts`), which says why.
 */
export function fromSqlite(error: unknown, scene: FailureScene): unknown {
  const code = sqliteCode(error);
  if (code === undefined) return error;
  const { file, runId } = scene;
  // SQLite's own text can span lines (an integrity report); a store error is one line.
  const message = (error as Error).message.replace(/\s+/g, ' ').trim();
  if (code === 'SQLITE_NOTADB') return notADatabase(file, error);
  if (code.startsWith('SQLITE_CORRUPT')) {
    return new SwitchyardError(
      'E_STORE_CORRUPT',
      `${file} is corrupt (${message}); move it away and start a new store, or try 'sqlite3 ${file} .recover'`,
      { cause: error },
    );
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    // The other codes of the class (`SQLITE_BUSY_SNAPSHOT`, `SQLITE_LOCKED`…) do not come from the busy
    // handler: no wait is claimed for them.
    const waited = code === 'SQLITE_BUSY' ? `waited ${scene.busyTimeoutMs} ms` : code;
    return new SwitchyardError(
      'E_STORE_LOCKED',
      `${file} is locked by another process (${waited}); wait for it to finish, or pass another store path`,
      { cause: error },
    );
  }
  const written =
    code === 'SQLITE_FULL' ||
    code.startsWith('SQLITE_READONLY') ||
    code.startsWith('SQLITE_IOERR') ||
    code.startsWith('SQLITE_CANTOPEN');
  if (!written) return error;
  // A private in-memory database has no folder to ask.
  const refusal = file === ':memory:' ? undefined : diskRefusal(file);
  if (refusal !== undefined) return refused(refusal, file, error, runId);
  // The disk takes writes again (space was freed meanwhile), or the failure was not the disk's refusal.
  if (code === 'SQLITE_FULL') return full(file, 'ENOSPC', error, runId);
  if (code.startsWith('SQLITE_READONLY')) return readOnly(file, message, error, runId);
  if (scene.opening) return cannotOpen(file, message, error);
  return new SwitchyardError(
    'E_STORE_IO',
    `${file} could not be written or read (${message}, ${code}); check the disk it is on (free space, quota, errors in the system log)${afterwards(runId, 'pass another store path')}`,
    { cause: error },
  );
}
