/**
 * Checks on a store file made before SQLite opens it, by reading its header and its modes only, so that a
 * file that is not a database, is too new or is read-only is refused without a single byte written to it.
 */
import {
  accessSync,
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readSync,
  type Stats,
  statSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { refusalOf } from './disk-check.ts';
import { cannotOpen, notADatabase, readOnly, refused, tooNew } from './sqlite-errors.ts';

/** Every SQLite 3 file starts with these 16 bytes. */
const MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
/** The header is 100 bytes; `user_version` is the big-endian 32-bit number at offset 60. */
const HEADER_SIZE = 100;
const USER_VERSION_OFFSET = 60;

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw cannotOpen(path, (error as Error).message, error);
  }
}

/** The first bytes of `file`, up to the header's size. */
function readHeader(file: string): Buffer {
  const header = Buffer.alloc(HEADER_SIZE);
  const fd = openSync(file, 'r');
  try {
    return header.subarray(0, readSync(fd, header, 0, HEADER_SIZE, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * Refuses a file that is not SQLite, or whose schema version is above `supported`. An empty file is a new
 * store, as SQLite takes it.
 */
export function checkHeader(file: string, supported: number): void {
  const header = readHeader(file);
  if (header.length === 0) return;
  if (header.length < HEADER_SIZE || !header.subarray(0, MAGIC.length).equals(MAGIC))
    throw notADatabase(file);
  const version = header.readUInt32BE(USER_VERSION_OFFSET);
  if (version > supported) throw tooNew(file, version, supported);
}

/**
 * Refuses to write where the user said no: a file or folder with no write permission bit at all (which
 * root, for whom the system ignores permissions, would otherwise write anyway), or one the system says this
 * process cannot write (a read-only mount, another owner). The folder matters too: SQLite's write-ahead log
 * lives beside the file.
 */
export function checkWritable(file: string, path: string, stats: Stats): void {
  const what = path === file ? 'the file' : `its folder ${path}`;
  if ((stats.mode & 0o222) === 0) {
    throw readOnly(file, `${what} is read-only (mode ${(stats.mode & 0o777).toString(8)})`);
  }
  try {
    accessSync(path, constants.W_OK);
  } catch (error) {
    throw readOnly(
      file,
      `this process may not write ${what} (${(error as NodeJS.ErrnoException).code})`,
      error,
    );
  }
}

/**
 * Checks a store file before it is opened: its header, and, unless it is opened read-only, that it and its
 * folder can be written. A missing file needs its folder, which is created when writing; read-only, it must
 * exist. Returns whether the file exists.
 */
export function checkStoreFile(file: string, supported: number, readonly: boolean): boolean {
  const stats = statOf(file);
  if (stats?.isDirectory()) throw cannotOpen(file, 'it is a folder; pass the path of a file');
  if (stats !== undefined && !stats.isFile())
    throw cannotOpen(file, 'it is not a regular file; pass the path of a file');
  if (stats === undefined && readonly) throw cannotOpen(file, 'there is no such file');
  if (stats !== undefined) checkHeader(file, supported);
  if (readonly) return stats !== undefined;
  const folder = dirname(file);
  if (stats === undefined) {
    try {
      mkdirSync(folder, { recursive: true });
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal !== undefined) throw refused(refusal, file, error);
      throw cannotOpen(file, `its folder cannot be created (${(error as Error).message})`, error);
    }
  }
  checkWritable(file, folder, statSync(folder));
  if (stats !== undefined) checkWritable(file, file, stats);
  return stats !== undefined;
}
