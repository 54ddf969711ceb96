import { randomUUID } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import { access, type FileHandle, mkdir, open, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { SwitchyardError } from '../errors.ts';
import { isDash, STDIN_NAME } from './stdio.ts';

/** A path for messages: relative to `cwd` when it lies below it, else absolute; `<stdin>` as it is. */
export function displayPath(path: string, cwd: string): string {
  if (path === STDIN_NAME) return path;
  const absolute = resolve(cwd, path);
  const shown = relative(cwd, absolute);
  return shown === '' || shown.startsWith('..') || isAbsolute(shown) ? absolute : shown;
}

const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of its folder path is a file, not a folder',
  EEXIST: 'a part of its folder path is a file, not a folder',
  EISDIR: 'it is a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  ESPECIAL: 'it is not a regular file (a FIFO, socket or device would block or discard the output)',
  EREFUSED: 'that folder does not take new files (a /proc or /sys kind of file system)',
};

function failure(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/**
 * Proves that `folder` takes new files by creating and removing an empty file in it: some file systems
 * (`/proc`, `/sys`) pass every permission check and still refuse, and a recursive mkdir there never ends.
 */
async function probeFolder(folder: string): Promise<void> {
  const probe = join(folder, `.switchyard-probe-${randomUUID()}`);
  let handle: FileHandle;
  try {
    handle = await open(probe, 'wx');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw code === 'ENOENT' ? failure('EREFUSED', 'cannot create files') : error;
  }
  await handle.close();
  await unlink(probe);
}

/** Refuses an existing output that is not a regular file: writing a FIFO waits for a reader for ever. */
async function assertNotSpecial(file: string): Promise<void> {
  const existing = await stat(file).catch(() => undefined);
  if (existing?.isDirectory()) throw failure('EISDIR', 'is a folder');
  if (existing !== undefined && !existing.isFile()) throw failure('ESPECIAL', 'not a regular file');
}

/** The `E_WRITE` error for a failed write of `path`: what went wrong, then how to fix it, in one line. */
export function writeError(path: string, error: unknown, cwd: string): SwitchyardError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  // ENOENT beside a folder that exists means the file system would not create the file (e.g. in /proc).
  const refused = code === 'ENOENT' && existsSync(dirname(resolve(cwd, path)));
  const reason = refused ? 'it cannot be created in that folder' : (REASONS[code] ?? message);
  return new SwitchyardError(
    'E_WRITE',
    `cannot write ${displayPath(path, cwd)}: ${reason} — ${code === 'ESPECIAL' ? 'name a regular file to write' : 'check that the folder exists and is writable'}`,
    { cause: error },
  );
}

/**
 * Refuses `-` where a caller writes files only: `-` means standard output, and a file named `-` is never what
 * was meant (`./-` names one).
 */
function refuseDash(path: string): void {
  if (isDash(path)) {
    throw new SwitchyardError(
      'E_USAGE',
      'this option writes a file, not standard output (-) — name a file (./- for a file named -)',
    );
  }
}

/**
 * Checks, before any work, that `path` could be written: its folder exists and takes new files, and `path`
 * itself is not a folder, FIFO, socket or device. Throws `E_WRITE` otherwise; leaves nothing behind.
 */
export async function assertWritable(path: string, cwd: string): Promise<void> {
  refuseDash(path);
  const file = resolve(cwd, path);
  try {
    const folder = await stat(dirname(file));
    if (!folder.isDirectory()) throw failure('ENOTDIR', 'not a folder');
    await access(dirname(file), constants.W_OK);
    await assertNotSpecial(file);
    await probeFolder(dirname(file));
  } catch (error) {
    throw writeError(file, error, cwd);
  }
}

/** The nearest folder of `dir` (itself included) that exists, and the folders below it to create. */
async function nearestExisting(dir: string): Promise<{ existing: string; missing: string[] }> {
  const missing: string[] = [];
  let current = dir;
  for (;;) {
    const found = await stat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (found !== undefined) {
      if (!found.isDirectory()) throw failure('ENOTDIR', 'not a folder');
      return { existing: current, missing: missing.reverse() };
    }
    missing.push(current);
    const parent = dirname(current);
    if (parent === current) return { existing: current, missing: missing.reverse() };
    current = parent;
  }
}

/**
 * Checks, before any work, that the folder `dir` exists or can be created: its nearest existing ancestor is
 * a folder that takes new files. Throws `E_WRITE` otherwise, at once; creates nothing.
 */
export async function assertFolderWritable(dir: string, cwd: string): Promise<void> {
  const folder = resolve(cwd, dir);
  try {
    const { existing } = await nearestExisting(folder);
    await access(existing, constants.W_OK);
    await probeFolder(existing);
  } catch (error) {
    throw writeError(folder, error, cwd);
  }
}

/**
 * Creates the folder `dir` and any missing parents, one level at a time (a recursive mkdir can spin for ever
 * where the file system refuses new folders, as `/proc` does). A failure is one `E_WRITE` line.
 */
export async function ensureFolder(dir: string, cwd: string): Promise<void> {
  const folder = resolve(cwd, dir);
  try {
    const { missing } = await nearestExisting(folder);
    for (const part of missing) {
      await mkdir(part).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST')
          throw error.code === 'ENOENT' ? failure('EREFUSED', 'cannot create') : error;
      });
    }
    const made = await stat(folder);
    if (!made.isDirectory()) throw failure('ENOTDIR', 'not a folder');
  } catch (error) {
    throw writeError(folder, error, cwd);
  }
}

/** Writes `data` to `path` (resolved against `cwd`); a failure is one `E_WRITE` line, never a stack trace. */
export async function writeOutput(path: string, data: string | Uint8Array, cwd: string): Promise<void> {
  refuseDash(path);
  const file = resolve(cwd, path);
  try {
    await assertNotSpecial(file);
    await writeFile(file, data);
  } catch (error) {
    throw writeError(file, error, cwd);
  }
}

/** Opens `path` (resolved against `cwd`) for writing, truncating it; a failure is one `E_WRITE` line. */
export async function openOutput(path: string, cwd: string): Promise<FileHandle> {
  refuseDash(path);
  const file = resolve(cwd, path);
  try {
    await assertNotSpecial(file);
    return await open(file, 'w');
  } catch (error) {
    throw writeError(file, error, cwd);
  }
}
