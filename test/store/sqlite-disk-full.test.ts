/**
 * A store file on a disk that fills up: opening it, a write to it, and a whole run whose disk fills while it
 * runs each say in one line that the disk is full (`E_STORE_FULL`), and a run stopped so goes on with
 * `switchyard resume` once there is space. A small tmpfs of the test's own is the disk; skipped where this
 * process may not mount one.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import { refused } from '../../src/store/sqlite-errors.ts';
import { SWITCHYARD } from '../cli-entry.ts';
import { mountTmpfs, refusal, tempFolder } from './files.ts';
import { eventWrites, makeRun, runWrite } from './fixtures.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'disk-full');
const root = process.getuid?.() === 0;

let folder: ReturnType<typeof tempFolder>;
let disk: string | undefined;
beforeEach(() => {
  folder = tempFolder();
});
afterEach(() => {
  if (disk !== undefined) execFileSync('umount', [disk]);
  disk = undefined;
  folder.remove();
});

/** A fresh tmpfs of `size` under the test's folder, or undefined when this process may not mount one. */
async function smallDisk(size: string): Promise<string | undefined> {
  const dir = join(folder.dir, 'disk');
  mkdirSync(dir);
  if (!mountTmpfs(dir, size)) return undefined;
  disk = dir;
  return dir;
}

/** Writes zeros to `file` until the disk it is on refuses. */
function fill(file: string): void {
  const fd = openSync(file, 'w');
  try {
    for (;;) writeSync(fd, Buffer.alloc(64 * 1024));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

/** Runs `switchyard` from the sources in `cwd`; answers its exit code and output. */
async function switchyard(args: readonly string[], cwd: string) {
  const child = spawn(process.execPath, [...SWITCHYARD, ...args], { cwd, env: { ...process.env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, out, err };
}

describe.runIf(root)('a store on a full disk', () => {
  it('is refused at open with one line saying the disk is full', async (context) => {
    const dir = await smallDisk('1m');
    if (dir === undefined) return context.skip();
    fill(join(dir, 'filler'));
    const file = join(dir, 'runs.db');
    const { code, message } = await refusal(openSqliteStore(file));
    expect(code).toBe('E_STORE_FULL');
    expect(message).toBe(
      `${file} cannot be written: the disk it is on is full (ENOSPC); free space on that disk, or pass a store path on another disk`,
    );
  });

  it('refuses a write once the disk is full, naming its run, and takes it once there is space', async (context) => {
    const dir = await smallDisk('1m');
    if (dir === undefined) return context.skip();
    const store = await openSqliteStore(join(dir, 'runs.db'));
    try {
      await store.commit([runWrite(makeRun('r1')), ...eventWrites('r1', 0, 1)]);
      fill(join(dir, 'filler'));
      const many = eventWrites('r1', 1, 400);
      const { code, message } = await refusal(store.commit(many));
      expect(code).toBe('E_STORE_FULL');
      expect(message).toContain('the disk it is on is full (ENOSPC)');
      expect(message).toContain("then resume run 'r1' where it stopped (switchyard resume r1)");
      rmSync(join(dir, 'filler'));
      await store.commit(many);
      expect(await store.lastEventSeq('r1')).toBe(399);
    } finally {
      await store.close();
    }
  });

  it('stops a run whose disk fills with one line, and the run resumes once there is space', {
    timeout: 60_000,
  }, async (context) => {
    const dir = await smallDisk('2m');
    if (dir === undefined) return context.skip();
    const filler = join(dir, 'filler');
    const items = Array.from({ length: 6 }, (_x, n) => (n === 2 ? { n, fill: filler } : { n }));
    const input = join(folder.dir, 'items.json');
    writeFileSync(input, JSON.stringify(items));
    const store = join(dir, 'runs.db');
    const common = ['--nodes', join(FIXTURES, 'nodes.ts'), '--store', store];
    const stopped = await switchyard(
      ['run', join(FIXTURES, 'fill.jsonld'), ...common, '--input', `@${input}`],
      folder.dir,
    );
    expect(stopped.code).toBe(1);
    const lines = stopped.err.trim().split('\n');
    expect(lines).toHaveLength(1);
    const said =
      /^switchyard: (.+) cannot be written: the disk it is on is full \(ENOSPC\); free space on that disk, then resume run '([0-9a-f-]+)' where it stopped \(switchyard resume \2\) \(E_STORE_FULL\)$/u.exec(
        lines[0] as string,
      );
    expect(said?.[1]).toBe(store);
    const runId = said?.[2] as string;
    rmSync(filler);
    const resumed = await switchyard(['resume', runId, ...common], folder.dir);
    expect(resumed.err).toBe('');
    expect(resumed.code).toBe(0);
    const reading = await openSqliteStore(store, { readonly: true });
    try {
      expect((await reading.getRun(runId))?.status).toBe('completed');
      const ended = await reading.listCheckpoints(runId, 'ended');
      expect(ended.map((c) => (c.state.data as { steps: number }).steps)).toEqual(items.map(() => 2));
    } finally {
      await reading.close();
    }
  });
});

describe('a write the file system refuses', () => {
  const file = '/data/runs.db';
  it('gets a line of its own for each reason, saying what to do', () => {
    const lines = (['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES'] as const).map((why) => {
      const error = refused(why, file);
      return `${error.code}: ${error.message}`;
    });
    expect(lines).toEqual([
      'E_STORE_FULL: /data/runs.db cannot be written: the disk it is on is full (ENOSPC); free space on that disk, or pass a store path on another disk',
      "E_STORE_FULL: /data/runs.db cannot be written: this user's disk quota is used up (EDQUOT); free space within the quota or raise it, or pass a store path on another disk",
      'E_STORE_READ_ONLY: /data/runs.db cannot be written: the file system it is on is mounted read-only (EROFS); make it writable, or pass another store path',
      'E_STORE_READ_ONLY: /data/runs.db cannot be written: this process may not write it or its folder (EACCES); make it writable, or pass another store path',
    ]);
  });

  it('names the run a refused write was for, which resumes once the store takes writes', () => {
    expect(refused('EDQUOT', file, undefined, 'r7').message).toMatch(
      /quota is used up \(EDQUOT\); free space within the quota or raise it, then resume run 'r7' where it stopped \(switchyard resume r7\)$/u,
    );
  });
});
