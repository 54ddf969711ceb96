/**
 * The lease of a run whose process died: a holder on this host that no longer exists is taken over at
 * once; a live holder is refused with its pid and host until its lease expires.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/policy/clock.ts';
import { takeLease } from '../../src/runtime/durable-run.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { RunStore } from '../../src/store/types.ts';
import { makeRun } from '../store/fixtures.ts';

const HOLDER = `
import { openSqliteStore } from './src/store/sqlite.ts';
import { takeLease } from './src/runtime/durable-run.ts';
import { systemClock } from './src/policy/clock.ts';
const store = await openSqliteStore(process.argv[1]);
await takeLease(store, 'r1', systemClock);
process.stdout.write('held\\n');
setInterval(() => undefined, 1000);
`;

let dir: string;
let store: RunStore;
let child: ChildProcess | undefined;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'switchyard-lease-'));
  store = await openSqliteStore(join(dir, 'runs.db'));
  await store.commit([{ kind: 'run', run: makeRun('r1') }]);
});

afterEach(async () => {
  child?.kill('SIGKILL');
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts a process that takes the lease of run r1 and keeps it; resolves once it holds it. */
async function holder(): Promise<ChildProcess> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', HOLDER, join(dir, 'runs.db')],
    {
      cwd: join(import.meta.dirname, '../..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  child = proc;
  await new Promise<void>((resolve, reject) => {
    proc.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('held')) resolve();
    });
    proc.on('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
  });
  return proc;
}

describe('the lease of a run', () => {
  it('is refused while its holder lives, naming its pid and host', async () => {
    const proc = await holder();
    await expect(takeLease(store, 'r1', systemClock)).rejects.toMatchObject({
      code: 'E_STORE_LEASE_HELD',
      message: expect.stringContaining(String(proc.pid)),
    });
    expect((await store.getLease('r1'))?.pid).toBe(proc.pid);
  });

  it('is taken over at once when its holder on this host was killed', async () => {
    const proc = await holder();
    const exited = new Promise((resolve) => proc.on('exit', resolve));
    proc.kill('SIGKILL');
    await exited;
    const lease = await takeLease(store, 'r1', systemClock);
    expect(lease).toMatchObject({ pid: process.pid, host: hostname() });
    expect((await store.getLease('r1'))?.token).toBe(lease.token);
  });
});
