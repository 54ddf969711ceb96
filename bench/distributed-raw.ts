/**
 * The floor bench/distributed-w2.bench.ts measures W2 over Redis against: raw BullMQ adding and processing
 * empty jobs on the same Redis, measured as W2 is (hops from the queue's event stream, Redis counters).
 */
import { performance } from 'node:perf_hooks';
import { Queue, Worker } from 'bullmq';
import { keepEvents, lastEvent, readHops } from './distributed-hops.ts';
import { type BenchRedis, usageBetween } from './distributed-redis.ts';
import type { Sample } from './distributed-report.ts';

/** CPU ms of this process since `since`. */
export function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** Where and how raw BullMQ runs: its key prefix, jobs at a time, and unmeasured jobs first. */
export interface RawOptions {
  readonly prefix: string;
  readonly concurrency: number;
  readonly warmup: number;
}

/**
 * Raw BullMQ: adds `n` empty jobs in bulk (1,000 per call) and processes them with one worker, both in this
 * process, after `warmup` unmeasured ones.
 */
export async function rawBullmq(redis: BenchRedis, n: number, options: RawOptions): Promise<Sample> {
  const { prefix, concurrency, warmup } = options;
  const connection = redis.client.duplicate({ maxRetriesPerRequest: null });
  const queue = new Queue('raw', { connection, prefix });
  let done = 0;
  let target = 0;
  let finish: () => void = () => undefined;
  const worker = new Worker('raw', async () => undefined, {
    connection: redis.client.duplicate({ maxRetriesPerRequest: null }),
    prefix,
    concurrency,
  });
  worker.on('completed', () => {
    if (++done === target) finish();
  });
  const batch = async (count: number) => {
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    target = done + count;
    const jobs = Array.from({ length: count }, () => ({
      name: 'empty',
      data: {},
      opts: { removeOnComplete: true },
    }));
    for (let i = 0; i < jobs.length; i += 1000) await queue.addBulk(jobs.slice(i, i + 1000));
    await finished;
  };
  try {
    await worker.waitUntilReady();
    await queue.waitUntilReady();
    await keepEvents(redis.client, prefix, 'raw');
    if (warmup > 0) await batch(warmup);
    const after = await lastEvent(redis.client, prefix, 'raw');
    const before = await redis.counters();
    const cpu = process.cpuUsage();
    const start = performance.now();
    await batch(n);
    const ms = performance.now() - start;
    const submitterCpuMs = cpuMs(cpu);
    const usage = usageBetween(before, await redis.counters());
    const hops = await readHops(redis.client, prefix, 'raw', after);
    return { ms, hops, redis: usage, workerCpuMs: 0, submitterCpuMs, transitions: n };
  } finally {
    await worker.close();
    await queue.close();
    connection.disconnect();
  }
}
