/**
 * What SQLite's failures mean for a store file, as one line each naming the file and what to do. Only the
 * failures a user can act on are turned into store errors; anything else is a bug and keeps its stack.
 */
import { SwitchyardError } from '../errors.ts';

/** The SQLite result code of an error from better-sqlite3 (`SQLITE_BUSY`, `SQLITE_CORRUPT_VTAB`…). */
function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
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

/** `file` (or its folder) cannot be written. */
export function readOnly(file: string, why: string, cause?: unknown): SwitchyardError {
  return new SwitchyardError(
    'E_STORE_READ_ONLY',
    `${file} cannot be written: ${why}; make it writable, or pass another store path`,
    { cause },
  );
}

/** `file` cannot be opened for a reason other than the ones above. */
export function cannotOpen(file: string, why: string, cause?: unknown): SwitchyardError {
  return new SwitchyardError('E_STORE_OPEN', `cannot open the run store ${file}: ${why}`, { cause });
}

/**
 * The store error a failure of SQLite on `file` means, or the failure itself when it is none of them.
 * `busyTimeoutMs` is how long the store waited for a lock before giving up.
 */
export function fromSqlite(error: unknown, file: string, busyTimeoutMs: number): unknown {
  const code = sqliteCode(error);
  if (code === undefined) return error;
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
  if (code.startsWith('SQLITE_READONLY')) return readOnly(file, message, error);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new SwitchyardError(
      'E_STORE_LOCKED',
      `${file} is locked by another process (waited ${busyTimeoutMs} ms); wait for it to finish, or pass another store path`,
      { cause: error },
    );
  }
  if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_IOERR') || code === 'SQLITE_FULL') {
    return cannotOpen(file, message, error);
  }
  return error;
}
