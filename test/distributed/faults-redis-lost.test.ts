/**
 * A distributed run whose Redis loses its data (restarted without persistence, or flushed) while the run is
 * open: the submitter that waits for it (`run --redis --wait`, `dispatcher.run`, listened to or not), an
 * abort waiting for it and a worker that carries or takes one of its jobs each say in one line that the
 * run is gone, instead of waiting for it forever. A redis-server of the test's own, without persistence.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { DEFAULT_QUEUE, type DistributedWorker, startWorker } from '../../src/distributed/worker.ts';
import { dag } from '../../src/document/builder.ts';
import { isSwitchyardError } from '../../src/errors.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import { openRedisStore, type RedisRunStore } from '../../src/store/redis.ts';
import { SWITCHYARD } from '../cli-entry.ts';
import { type PrivateRedis, startPrivateRedis } from './fixtures/private-redis.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
/** The key prefix of `run --redis` and `worker` without $SWITCHYARD_REDIS_PREFIX. */
const STORE_PREFIX = 'switchyard:';
const PREFIX = 'lost';
/** The longest any condition is waited for. */
const BOUND_MS = 30_000;

/** A node that waits until the test lets it go; `started` resolves once it runs. */
function holdingNode() {
  let start: () => void = () => undefined;
  let release: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    start = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const node = defineNode({
    id: 'urn:test:lost:hold',
    outputs: ['ok'],
    run: async () => {
      start();
      await released;
      return 'ok';
    },
  });
  return { nodes: [node] as unknown as NodeDefinition<string, never>[], started, release };
}

const doc = dag('urn:test:lost', { name: 'lost', version: '1' })
  .entry('hold')
  .task('hold', 'urn:test:lost:hold')
  .route('ok', 'done')
  .terminal('done', 'completed')
  .build();

const opened: { close(): Promise<void> }[] = [];
let redis: PrivateRedis | undefined;
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
  await redis?.remove();
  redis = undefined;
});

async function privateRedis(): Promise<PrivateRedis> {
  redis = await startPrivateRedis({ persistent: false });
  return redis;
}

/** A connection of the test's own to `url`. */
function client(url: string): Redis {
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  connection.on('error', () => undefined);
  opened.push({ close: async () => void connection.disconnect() });
  return connection;
}

async function store(url: string, prefix: string): Promise<RedisRunStore> {
  const opened_ = await openRedisStore(url, { prefix });
  opened.push(opened_);
  return opened_;
}

/** Polls `condition` every 20 ms until it holds; fails naming `what` after {@link BOUND_MS}. */
async function waitFor(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  const end = performance.now() + BOUND_MS;
  while (!(await condition())) {
    if (performance.now() > end) throw new Error(`waited ${BOUND_MS} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The code a promise rejects with (bounded: a promise still pending after {@link BOUND_MS} fails). */
async function rejection(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const bound = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`still waiting after ${BOUND_MS} ms`)), BOUND_MS).unref(),
  );
  try {
    await Promise.race([promise, bound]);
  } catch (error) {
    if (isSwitchyardError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a rejection');
}

/** `switchyard run … --redis <url> --wait` as a child process: its exit code and stderr, once it exits. */
function runAndWait(url: string) {
  const child = spawn(
    process.execPath,
    [
      ...SWITCHYARD,
      'run',
      'dags/compose-validate.jsonld',
      '--redis',
      url,
      '--wait',
      '--input',
      '{"topic":"whales"}',
    ],
    { cwd: ROOT, env: { ...process.env, SWITCHYARD_REDIS_PREFIX: '' } },
  );
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  opened.push({
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
    },
  });
  const exited = once(child, 'exit').then(([code]) => ({ code: code as number | null, err }));
  return { exited };
}

const LOST_LINE =
  /^switchyard: run '[0-9a-f-]{36}' is gone from Redis at redis:\/\/127\.0\.0\.1:\d+: its records were lost \(Redis restarted without persistence, or was flushed\), so no worker can end it; submit it again, .* \(E_STORE_RUN_LOST\)$/u;

describe('run --redis --wait when Redis loses the run', () => {
  for (const [how, lose] of [
    [
      'is flushed',
      (r: PrivateRedis) =>
        client(r.url)
          .flushall()
          .then(() => undefined),
    ],
    [
      'restarts empty',
      async (r: PrivateRedis) => {
        await r.kill();
        await r.start();
      },
    ],
  ] as const) {
    it(`says so in one line and exits 1 when Redis ${how}`, { timeout: 90_000 }, async () => {
      const r = await privateRedis();
      const runs = await store(r.url, STORE_PREFIX);
      // No worker: the run stays open until Redis loses it.
      const { exited } = runAndWait(r.url);
      await waitFor('the run to be recorded with its start', async () => {
        const [run] = (await runs.listRuns()).runs;
        return run !== undefined && (await runs.readEvents(run.id)).length > 0;
      });
      await lose(r);
      const bound = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`run --wait still waits after ${BOUND_MS} ms`)), BOUND_MS).unref(),
      );
      const { code, err } = await Promise.race([exited, bound]);
      expect(code).toBe(1);
      expect(err.trim().split('\n')).toHaveLength(1);
      expect(err.trim()).toMatch(LOST_LINE);
    });
  }
});

describe('a distributed dispatcher when Redis loses its runs', () => {
  it('fails the runs it follows, listened to or not, with E_STORE_RUN_LOST', {
    timeout: 60_000,
  }, async () => {
    const r = await privateRedis();
    const dispatcher = await createDistributedDispatcher({ connection: r.url, prefix: PREFIX });
    opened.push(dispatcher);
    const quiet = dispatcher.run(doc, {}, { items: [{ n: 1 }] });
    const heard: string[] = [];
    const listened = dispatcher.run(doc, {}, { items: [{ n: 2 }], onEvent: (e) => heard.push(e.type) });
    const caught = [rejection(quiet.then(() => undefined)), rejection(listened.then(() => undefined))];
    await waitFor('both runs to be recorded', async () => {
      const page = await dispatcher.store.listRuns();
      return page.runs.length === 2 && heard.includes('run.start');
    });
    await client(r.url).flushall();
    const [a, b] = (await Promise.all(caught)) as [
      { code: string; message: string },
      { code: string; message: string },
    ];
    expect([a.code, b.code]).toEqual(['E_STORE_RUN_LOST', 'E_STORE_RUN_LOST']);
    expect(a.message).toContain(`run '${quiet.id}' is gone from Redis at`);
    expect(b.message).toContain(`run '${listened.id}' is gone from Redis at`);
  });
});

describe('a worker whose run Redis loses', () => {
  it('carrying one of its jobs says so once, drops the run, and an abort waiting for it says so too', {
    timeout: 60_000,
  }, async () => {
    const r = await privateRedis();
    const hold = holdingNode();
    const said: string[] = [];
    const runs = await store(r.url, `${PREFIX}:store:`);
    const worker: DistributedWorker = await startWorker({
      connection: r.url,
      nodes: hold.nodes,
      prefix: PREFIX,
      store: runs,
      log: (line) => said.push(line),
    });
    opened.push({ close: () => worker.close(true) });
    const dispatcher = await createDistributedDispatcher({ connection: r.url, prefix: PREFIX, store: runs });
    opened.push(dispatcher);
    const runId = await dispatcher.submit(doc, {}, { items: [{ n: 1 }] });
    await hold.started;
    const aborting = rejection(dispatcher.abort(runId, { waitMs: 600_000 }));
    await waitFor(
      'the abort to be recorded',
      async () => (await client(r.url).hget(`${PREFIX}:run:{${runId}}:ledger`, 'aborted')) !== null,
    );
    await client(r.url).flushall();
    expect(await aborting).toMatchObject({ code: 'E_STORE_RUN_LOST' });
    hold.release();
    await waitFor('the worker to say the run is gone', () => said.some((line) => line.includes('is gone')));
    expect(said).toEqual([
      `switchyard worker: run '${runId}' is gone from Redis at ${r.url}: its records were lost (Redis restarted without persistence, or was flushed); this worker drops its jobs`,
    ]);
    // Nothing of the run was written after it was lost: no key but BullMQ's own.
    const left = (await client(r.url).keys('*')).filter(
      (key) => !key.startsWith(`${PREFIX}:${DEFAULT_QUEUE}:`),
    );
    expect(left).toEqual([]);
  });

  it('taking jobs of a run whose records are gone says so once, however many jobs', {
    timeout: 60_000,
  }, async () => {
    const r = await privateRedis();
    const hold = holdingNode();
    const runs = await store(r.url, `${PREFIX}:store:`);
    const dispatcher = await createDistributedDispatcher({ connection: r.url, prefix: PREFIX, store: runs });
    opened.push(dispatcher);
    const runId = await dispatcher.submit(doc, {}, { items: [{ n: 1 }, { n: 2 }, { n: 3 }] });
    // Everything of the run but its jobs on the queue goes, as when only the run's keys were lost.
    const redisClient = client(r.url);
    const keys = (await redisClient.keys('*')).filter(
      (key) => !key.startsWith(`${PREFIX}:${DEFAULT_QUEUE}:`),
    );
    await redisClient.del(...keys);
    const said: string[] = [];
    const worker = await startWorker({
      connection: r.url,
      nodes: hold.nodes,
      prefix: PREFIX,
      store: runs,
      log: (line) => said.push(line),
    });
    opened.push({ close: () => worker.close(true) });
    const queue = new Queue(DEFAULT_QUEUE, { connection: client(r.url), prefix: PREFIX });
    opened.push(queue);
    await waitFor('the worker to take every job', async () => (await queue.getFailedCount()) === 3);
    expect(said).toEqual([
      `switchyard worker: run '${runId}' is gone from Redis at ${r.url}: its records were lost (Redis restarted without persistence, or was flushed); this worker drops its jobs`,
    ]);
    const failed = await queue.getFailed();
    expect(failed.map((job) => job.failedReason)).toEqual(
      failed.map(() => expect.stringContaining(`run '${runId}' is gone from Redis`)),
    );
  });
});
