/**
 * What the file system says about the folder of a store file when SQLite could not write it. SQLite reports a
 * write the disk refused as `SQLITE_FULL` or `SQLITE_IOERR_*` without the system's reason, so the folder is
 * asked directly: its free space, then a small file written beside the store and removed, whose failure
 * carries the reason (`ENOSPC`, `EDQUOT`, `EROFS`, `EACCES`).
 */
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Why the file system refuses writes in a folder. */
export type DiskRefusal = 'ENOSPC' | 'EDQUOT' | 'EROFS' | 'EACCES';

/** The system error codes each refusal stands for. */
const REFUSALS: Readonly<Record<string, DiskRefusal>> = Object.freeze({
  ENOSPC: 'ENOSPC',
  EDQUOT: 'EDQUOT',
  EROFS: 'EROFS',
  EACCES: 'EACCES',
  EPERM: 'EACCES',
});

/** The bytes the probe writes: a page of the store, which is what SQLite writes at the least. */
const PROBE_BYTES = 4096;

/** The refusal an error of a file system call stands for, if any. */
export function refusalOf(error: unknown): DiskRefusal | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === undefined ? undefined : REFUSALS[code];
}

/**
 * Why the folder of `file` refuses writes, or undefined when it takes a page of writing now (the failure was
 * something else, or space was freed meanwhile). A folder with no block or no inode left is full without a
 * write being tried.
 */
export function diskRefusal(file: string): DiskRefusal | undefined {
  const folder = dirname(file);
  try {
    const stats = statfsSync(folder);
    if (stats.bavail === 0 || stats.ffree === 0) return 'ENOSPC';
  } catch {
    // A file system that cannot say: the probe asks it.
  }
  const probe = join(folder, `.${randomUUID()}.switchyard-probe`);
  let fd: number | undefined;
  try {
    fd = openSync(probe, 'wx');
    writeSync(fd, Buffer.alloc(PROBE_BYTES));
    return undefined;
  } catch (error) {
    return refusalOf(error);
  } finally {
    if (fd !== undefined) {
      closeSync(fd);
      rmSync(probe, { force: true });
    }
  }
}
