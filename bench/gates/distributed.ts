/**
 * The gates benchmark's distributed mode: worker processes (worker.ts) on the benchmark's Redis
 * (distributed-redis.ts: a redis-server of its own, or `SWITCHYARD_BENCH_REDIS`), each run submitted by a
 * distributed dispatcher in this process under a key prefix of the benchmark's, removed on close.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { benchRedis } from '../distributed-redis.ts';
import { removeKeys } from '../distributed-run.ts';
import type { OpenMode } from './modes.ts';
import { callNode, gatesDag } from './workload.ts';

// The worker is this module's sibling, run with tsx as this module is.
const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));
const QUEUE = 'gates';

/** How the workers run: how many processes, and jobs at a time in each. */
export interface WorkerPool {
  readonly workers: number;
  readonly concurrency: number;
}

/** Starts one worker process and waits until it takes jobs. */
async function startWorkerProcess(args: readonly string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  try {
    await new Promise<void>((resolve, reject) => {
      lines.on('line', (line) => {
        if (line === 'ready') resolve();
      });
      child.once('exit', (code) =>
        reject(new Error(`a gates worker exited with ${code} before it was ready`)),
      );
      child.once('error', reject);
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return child;
}

async function stopWorkerProcesses(children: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }),
  );
}

/**
 * Opens the distributed mode: the benchmark's Redis and `pool.workers` worker processes calling the service
 * at `url`. Undefined (and nothing left running) when no Redis answers.
 */
export async function distributed(url: string, pool: WorkerPool): Promise<OpenMode | undefined> {
  const redis = await benchRedis();
  if (redis === undefined) return undefined;
  const prefix = `switchyard-gates-bench-${process.pid}`;
  const children: ChildProcess[] = [];
  const close = async () => {
    await stopWorkerProcesses(children);
    await removeKeys(redis.client, prefix);
    await redis.stop();
  };
  try {
    const started = await Promise.allSettled(
      Array.from({ length: pool.workers }, () =>
        startWorkerProcess([redis.url, prefix, QUEUE, url, String(pool.concurrency)]),
      ),
    );
    for (const s of started) if (s.status === 'fulfilled') children.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  } catch (error) {
    await close();
    throw error;
  }
  return {
    async run(policy, items, onEvent, signal) {
      const dispatcher = await createDistributedDispatcher({
        connection: redis.url,
        nodes: [callNode],
        policy,
        prefix,
        queue: QUEUE,
      });
      try {
        const run = dispatcher.run(gatesDag, {}, { items, onEvent });
        // A run the workers cannot carry never ends: the signal aborts it and gives up following it.
        const stopped = new Promise<never>((_resolve, reject) => {
          const stop = () => {
            void dispatcher
              .abort(run.id, { reason: 'the gates benchmark gave up', waitMs: 5000 })
              .catch(() => {});
            reject(signal.reason);
          };
          if (signal.aborted) stop();
          else signal.addEventListener('abort', stop, { once: true });
        });
        return await Promise.race([run.result, stopped]);
      } finally {
        await dispatcher.close();
      }
    },
    close,
  };
}
