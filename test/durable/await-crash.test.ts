/**
 * The await crash test: a durable run (SQLite, real processes, the real clock) parks at an await in a
 * process that waits for its answer, and is killed there with SIGKILL; an answer is given while no process
 * runs, or just before the kill; a new process resumes the run. Every answer recorded is taken once, on its
 * route, with its data; a run resumed after its await deadline (a resuming process whose wall clock reads
 * later) takes the deadline route.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParkedItem } from '../../src/awaits/desk.ts';
import { storedParked } from '../../src/awaits/stored.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { RunStore } from '../../src/store/types.ts';
import { FIXTURES, ROOT, readLog } from './crash-harness.ts';

const CHILD = join(FIXTURES, 'await-child.ts');
/** The await's deadline: far beyond any test's run, so that only a skewed wall clock reaches it. */
const DEADLINE_MS = 600_000;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-await-crash-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Child {
  readonly child: ChildProcess;
  /** The exit code (null when killed) and what it printed. */
  readonly done: Promise<{ code: number | null; out: string; err: string }>;
}

/** Starts the child process: `run` or `resume` of `runId` in `db`. */
function start(mode: 'run' | 'resume', db: string, runId: string, env: Record<string, string> = {}): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, mode, db, runId, String(DEADLINE_MS)], {
    // tsx is found from the project's folder.
    cwd: ROOT,
    env: {
      ...process.env,
      CRASH_LOG: join(dir, `${runId}.log`),
      AWAIT_EVENTS: join(dir, `${runId}.events`),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const done = new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, out, err })),
  );
  return { child, done };
}

/** Polls `read` until it gives a value; fails when the process ends first, or after a minute. */
async function until<T>(read: () => Promise<T | undefined>, proc: Child, what: string): Promise<T> {
  let ended: string | undefined;
  void proc.done.then((how) => {
    ended = `exit ${how.code}: ${how.err}`;
  });
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (ended !== undefined) throw new Error(`the process ended before ${what}: ${ended}`);
    if (Date.now() - started > 60_000) throw new Error(`no ${what} within a minute`);
    await sleep(5);
  }
}

/** The item parked in the store, once the process has parked it. */
async function parkedIn(db: string, runId: string, proc: Child): Promise<ParkedItem> {
  return until(
    async () => {
      if (!existsSync(db)) return undefined;
      const store = await openSqliteStore(db, { readonly: true }).catch(() => undefined);
      if (store === undefined) return undefined;
      try {
        if ((await store.getRun(runId)) === undefined) return undefined;
        return (await storedParked(store, runId))[0];
      } finally {
        await store.close();
      }
    },
    proc,
    'the item parked',
  );
}

/** Kills the process with SIGKILL and gives up its lease in its place (a killed holder cannot). */
async function kill(proc: Child, db: string, runId: string): Promise<void> {
  proc.child.kill('SIGKILL');
  expect((await proc.done).code).toBeNull();
  const store = await openSqliteStore(db);
  try {
    const lease = await store.getLease(runId);
    if (lease !== undefined && lease.pid === proc.child.pid) await store.releaseLease(lease);
  } finally {
    await store.close();
  }
}

/** The events the processes wrote for `runId`, with the pid of each. */
function eventsOf(runId: string): (RunEvent & { pid: number })[] {
  const path = join(dir, `${runId}.events`);
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as RunEvent & { pid: number }];
      } catch {
        return [];
      }
    });
}

/** The resumed process's result, once it ends by itself. */
async function resumed(db: string, runId: string, env: Record<string, string> = {}) {
  const proc = start('resume', db, runId, env);
  const { code, out, err } = await proc.done;
  expect(code, err).toBe(0);
  return { pid: proc.child.pid as number, result: JSON.parse(out) as Summary };
}

interface Summary {
  readonly status: string;
  readonly items: readonly { id: string; terminal: string; data: Record<string, unknown> }[];
  readonly failures: readonly { id: string; code: string }[];
}

/** Node starts per placement in the log of `runId`. */
function starts(runId: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of readLog(join(dir, `${runId}.log`))) {
    if (line.k === 'start') counts[line.placement as string] = (counts[line.placement as string] ?? 0) + 1;
  }
  return counts;
}

async function storedAnswers(db: string, runId: string) {
  const store: RunStore = await openSqliteStore(db, { readonly: true });
  try {
    return { answers: await store.listAnswers(runId), status: (await store.getRun(runId))?.status };
  } finally {
    await store.close();
  }
}

describe('a durable run killed while parked at an await', () => {
  it('takes an answer given while no process runs, on its route with its data', {
    timeout: 120_000,
  }, async () => {
    const db = join(dir, 'answered.db');
    const first = start('run', db, 'k1');
    const parked = await parkedIn(db, 'k1', first);
    await kill(first, db, 'k1');

    // With no process running: recorded in the store by a dispatcher that does not run the run.
    const store = await openSqliteStore(db);
    try {
      const receipt = await createDispatcher({ nodes: [] }).answer(
        { runId: 'k1', token: parked.token, output: 'approved', data: { by: 'ed' } },
        { store },
      );
      expect(receipt).toMatchObject({ status: 'recorded', item: '1', placement: 'review' });
    } finally {
      await store.close();
    }

    const { pid, result } = await resumed(db, 'k1');
    expect(result.items).toEqual([
      {
        id: '1',
        terminal: 'publish',
        data: { title: 'T', drafted: true, review: { by: 'ed' }, announced: true },
      },
    ]);
    expect(starts('k1')).toEqual({ draft: 1, announce: 1 });
    const again = eventsOf('k1').filter((e) => e.pid === pid);
    expect(again.find((e) => e.type === 'await.parked')).toMatchObject({
      resumed: true,
      token: parked.token,
    });
    expect(again.filter((e) => e.type === 'await.answered')).toMatchObject([{ output: 'approved' }]);
    expect((await storedAnswers(db, 'k1')).status).toBe('completed');
  });

  it('takes the deadline route when resumed after the await deadline passed', {
    timeout: 120_000,
  }, async () => {
    const db = join(dir, 'expired.db');
    const first = start('run', db, 'k2');
    const parked = await parkedIn(db, 'k2', first);
    await kill(first, db, 'k2');
    expect(parked.deadlineAt - parked.parkedAt).toBe(DEADLINE_MS);

    // The resuming process's wall clock reads past the deadline recorded at the first parking.
    const { pid, result } = await resumed(db, 'k2', { AWAIT_WALL_SKEW_MS: String(DEADLINE_MS + 1_000) });
    expect(result.items.map((i) => [i.id, i.terminal])).toEqual([['1', 'escalate']]);
    expect(starts('k2')).toEqual({ draft: 1 });
    const again = eventsOf('k2').filter((e) => e.pid === pid);
    expect(again.find((e) => e.type === 'await.expired')).toMatchObject({ token: parked.token });
    expect(again.some((e) => e.type === 'await.answered')).toBe(false);
  });

  it('takes an answer recorded just before the kill exactly once', { timeout: 120_000 }, async () => {
    const db = join(dir, 'window.db');
    const first = start('run', db, 'k3');
    const parked = await parkedIn(db, 'k3', first);
    // Recorded while the process lives and waits (it looks in the store every 250 ms or more), then killed
    // at once: the kill lands between the answer's recording and the item moving on.
    const store = await openSqliteStore(db);
    try {
      await createDispatcher({ nodes: [] }).answer(
        { runId: 'k3', token: parked.token, output: 'rejected', data: { why: 'thin' } },
        { store },
      );
    } finally {
      await store.close();
    }
    await kill(first, db, 'k3');
    const firstTook = eventsOf('k3').some((e) => e.pid === first.child.pid && e.type === 'await.answered');

    const { pid, result } = await resumed(db, 'k3');
    expect(result.items.map((i) => [i.terminal, i.data])).toEqual([
      ['drop', { title: 'T', drafted: true, review: { why: 'thin' } }],
    ]);
    const answered = eventsOf('k3').filter((e) => e.type === 'await.answered');
    // Taken by one process only: the first, if its look came before the kill, else the resumed one.
    expect(answered.map((e) => e.pid)).toEqual([firstTook ? first.child.pid : pid]);
    expect(starts('k3')).toEqual({ draft: 1 });
    expect((await storedAnswers(db, 'k3')).answers).toHaveLength(1);
  });
});
