/** Files for the SQLite store tests: a temporary folder, hashes of files, and stores filled with runs. */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isSwitchyardError } from '../../src/errors.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import { eventWrites, makeCheckpoint, makeRun, runWrite } from './fixtures.ts';

/** A new temporary folder and a function that removes it. */
export function tempFolder(): { readonly dir: string; readonly remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-store-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** SHA-256 of a file's bytes. */
export function hashFile(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Creates a closed store file at `path` holding `runs` runs, each with a checkpoint and a few events. */
export async function filledStore(path: string, runs = 40): Promise<void> {
  const store = await openSqliteStore(path);
  for (let i = 0; i < runs; i++) {
    const id = `run-${i}`;
    await store.commit([
      runWrite(makeRun(id, { input: [{ text: 'x'.repeat(500) }] })),
      { kind: 'checkpoint', checkpoint: makeCheckpoint(id, '1') },
      ...eventWrites(id, 0, 5),
    ]);
  }
  await store.close();
}

/** The store error `promise` rejects with: its code and message. */
export async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isSwitchyardError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected the store to refuse');
}

/** Mounts a tmpfs of `size` (`4m`, `512k`) at `dir`; false when this process may not mount. */
export function mountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
