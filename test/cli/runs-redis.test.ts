/**
 * The operations of runs carried by workers on a real Redis, from the command line: `run --redis` without
 * `--wait` submits and exits 0, a worker carries the run to its end, and `runs --redis`, `runs show
 * --redis` and `runs events --redis` read it as they read SQLite runs; `runs abort --redis` ends a run whose
 * item waits out a ten-minute back-off; the refusals are one line each. Every key goes under a scratch
 * prefix ($SWITCHYARD_REDIS_PREFIX) and is removed.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodes as composeNodes } from '../../examples/compose-validate/nodes.ts';
import { type DistributedWorker, startWorker } from '../../src/distributed/worker.ts';
import type { NodeDefinition } from '../../src/runtime/node.ts';
import type { RedisRunStore } from '../../src/store/redis.ts';
import { removeScratchKeys, scratchPrefix, scratchRedisStore, TEST_REDIS } from '../store/redis-scratch.ts';
import { runCli } from './run-cli.ts';

const NODES = 'examples/compose-validate/nodes.ts';
const DAG = 'dags/compose-validate.jsonld';
const prefix = scratchPrefix();
let store: RedisRunStore;
let worker: DistributedWorker;
let slowPolicy: string;

beforeAll(async () => {
  process.env.SWITCHYARD_REDIS_PREFIX = prefix;
  store = await scratchRedisStore(prefix);
  const nodes = composeNodes as unknown as NodeDefinition<string, never>[];
  worker = await startWorker({
    connection: TEST_REDIS,
    nodes,
    prefix: `${prefix}dist`,
    store,
    concurrency: 4,
  });
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-runs-redis-'));
  slowPolicy = join(dir, 'slow.policy.json');
  const tenMinutes = { strategy: 'constant', baseMs: 600_000, capMs: 600_000 };
  await writeFile(slowPolicy, JSON.stringify({ defaults: { backoff: tenMinutes, jitter: 'none' } }));
});

afterAll(async () => {
  await worker?.close();
  await store?.close();
  delete process.env.SWITCHYARD_REDIS_PREFIX;
  await removeScratchKeys();
});

/** Waits until `done` holds, looking again every 20 ms (the test's timeout bounds it). */
async function until(done: () => Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Submits `input` without --wait; answers the run id the command printed. */
async function submit(input: unknown[], more: string[] = []): Promise<string> {
  const { code, out, err } = await runCli([
    'run',
    DAG,
    '--nodes',
    NODES,
    '--redis',
    TEST_REDIS,
    '--input',
    JSON.stringify(input),
    ...more,
  ]);
  expect(err).toBe('');
  expect(code).toBe(0);
  const id = /^submitted run (\S+) \(/mu.exec(out)?.[1] as string;
  expect(out).toContain(`follow it: switchyard runs show ${id} --redis ${TEST_REDIS}`);
  return id;
}

describe('runs over Redis from the command line', () => {
  it('submits without --wait, and shows the run the workers ended', { timeout: 30_000 }, async () => {
    const items = [{ topic: 'whales' }, { topic: 'owls', fail: '503' }, { topic: 'bats', rejections: 9 }];
    const id = await submit(items);
    await until(async () => (await store.getRun(id))?.status !== 'running');

    const list = await runCli(['runs', '--redis', TEST_REDIS, '--json']);
    expect(list.code).toBe(0);
    const listed = JSON.parse(list.out) as { runs: { id: string; status: string; items: number }[] };
    expect(listed.runs.find((r) => r.id === id)).toMatchObject({ status: 'completed', items: 3 });

    const show = await runCli(['runs', 'show', id, '--redis', TEST_REDIS, '--json']);
    expect(show.code).toBe(0);
    const view = JSON.parse(show.out) as {
      status: string;
      items: { id: string; status: string; ending: { placement: string } }[];
    };
    expect(view.status).toBe('completed');
    expect(view.items.map((i) => [i.id, i.status, i.ending.placement])).toEqual([
      ['1', 'ended', 'done'],
      ['2', 'ended', 'done'],
      ['3', 'ended', 'salvaged'],
    ]);
    const text = await runCli(['runs', 'show', id, '--redis', TEST_REDIS]);
    expect(text.out).toContain(id);
    expect(text.out).toContain('completed');

    const events = await runCli(['runs', 'events', id, '--redis', TEST_REDIS]);
    const lines = events.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { seq: number; type: string });
    expect(lines[0]?.type).toBe('run.start');
    expect(lines.at(-1)?.type).toBe('run.end');
    expect(lines.map((e) => e.seq)).toEqual(lines.map((_e, i) => i));

    const again = await runCli(['runs', 'abort', id, '--redis', TEST_REDIS]);
    expect(again.code).toBe(1);
    expect(again.err.trim().split('\n')).toEqual([expect.stringMatching(/already ended.*E_RUN_FINISHED/u)]);
  });

  it('submits without --nodes from a machine that has none: the workers carry it with theirs', {
    timeout: 30_000,
  }, async () => {
    const { code, out, err } = await runCli([
      'run',
      DAG,
      '--redis',
      TEST_REDIS,
      '--input',
      JSON.stringify({ topic: 'whales', rejections: 1 }),
      '--json',
    ]);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    const id = (JSON.parse(out) as { runId: string }).runId;
    await until(async () => (await store.getRun(id))?.status !== 'running');
    expect((await store.getRun(id))?.status).toBe('completed');
    // A local run still needs its nodes.
    const local = await runCli(['run', DAG, '--no-store']);
    expect(local.code).toBe(2);
    expect(local.err).toMatch(/required option '--nodes <module>' not specified.*\(E_USAGE\)/u);
  });

  it('aborts a run whose item waits out a ten-minute back-off', { timeout: 30_000 }, async () => {
    const id = await submit(
      [
        { topic: 'whales', rejections: 0 },
        { topic: 'owls', rejections: 2 },
      ],
      ['--policy', slowPolicy],
    );
    await until(async () => {
      const events = await store.readEvents(id);
      return events.some((e) => e.type === 'retry.scheduled') && events.some((e) => e.type === 'item.end');
    });
    // While it waits, `runs show` says where and until when, as for a run in one process.
    const waiting = JSON.parse((await runCli(['runs', 'show', id, '--redis', TEST_REDIS, '--json'])).out) as {
      items: { id: string; status: string; position: { placement: string }; wait?: { reason: string } }[];
    };
    expect(waiting.items.find((i) => i.id === '2')).toMatchObject({
      status: 'waiting',
      position: { placement: 'compose' },
      wait: { reason: 'backoff' },
    });
    const abort = await runCli(['runs', 'abort', id, '--redis', TEST_REDIS]);
    expect(abort.err).toBe('');
    expect(abort.out).toContain(`run ${id} aborted`);
    expect(abort.out).toContain('1 waiting item taken off the queue');
    const show = JSON.parse((await runCli(['runs', 'show', id, '--redis', TEST_REDIS, '--json'])).out) as {
      status: string;
      items: { id: string; ending: unknown }[];
    };
    expect(show.status).toBe('aborted');
    expect(show.items.map((i) => [i.id, i.ending])).toEqual([
      ['1', { kind: 'terminal', placement: 'done', outcome: 'completed' }],
      ['2', { kind: 'aborted', reason: 'backoff' }],
    ]);
  });

  it('refuses what it cannot do with one line', { timeout: 30_000 }, async () => {
    const cases: [string[], RegExp][] = [
      [
        ['runs', '--redis', 'redis://127.0.0.1:1'],
        /^switchyard: cannot reach Redis at redis:\/\/127\.0\.0\.1:1: .*\(E_STORE_UNREACHABLE\)$/u,
      ],
      [
        ['runs', 'show', 'x', '--redis', 'redis://127.0.0.1:1'],
        /cannot reach Redis at redis:\/\/127\.0\.0\.1:1/u,
      ],
      [
        ['runs', 'abort', 'x', '--redis', 'redis://127.0.0.1:1'],
        /cannot reach Redis at redis:\/\/127\.0\.0\.1:1/u,
      ],
      [
        ['run', DAG, '--nodes', NODES, '--redis', 'redis://127.0.0.1:1'],
        /cannot reach Redis at redis:\/\/127\.0\.0\.1:1/u,
      ],
      [['runs', 'abort', 'x'], /runs abort needs --redis <url>.*E_USAGE/u],
      [['runs', 'abort', 'no-such-run', '--redis', TEST_REDIS], /no run 'no-such-run'.*E_STORE_UNKNOWN_RUN/u],
      [
        ['runs', 'show', 'no-such-run', '--redis', TEST_REDIS],
        /no run 'no-such-run'.*`switchyard runs --redis redis:\/\/.*`/u,
      ],
      [['runs', '--redis', 'redis://127.0.0.1:1'], /127\.0\.0\.1:1: [^;]*[^.;]; start redis-server/u],
      [['runs', '--redis', TEST_REDIS, '--store', 'x.db'], /--store and --redis.*E_USAGE/u],
    ];
    for (const [args, line] of cases) {
      const { code, out, err } = await runCli(args);
      // A usage mistake exits 2, any other refusal 1.
      const expected = line.source.includes('E_USAGE') ? 2 : 1;
      expect({ args, code, out }).toEqual({ args, code: expected, out: '' });
      expect(err.trim().split('\n')).toEqual([expect.stringMatching(line)]);
    }
  });
});
