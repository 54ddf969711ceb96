/**
 * `switchyard run` with a store and `switchyard resume`: where runs are recorded (`--store`,
 * `$SWITCHYARD_STORE`, `--no-store`), Ctrl-C leaving a run resumable, and each guard of a resume as one
 * line with its code: a live holder, a changed document, a module that lost a node, an unknown run, a
 * finished one. Real child processes and real SQLite files.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { RunRecord } from '../../src/store/types.ts';
import { runCli } from '../cli/run-cli.ts';
import { BIN, FIXTURES, NODES, readLog } from './crash-harness.ts';

const WITHOUT_REVIEW = join(FIXTURES, 'nodes-without-review.ts');
const ROOT = join(import.meta.dirname, '..', '..');
const COMPOSE_DAG = join(ROOT, 'dags', 'compose-validate.jsonld');
const COMPOSE_NODES = join(ROOT, 'examples', 'compose-validate', 'nodes.ts');
/**
 * One item whose fetch fails once and asks to be retried after five minutes: a run that stays live until
 * the test stops it, however slow the machine. Run with {@link SLOW_POLICY}, whose cap lets the wait be.
 */
const SLOW = [
  {
    name: 'slow',
    parts: [{ fails: 0 }],
    fetchFails: 1,
    fetchRetryAfterMs: 300_000,
    reviewFails: 0,
    reviewRetryAfterMs: 0,
  },
];
/** The crash test's policy with a Retry-After cap that keeps {@link SLOW}'s five-minute wait. */
const SLOW_POLICY = {
  defaults: {
    backoff: { strategy: 'exponential', baseMs: 20, factor: 2, capMs: 80 },
    jitter: 'none',
    retryAfter: { honour: true, capMs: 600_000 },
  },
};
/**
 * compose/validate with a back-off of two and a half to five minutes after a rejected draft (the run's
 * deadline above it): a run stopped during that wait stays stopped there, however slow the machine.
 */
const LONG_WAIT_POLICY = {
  defaults: { backoff: { strategy: 'constant', baseMs: 300_000, capMs: 300_000 }, jitter: 'equal' },
  run: { deadlineMs: 3_600_000 },
};
const QUICK = [
  {
    name: 'quick',
    parts: [{ fails: 0 }],
    fetchFails: 0,
    fetchRetryAfterMs: 0,
    reviewFails: 0,
    reviewRetryAfterMs: 0,
  },
];

let dir: string;
let dag: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-resume-'));
  for (const name of ['crash.jsonld', 'crash-part.jsonld', 'crash-review.jsonld', 'crash.policy.json']) {
    await copyFile(join(FIXTURES, name), join(dir, name));
  }
  dag = join(dir, 'crash.jsonld');
  await writeFile(join(dir, 'slow.json'), JSON.stringify(SLOW));
  await writeFile(join(dir, 'slow.policy.json'), JSON.stringify(SLOW_POLICY));
  await writeFile(join(dir, 'long-wait.policy.json'), JSON.stringify(LONG_WAIT_POLICY));
  await writeFile(join(dir, 'quick.json'), JSON.stringify(QUICK));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The one id of a run recorded in the store at `path` since `before`. */
async function newRunId(path: string, before: ReadonlySet<string> = new Set()): Promise<string> {
  const store = await openSqliteStore(path, { readonly: true });
  try {
    const fresh = (await store.listRuns({ limit: 1000 })).runs.filter((r) => !before.has(r.id));
    expect(fresh).toHaveLength(1);
    return (fresh[0] as { id: string }).id;
  } finally {
    await store.close();
  }
}

/** A `switchyard` child process and its output so far. */
interface Child {
  readonly process: ChildProcess;
  readonly done: Promise<{ code: number | null; out: string; err: string }>;
}

function start(args: readonly string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { ...process.env, SWITCHYARD_STORE: '', ...env },
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
  return { process: child, done };
}

/** Resolves once the log at `path` has a line `match` accepts; rejects if `child` ends first. */
async function untilLogged(
  path: string,
  child: Child,
  match: (line: ReturnType<typeof readLog>[number]) => boolean,
) {
  let ended = false;
  void child.done.then(() => {
    ended = true;
  });
  while (!readLog(path).some(match)) {
    if (ended)
      throw new Error(
        `the run ended before the log showed what the test waits for: ${(await child.done).err}`,
      );
    await sleep(5);
  }
}

describe('switchyard run: where it records', () => {
  it('records into .switchyard/runs.db under the current folder by default and prints the run id', async () => {
    const cwd = join(dir, 'default');
    await mkdir(cwd);
    const r = await runCli(['run', dag, '--nodes', NODES, '--input', `@${join(dir, 'quick.json')}`], cwd);
    expect(r.code).toBe(0);
    const id = await newRunId(join(cwd, '.switchyard', 'runs.db'));
    expect(r.out).toContain(`recorded in ${join('.switchyard', 'runs.db')} as ${id}`);
  });

  it('honours $SWITCHYARD_STORE, and --store before it; --json names the run and the store', async () => {
    const cwd = join(dir, 'env');
    await mkdir(cwd);
    const saved = process.env.SWITCHYARD_STORE;
    process.env.SWITCHYARD_STORE = join(dir, 'from-env.db');
    try {
      const r = await runCli(
        ['run', dag, '--nodes', NODES, '--input', `@${join(dir, 'quick.json')}`, '--json'],
        cwd,
      );
      expect(r.code).toBe(0);
      const id = await newRunId(join(dir, 'from-env.db'));
      expect(JSON.parse(r.out)).toMatchObject({ runId: id, store: join(dir, 'from-env.db') });
      const flag = join(dir, 'from-flag.db');
      const f = await runCli(
        ['run', dag, '--nodes', NODES, '--input', `@${join(dir, 'quick.json')}`, '--store', flag],
        cwd,
      );
      expect(f.code).toBe(0);
      await newRunId(flag);
    } finally {
      if (saved === undefined) delete process.env.SWITCHYARD_STORE;
      else process.env.SWITCHYARD_STORE = saved;
    }
    expect(existsSync(join(cwd, '.switchyard'))).toBe(false);
  });

  it('records nothing with --no-store', async () => {
    const cwd = join(dir, 'none');
    await mkdir(cwd);
    const saved = process.env.SWITCHYARD_STORE;
    process.env.SWITCHYARD_STORE = join(cwd, 'env.db');
    try {
      const r = await runCli(
        ['run', dag, '--nodes', NODES, '--input', `@${join(dir, 'quick.json')}`, '--no-store'],
        cwd,
      );
      expect(r.code).toBe(0);
      expect(r.out).not.toContain('recorded in');
    } finally {
      if (saved === undefined) delete process.env.SWITCHYARD_STORE;
      else process.env.SWITCHYARD_STORE = saved;
    }
    expect(existsSync(join(cwd, '.switchyard'))).toBe(false);
    expect(existsSync(join(cwd, 'env.db'))).toBe(false);
  });
});

describe('switchyard resume', () => {
  const store = () => join(dir, 'guards.db');
  const log = () => join(dir, 'guards.jsonl');
  let id: string;

  it('is refused with the holder pid and host while the run is live; Ctrl-C leaves the run resumable', async () => {
    const args = ['run', dag, '--nodes', NODES, '--input', '@slow.json', '--policy', 'slow.policy.json'];
    const child = start([...args, '--store', store()], { CRASH_LOG: log() });
    // The fetch failed and the item waits out its five-minute Retry-After: the run is live and holds its
    // lease until the Ctrl-C.
    await untilLogged(log(), child, (l) => l.k === 'end' && l.result === 'retry');
    id = await newRunId(store());
    const held = await runCli(['resume', id, '--nodes', NODES, '--store', store()], dir);
    expect(held.code).toBe(1);
    expect(held.err.trim().split('\n')).toHaveLength(1);
    expect(held.err).toContain(`process ${child.process.pid} on ${hostname()}`);
    expect(held.err).toContain('(E_STORE_LEASE_HELD)');
    child.process.kill('SIGINT');
    const ended = await child.done;
    expect(ended.code).toBe(1);
    expect(ended.out).toContain(`run ${id}: aborted`);
    expect(ended.err).toContain(`switchyard resume ${id} --nodes ${NODES} --store guards.db`);
  });

  it('refuses a changed DAG file or embedded document, naming both hashes and the file', async () => {
    const original = await readFile(dag, 'utf8');
    await writeFile(
      dag,
      original.replace('"name": "Fetch, fan out, review"', '"name": "Fetch, fan out, review again"'),
    );
    try {
      const r = await runCli(['resume', id, '--nodes', NODES, '--store', store()], dir);
      expect(r.code).toBe(1);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toContain('(E_RESUME_DAG_CHANGED)');
      expect(r.err).toMatch(/hash [0-9a-f]{64}.*hash [0-9a-f]{64}/u);
      expect(r.err).toContain('crash.jsonld');
    } finally {
      await writeFile(dag, original);
    }
    const review = join(dir, 'crash-review.jsonld');
    const embedded = await readFile(review, 'utf8');
    await writeFile(review, embedded.replace('"name": "Review"', '"name": "Review twice"'));
    try {
      const r = await runCli(['resume', id, '--nodes', NODES, '--store', store()], dir);
      expect(r.code).toBe(1);
      expect(r.err).toContain('(E_RESUME_DAG_CHANGED)');
      expect(r.err).toContain('crash-review.jsonld');
    } finally {
      await writeFile(review, embedded);
    }
  });

  it('refuses a node module that no longer registers a node the run needs', async () => {
    const r = await runCli(['resume', id, '--nodes', WITHOUT_REVIEW, '--store', store()], dir);
    expect(r.code).toBe(1);
    expect(r.err).toContain('urn:switchyard:node:crash-review');
    expect(r.err).toContain('(E_NODE_NOT_REGISTERED)');
  });

  it('goes on where the run stood, with the recorded document when the file is gone, and completes', async () => {
    const moved = join(dir, 'crash.jsonld.away');
    await rename(dag, moved);
    process.env.CRASH_LOG = log();
    try {
      // On the virtual clock, what is left of the five-minute wait takes no real time.
      const r = await runCli(
        ['resume', id, '--nodes', NODES, '--store', store(), '--virtual-time', '--json'],
        dir,
      );
      expect(r.err).toContain('crash.jsonld is gone');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.out)).toMatchObject({ runId: id, status: 'completed', resumed: true });
    } finally {
      delete process.env.CRASH_LOG;
      await rename(moved, dag);
    }
    // The fetch that failed is not run again; the one after the wait is.
    const fetches = readLog(log()).filter((l) => l.k === 'start' && l.placement === 'fetch');
    expect(fetches.map((l) => l.attempt)).toEqual([0, 1]);
  });

  it('refuses a finished run, an unknown id and a run of a newer format, each in one line', async () => {
    const finished = await runCli(['resume', id, '--nodes', NODES, '--store', store()], dir);
    expect(finished.code).toBe(1);
    expect(finished.err.trim().split('\n')).toHaveLength(1);
    expect(finished.err).toContain('(E_RUN_FINISHED)');
    const unknown = await runCli(['resume', 'no-such-run', '--nodes', NODES, '--store', store()], dir);
    expect(unknown.code).toBe(1);
    expect(unknown.err.trim().split('\n')).toHaveLength(1);
    expect(unknown.err).toContain('(E_RESUME_UNKNOWN_RUN)');
    const db = await openSqliteStore(join(dir, 'guards.db'));
    try {
      const ran = await db.getRun(id);
      const newer = {
        ...(ran as RunRecord),
        id: 'from-the-future',
        status: 'running' as const,
        formatVersion: 99,
      };
      const { finishedAt: _, ...record } = newer;
      await db.commit([{ kind: 'run', run: record }]);
    } finally {
      await db.close();
    }
    const future = await runCli(
      ['resume', 'from-the-future', '--nodes', NODES, '--store', join(dir, 'guards.db')],
      dir,
    );
    expect(future.code).toBe(1);
    expect(future.err.trim().split('\n')).toHaveLength(1);
    expect(future.err).toContain('(E_RESUME_NEWER_RUN)');
    const nowhere = await runCli(['resume', id, '--nodes', NODES, '--store', join(dir, 'missing.db')], dir);
    expect(nowhere.code).toBe(1);
    expect(nowhere.err).toContain('(E_NO_RUNS)');
    expect(existsSync(join(dir, 'missing.db'))).toBe(false);
  });
});

describe('switchyard resume: the clock, the jitter and the deadline', () => {
  it('goes on on a virtual clock with --virtual-time and --seed, and refuses a wrong flag in one line', async () => {
    // compose/validate, whose nodes do no real I/O: the first draft is rejected, and the item waits minutes.
    const path = join(dir, 'virtual.db');
    const events = join(dir, 'virtual-events.jsonl');
    const input = JSON.stringify({ topic: 'whales', rejections: 1 });
    const args = ['--nodes', COMPOSE_NODES, '--store', path];
    const policy = ['--policy', 'long-wait.policy.json'];
    const child = start(['run', COMPOSE_DAG, ...args, ...policy, '--input', input, '--events', events], {});
    const waiting = async () =>
      (await readFile(events, 'utf8').catch(() => '')).includes('"retry.scheduled"');
    while (!(await waiting())) await sleep(5);
    // Stopped while the item waits out its back-off: the rest of the wait is left for the resume.
    child.process.kill('SIGINT');
    expect((await child.done).code).toBe(1);
    const id = await newRunId(path);
    const wrong = await runCli(['resume', id, ...args, '--deadline', 'soon'], dir);
    expect(wrong.code).not.toBe(0);
    expect(wrong.err.trim().split('\n')).toHaveLength(1);
    expect(wrong.err).toContain('--deadline must be a positive number of milliseconds');
    const r = await runCli(
      ['resume', id, ...args, '--virtual-time', '--seed', '7', '--deadline', '600000'],
      dir,
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`resumed run ${id}: completed`);
    expect(r.out).toContain('(virtual clock)');
  });
});
