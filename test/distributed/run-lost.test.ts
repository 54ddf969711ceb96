/**
 * When a distributed run is lost: its ledger is gone and its run store holds no ended record of it. A run
 * that ended keeps its ended record after its ledger expires, and is over, not lost; a run whose ledger
 * alone went (evicted, or deleted) can never be ended, and a worker carrying its job and an abort waiting
 * for it say so. On the Redis at 127.0.0.1:6379, under a key prefix of this file's own.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { runKeys } from '../../src/distributed/keys.ts';
import { runIsLost } from '../../src/distributed/run-lost.ts';
import { type DistributedWorker, startWorker } from '../../src/distributed/worker.ts';
import { dag } from '../../src/document/builder.ts';
import { isSwitchyardError } from '../../src/errors.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import { openRedisStore, type RedisRunStore } from '../../src/store/redis.ts';
import type { RunStatus } from '../../src/store/types.ts';
import { makeRun, runWrite } from '../store/fixtures.ts';

const URL_ = 'redis://127.0.0.1:6379';
const PREFIX = `test-run-lost-${process.pid}`;
/** The longest any condition is waited for. */
const BOUND_MS = 30_000;

const redis = new Redis(URL_, { maxRetriesPerRequest: null });
redis.on('error', () => undefined);
const opened: { close(): Promise<void> }[] = [];

/** Deletes every key of this file's. */
async function clear(): Promise<void> {
  const keys = await redis.keys(`${PREFIX}*`);
  if (keys.length > 0) await redis.del(...keys);
}

afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
  await clear();
});
afterAll(() => redis.disconnect());

async function store(prefix: string): Promise<RedisRunStore> {
  const runs = await openRedisStore(URL_, { prefix });
  opened.push(runs);
  return runs;
}

/** Polls `condition` every 20 ms until it holds; fails naming `what` after {@link BOUND_MS}. */
async function waitFor(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  const end = performance.now() + BOUND_MS;
  while (!(await condition())) {
    if (performance.now() > end) throw new Error(`waited ${BOUND_MS} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('runIsLost', () => {
  const ledger = `${PREFIX}:run:{r}:ledger`;
  async function lost(ledgerThere: boolean, status: RunStatus | undefined, known = true): Promise<boolean> {
    const runs = await store(`${PREFIX}:store:`);
    if (status !== undefined) await runs.commit([runWrite(makeRun('r', { status }))]);
    if (ledgerThere) await redis.hset(ledger, 'seq', '1');
    const answer = await runIsLost({ redis, ledger, store: known ? runs : undefined }, 'r');
    await clear();
    return answer;
  }

  it('calls a run lost when its ledger is gone and its record is gone or still running', async () => {
    expect(await lost(false, undefined)).toBe(true);
    expect(await lost(false, 'running')).toBe(true);
    expect(await lost(false, 'running', false)).toBe(true);
  });

  it('never calls a run lost while its ledger is there, nor once its record says it ended', async () => {
    expect(await lost(true, 'running')).toBe(false);
    expect(await lost(true, undefined)).toBe(false);
    for (const status of ['completed', 'failed', 'aborted'] as const) {
      expect(await lost(false, status)).toBe(false);
    }
  });
});

describe('a run whose ledger alone is gone', () => {
  it('is dropped by the worker carrying its job, said once, and fails the abort waiting for it', {
    timeout: 60_000,
  }, async () => {
    let start: () => void = () => undefined;
    let release: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      start = resolve;
    });
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hold = defineNode({
      id: 'urn:test:run-lost:hold',
      outputs: ['ok'],
      run: async () => {
        start();
        await released;
        return 'ok';
      },
    });
    const doc = dag('urn:test:run-lost', { name: 'run-lost', version: '1' })
      .entry('hold')
      .task('hold', 'urn:test:run-lost:hold')
      .route('ok', 'done')
      .terminal('done', 'completed')
      .build();
    const said: string[] = [];
    const runs = await store(`${PREFIX}:store:`);
    const worker: DistributedWorker = await startWorker({
      connection: URL_,
      nodes: [hold] as unknown as NodeDefinition<string, never>[],
      prefix: PREFIX,
      store: runs,
      log: (line) => said.push(line),
    });
    opened.push({ close: () => worker.close(true) });
    const dispatcher = await createDistributedDispatcher({ connection: URL_, prefix: PREFIX, store: runs });
    opened.push(dispatcher);
    const runId = await dispatcher.submit(doc, {}, { items: [{ n: 1 }] });
    await started;
    const aborting = dispatcher.abort(runId, { waitMs: 600_000 }).then(
      () => 'ended',
      (error: unknown) => (isSwitchyardError(error) ? error.code : String(error)),
    );
    const { ledger } = runKeys(PREFIX, runId);
    await waitFor('the abort to be recorded', async () => (await redis.hget(ledger, 'aborted')) !== null);
    await redis.del(ledger);
    expect(await aborting).toBe('E_STORE_RUN_LOST');
    release();
    await waitFor('the worker to say the run is gone', () => said.some((line) => line.includes('is gone')));
    expect(said).toEqual([
      `switchyard worker: run '${runId}' is gone from Redis at ${URL_}: its records were lost (Redis restarted without persistence, or was flushed); this worker drops its jobs`,
    ]);
    expect((await runs.getRun(runId))?.status).toBe('running');
  });
});
