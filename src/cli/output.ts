import { constants, existsSync } from 'node:fs';
import { access, type FileHandle, open, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { SwitchyardError } from '../errors.ts';

/** A path for messages: relative to `cwd` when it lies below it, else absolute. */
export function displayPath(path: string, cwd: string): string {
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
};

/** The `E_WRITE` error for a failed write of `path`: what went wrong, then how to fix it, in one line. */
export function writeError(path: string, error: unknown, cwd: string): SwitchyardError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  // ENOENT beside a folder that exists means the file system would not create the file (e.g. in /proc).
  const refused = code === 'ENOENT' && existsSync(dirname(resolve(cwd, path)));
  const reason = refused ? 'it cannot be created in that folder' : (REASONS[code] ?? message);
  return new SwitchyardError(
    'E_WRITE',
    `cannot write ${displayPath(path, cwd)}: ${reason} — check that the folder exists and is writable`,
    { cause: error },
  );
}

/**
 * Checks, before any work, that `path` could be written: its folder exists and is writable, and `path`
 * itself is not a folder. Throws `E_WRITE` otherwise; creates nothing.
 */
export async function assertWritable(path: string, cwd: string): Promise<void> {
  const file = resolve(cwd, path);
  try {
    const folder = await stat(dirname(file));
    if (!folder.isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
    await access(dirname(file), constants.W_OK);
    const existing = await stat(file).catch(() => undefined);
    if (existing?.isDirectory()) throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
  } catch (error) {
    throw writeError(file, error, cwd);
  }
}

/** Writes `data` to `path` (resolved against `cwd`); a failure is one `E_WRITE` line, never a stack trace. */
export async function writeOutput(path: string, data: string | Uint8Array, cwd: string): Promise<void> {
  const file = resolve(cwd, path);
  try {
    await writeFile(file, data);
  } catch (error) {
    throw writeError(file, error, cwd);
  }
}

/** Opens `path` (resolved against `cwd`) for writing, truncating it; a failure is one `E_WRITE` line. */
export async function openOutput(path: string, cwd: string): Promise<FileHandle> {
  const file = resolve(cwd, path);
  try {
    return await open(file, 'w');
  } catch (error) {
    throw writeError(file, error, cwd);
  }
}
