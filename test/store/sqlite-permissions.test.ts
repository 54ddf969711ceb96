/**
 * Read-only store files as the operating system enforces them. Tests run as root, for whom file modes do not
 * stop writes, so these open the store in a child process that runs as an unprivileged user, and on a
 * file system mounted read-only. Each is skipped where it cannot be set up (not root, or no mount rights).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import { filledStore, hashFile, mountTmpfs, refusal, tempFolder } from './files.ts';

const root = process.getuid?.() === 0;
const repo = join(import.meta.dirname, '..', '..');
const NOBODY = 65534;

let folder: ReturnType<typeof tempFolder>;
beforeEach(() => {
  folder = tempFolder();
  chmodSync(folder.dir, 0o755);
});
afterEach(() => folder.remove());

/** The store error an unprivileged process gets opening `file`. */
function openAsNobody(file: string): { code: string; message: string } {
  const script = `
    const { openSqliteStore } = await import(${JSON.stringify(join(repo, 'src/store/sqlite.ts'))});
    try {
      const store = await openSqliteStore(${JSON.stringify(file)});
      await store.close();
      process.stdout.write(JSON.stringify({ code: 'opened', message: '' }));
    } catch (error) {
      process.stdout.write(JSON.stringify({ code: error.code, message: error.message }));
    }`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: repo,
    uid: NOBODY,
    gid: NOBODY,
    encoding: 'utf8',
    env: { ...process.env, HOME: '/tmp' },
  });
  if (child.status !== 0) throw new Error(`the unprivileged child failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as { code: string; message: string };
}

describe.runIf(root)('a store file this user may not write', () => {
  it('is refused when the file belongs to another user', async () => {
    const file = join(folder.dir, 'runs.db');
    await filledStore(file, 2);
    chmodSync(folder.dir, 0o777);
    const before = hashFile(file);
    const { code, message } = openAsNobody(file);
    expect(code).toBe('E_STORE_READ_ONLY');
    expect(message).toContain(`${file} cannot be written: this process may not write the file (EACCES)`);
    expect(hashFile(file)).toBe(before);
  });

  it('is refused when its folder belongs to another user', async () => {
    const file = join(folder.dir, 'runs.db');
    await filledStore(file, 2);
    chmodSync(file, 0o666);
    const before = hashFile(file);
    expect(openAsNobody(file)).toMatchObject({ code: 'E_STORE_READ_ONLY' });
    expect(openAsNobody(join(folder.dir, 'new.db')).message).toMatch(
      /may not write its folder .* \(EACCES\)/,
    );
    expect(hashFile(file)).toBe(before);
  });
});

describe.runIf(root)('a store file on a read-only file system', () => {
  it('is refused, and the file stays as it was', async (context) => {
    const mountPoint = join(folder.dir, 'mnt');
    mkdirSync(mountPoint);
    if (!mountTmpfs(mountPoint, '4m')) {
      context.skip();
      return;
    }
    try {
      const file = join(mountPoint, 'runs.db');
      await filledStore(file, 2);
      execFileSync('mount', ['-o', 'remount,ro', mountPoint]);
      const before = hashFile(file);
      const { code, message } = await refusal(openSqliteStore(file));
      expect(code).toBe('E_STORE_READ_ONLY');
      expect(message).toMatch(/\(EROFS\)/);
      expect(hashFile(file)).toBe(before);
      const reading = await refusal(openSqliteStore(file, { readonly: true }));
      expect(reading.code).toBe('E_STORE_OPEN');
      expect(reading.message).toMatch(/shared-memory file .* copy the store to a writable folder/);
      expect(hashFile(file)).toBe(before);
    } finally {
      execFileSync('umount', [mountPoint]);
    }
  });
});
