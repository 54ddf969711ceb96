/**
 * `switchyard worker` and `switchyard run --redis --wait` as a user runs them: two worker processes on a
 * real Redis, a run submitted from a third process, the summary a local run prints, the run in the Redis
 * run store, and SIGTERM draining the workers (exit 0). Every key is under a scratch prefix
 * ($SWITCHYARD_REDIS_PREFIX) and removed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openRedisStore } from '../../src/store/redis.ts';
import { removeScratchKeys, scratchPrefix, TEST_REDIS } from '../store/redis-scratch.ts';
import { waitFor } from '../wait-for.ts';

afterAll(removeScratchKeys);

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/dev/switchyard.js', import.meta.url));
const NODES = 'examples/compose-validate/nodes.ts';

function start(
  args: string[],
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; out: () => string; err: () => string } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  return { child, out: () => out, err: () => err };
}

async function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

async function ready(worker: { err: () => string }): Promise<void> {
  while (!worker.err().includes('taking jobs')) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('switchyard worker and run --redis', () => {
  it('runs compose/validate on two worker processes and drains them on SIGTERM', {
    timeout: 60_000,
  }, async () => {
    const prefix = scratchPrefix();
    const env = { SWITCHYARD_REDIS_PREFIX: prefix };
    const workerArgs = [
      'worker',
      '--redis',
      TEST_REDIS,
      '--nodes',
      NODES,
      '--concurrency',
      '4',
      '--queue',
      'cli',
    ];
    const workers = [start(workerArgs, env), start(workerArgs, env)];
    try {
      await Promise.all(workers.map(ready));
      const input = JSON.stringify([
        { topic: 'whales' },
        { topic: 'owls', fail: '503' },
        { topic: 'bats', rejections: 9 },
      ]);
      const run = start(
        [
          'run',
          'dags/compose-validate.jsonld',
          '--nodes',
          NODES,
          '--redis',
          TEST_REDIS,
          '--wait',
          '--queue',
          'cli',
          '--input',
          input,
          '--json',
        ],
        env,
      );
      expect(await exited(run.child)).toBe(0);
      const result = JSON.parse(run.out()) as {
        runId: string;
        status: string;
        items: { terminal: string }[];
      };
      expect(result.status).toBe('completed');
      expect(result.items.map((i) => i.terminal).sort()).toEqual(['done', 'done', 'salvaged']);
      const store = await openRedisStore(TEST_REDIS, { prefix });
      try {
        expect((await store.getRun(result.runId))?.status).toBe('completed');
      } finally {
        await store.close();
      }
    } finally {
      for (const worker of workers) worker.child.kill('SIGTERM');
    }
    for (const worker of workers) {
      expect(await exited(worker.child)).toBe(0);
      expect(worker.err()).toContain('switchyard worker: stopped');
    }
  });

  it('refuses a Redis that does not answer with one line naming it', { timeout: 30_000 }, async () => {
    const worker = start(['worker', '--redis', 'redis://127.0.0.1:1', '--nodes', NODES], {});
    expect(await exited(worker.child)).toBe(1);
    expect(worker.err().trim().split('\n')).toEqual([
      expect.stringMatching(
        /^switchyard: cannot reach Redis at redis:\/\/127\.0\.0\.1:1: .*\(E_STORE_UNREACHABLE\)$/,
      ),
    ]);
  });

  it('stops following on Ctrl-C and says how to follow or abort the run the workers carry on', {
    timeout: 60_000,
  }, async () => {
    const prefix = scratchPrefix();
    const env = { SWITCHYARD_REDIS_PREFIX: prefix };
    const store = await openRedisStore(TEST_REDIS, { prefix });
    let worker: ReturnType<typeof start> | undefined;
    try {
      // No worker yet: the run is still going when Ctrl-C comes, however slow the machine.
      const input = JSON.stringify({ topic: 'whales' });
      const args = ['run', 'dags/compose-validate.jsonld', '--nodes', NODES, '--redis', TEST_REDIS];
      const run = start([...args, '--wait', '--queue', 'ctrl-c', '--input', input], env);
      const id = await waitFor(async () => (await store.listRuns({ limit: 1 })).runs[0]?.id, {
        what: 'the run to be recorded',
        seen: run.err,
      });
      run.child.kill('SIGINT');
      expect(await exited(run.child)).toBe(1);
      expect(run.err().trim().split('\n')).toEqual([
        expect.stringMatching(
          new RegExp(
            `^switchyard: stopped following run ${id}; the workers carry it on: follow it with \`switchyard runs show ${id} --redis .*\`, or abort it with \`switchyard runs abort ${id} --redis .*\`$`,
          ),
        ),
      ]);
      // The workers end the run without the process that submitted it.
      const started = start(['worker', '--redis', TEST_REDIS, '--nodes', NODES, '--queue', 'ctrl-c'], env);
      worker = started;
      const status = await waitFor(
        async () => {
          const now = (await store.getRun(id))?.status;
          return now !== 'running' && now;
        },
        { what: 'the workers to end the run', withinMs: 45_000, seen: started.err },
      );
      expect(status).toBe('completed');
    } finally {
      await store.close();
      if (worker !== undefined) {
        worker.child.kill('SIGTERM');
        await exited(worker.child);
      }
    }
  });
});
