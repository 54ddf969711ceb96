/**
 * Redis going away during a run: a redis-server of the test's own (append-only file synced on every write)
 * is killed with SIGKILL while two worker processes carry a document with a retry loop, a salvage route
 * and a scatter/gather, and started again on the same port and folder. The workers and the submitter
 * reconnect with back-off and carry on; every item ends exactly once, with the same result as a run
 * without the outage, and no node runs more often than it did without it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { dag } from '../../src/document/builder.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import type { RunResult } from '../../src/runtime/run.ts';
import { nodes } from './fixtures/outage-nodes.ts';
import { startPrivateRedis } from './fixtures/private-redis.ts';

const WORKER = fileURLToPath(new URL('./fixtures/outage-worker.ts', import.meta.url));
const ITEMS = 300;

const doc = dag('urn:test:outage', { name: 'outage', version: '1' })
  .budget('tries', 3)
  .entry('work')
  .task('work', 'urn:outage:work')
  .route('ok', 'fan')
  .retry('again', 'work', { budget: 'tries', exhausted: 'salvage' })
  .task('salvage', 'urn:outage:salvage')
  .salvage('salvaged', 'fan')
  .scatter('fan', { items: '/parts', node: 'urn:outage:part' })
  .route('done', 'join')
  .gather('join', { into: '/out', reducer: 'partition', require: 'all' })
  .route('completed', 'done')
  .route('failed', 'partly')
  .terminal('done', 'completed')
  .terminal('partly', 'failed')
  .build();

const items = Array.from({ length: ITEMS }, (_x, n) => ({ n, parts: ['a', 'b', n % 5 === 0 ? 'bad' : 'c'] }));
const policy = {
  defaults: { backoff: { strategy: 'constant', baseMs: 20, capMs: 20 }, jitter: 'none' },
} as const;

interface Worker {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  readonly err: () => string;
}

function startWorker(url: string, log: string, lockMs: number | undefined): Worker {
  const lock = lockMs === undefined ? {} : { OUTAGE_LOCK_MS: String(lockMs) };
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, url, 'outage', 'outage'], {
    env: { ...process.env, OUTAGE_LOG: log, ...lock },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const ready = new Promise<void>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
  });
  return { child, ready, err: () => err };
}

async function stop(workers: readonly Worker[]): Promise<void> {
  for (const w of workers) w.child.kill('SIGTERM');
  await Promise.all(
    workers.map((w) =>
      w.child.exitCode === null && w.child.signalCode === null ? once(w.child, 'exit') : undefined,
    ),
  );
}

/**
 * What must not change with the outage: every input item in exactly one list of the result, with the same
 * ending, path, data and budgets.
 */
function outcomes(result: RunResult) {
  return {
    status: result.status,
    items: result.items.map((i) => ({
      id: i.id,
      terminal: i.terminal,
      data: i.data,
      budgets: { ...i.state.budgets },
      trail: i.state.trail,
    })),
    failures: result.failures,
    aborted: result.aborted,
    byTerminal: { ...result.stats.byTerminal },
  };
}

/** What the run's reports added up to: its counters, and the input items whose end event came twice. */
function reported(result: RunResult, ends: ReadonlyMap<string, number>) {
  const { executions, retries, salvages, exhausted } = result.stats;
  return { executions, retries, salvages, exhausted, endedTwice: [...ends].filter(([, n]) => n > 1).length };
}

/** Polls `condition` every 20 ms until it holds; fails naming `what` after 30 s. */
async function waitFor(what: string, condition: () => boolean): Promise<void> {
  const end = performance.now() + 30_000;
  while (!condition()) {
    if (performance.now() > end) throw new Error(`waited 30 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Runs the document on two fresh workers (with a BullMQ lock of `lockMs`, default BullMQ's); `during` is
 * called with the count of input items ended at each input item's end event, and the workers.
 */
async function run(
  url: string,
  dir: string,
  name: string,
  lockMs: number | undefined,
  during?: (ended: number, workers: readonly Worker[]) => Promise<void> | void,
): Promise<{ result: RunResult; executions: string[]; ends: Map<string, number>; logs: string[] }> {
  const log = join(dir, `${name}.log`);
  const workers = [startWorker(url, log, lockMs), startWorker(url, log, lockMs)];
  await Promise.all(workers.map((w) => w.ready));
  const dispatcher = await createDistributedDispatcher({
    connection: url,
    nodes,
    prefix: 'outage',
    queue: 'outage',
    policy,
  });
  const ends = new Map<string, number>();
  let pending: Promise<void> | undefined;
  try {
    const result = await dispatcher.run(
      doc,
      {},
      {
        items,
        onEvent: (event: RunEvent) => {
          if (event.type !== 'item.end' || event.item.includes('.')) return;
          ends.set(event.item, (ends.get(event.item) ?? 0) + 1);
          const outcome = during?.(ends.size, workers);
          if (outcome !== undefined) pending = outcome;
        },
      },
    );
    await pending;
    const executions = (await readFile(log, 'utf8')).trim().split('\n');
    return { result, executions, ends, logs: workers.map((w) => w.err()) };
  } finally {
    await dispatcher.close();
    await stop(workers);
  }
}

/**
 * A run without and a run with an outage after 60 of the 300 input items ended, on a private Redis. Redis
 * comes back once every worker has said it lost Redis, and, with a lock of `lockMs`, once the outage has
 * lasted twice that long, so that every lock taken before it has expired.
 */
async function calmAndStormy(lockMs: number | undefined) {
  const redis = await startPrivateRedis();
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-outage-'));
  try {
    const calm = await run(redis.url, dir, 'calm', lockMs);
    let outages = 0;
    const stormy = await run(redis.url, dir, 'stormy', lockMs, async (ended, workers) => {
      if (ended !== 60) return;
      outages++;
      const down = performance.now();
      await redis.kill();
      await waitFor('every worker to say it lost Redis', () =>
        workers.every((w) => w.err().includes('lost Redis')),
      );
      if (lockMs !== undefined) {
        const left = down + 2 * lockMs - performance.now();
        if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
      }
      await redis.start();
    });
    expect(outages).toBe(1);
    // Every input item once, in exactly one list, as without the outage.
    const ids = [...stormy.result.items.map((i) => i.id), ...stormy.result.failures.map((f) => f.id)];
    expect(ids.sort()).toEqual(items.map((_x, n) => String(n + 1)).sort());
    expect(stormy.ends.size).toBe(ITEMS);
    const expected = outcomes(calm.result);
    expect(calm.result.stats.retries).toBeGreaterThan(0);
    expect(calm.result.stats.salvages).toBeGreaterThan(0);
    expect(outcomes(stormy.result)).toEqual(expected);
    const said = stormy.logs.join('');
    expect(said).toContain('lost Redis');
    expect(said).toContain('is back');
    const repeated = { calm: reported(calm.result, calm.ends), stormy: reported(stormy.result, stormy.ends) };
    console.info(`redis outage (lock ${lockMs ?? 'default'} ms): ${JSON.stringify(repeated)}`);
    return { calm, stormy };
  } finally {
    await redis.remove();
    await rm(dir, { recursive: true, force: true });
  }
}

describe('Redis going away during a run', () => {
  it('loses nothing and runs no node twice when it comes back', { timeout: 120_000 }, async () => {
    const { calm, stormy } = await calmAndStormy(undefined);
    expect(stormy.executions.sort()).toEqual(calm.executions.sort());
    // A report the client sent again once Redis was back is written once: no counter or event twice.
    expect(reported(stormy.result, stormy.ends)).toEqual(reported(calm.result, calm.ends));
  });

  it('ends every item once with the same result when the outage outlasts the job locks', {
    timeout: 120_000,
  }, async () => {
    // Jobs whose locks expired during the outage are run again (BullMQ's stalled-job recovery): their
    // nodes may run again, but every item still ends once with the same result.
    const { calm, stormy } = await calmAndStormy(500);
    expect(stormy.executions.length).toBeGreaterThanOrEqual(calm.executions.length);
    // A repeated job that ends its item again writes nothing: each item's end is in the events once.
    expect(reported(stormy.result, stormy.ends).endedTwice).toBe(0);
  });
});
