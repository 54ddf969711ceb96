/**
 * The distributed target's measurement, in a process of its own: W2 over Redis with one worker process
 * (bench/distributed-run.ts) beside raw BullMQ adding and processing as many empty jobs
 * (bench/distributed-raw.ts), on a redis-server of its own (bench/distributed-redis.ts), alternating
 * repetitions. Prints one JSON line: the median CPU ms per hop of each (Redis, the workers and this
 * process, over the BullMQ jobs made), or why it was skipped.
 *
 *   node --import tsx bench/targets/distributed.ts <items> <reps>
 */
import { randomBytes } from 'node:crypto';
import { rawBullmq } from '../distributed-raw.ts';
import { benchRedis } from '../distributed-redis.ts';
import { cpuPerHop, type Sample } from '../distributed-report.ts';
import { distributedW2, removeKeys } from '../distributed-run.ts';
import { median } from '../stats.ts';

/** What the process prints. */
export type DistributedFigures =
  | {
      readonly raw: PerHop;
      readonly w2: PerHop;
      /** True when the Redis was the benchmark's own (its CPU is then the benchmark's alone). */
      readonly own: boolean;
    }
  | { readonly skipped: string };

/** The CPU a configuration spent per hop, and the hops it made per list element. */
export interface PerHop {
  readonly cpuMsPerHop: number;
  readonly hopsPerItem: number;
  readonly redisCpuMsPerHop: number;
}

const CONCURRENCY = 64;
const WARMUP = 1_000;

function perHop(runs: readonly Sample[], items: number): PerHop {
  return {
    cpuMsPerHop: cpuPerHop(runs),
    hopsPerItem: median(runs.map((s) => s.hops.jobs)) / items,
    redisCpuMsPerHop: median(runs.map((s) => s.redis.cpuMs / s.hops.jobs)),
  };
}

async function main(items: number, reps: number): Promise<DistributedFigures> {
  const redis = await benchRedis();
  if (redis === undefined) return { skipped: 'no Redis to run on' };
  const root = `sb-${randomBytes(4).toString('hex')}:`;
  try {
    const raw: Sample[] = [];
    const w2: Sample[] = [];
    for (let rep = 0; rep < reps; rep++) {
      const rawRun = () =>
        rawBullmq(redis, items, { prefix: `${root}raw${rep}`, concurrency: CONCURRENCY, warmup: WARMUP });
      const w2Run = () =>
        distributedW2(redis, items, {
          prefix: `${root}w2-${rep}`,
          workers: 1,
          shape: { concurrency: CONCURRENCY, waitMs: 0 },
          warmup: WARMUP,
        });
      if (rep % 2 === 0) {
        raw.push(await rawRun());
        w2.push(await w2Run());
      } else {
        w2.push(await w2Run());
        raw.push(await rawRun());
      }
      await removeKeys(redis.client, root);
    }
    return { raw: perHop(raw, items), w2: perHop(w2, items), own: redis.own };
  } finally {
    await removeKeys(redis.client, root).catch(() => undefined);
    await redis.stop();
  }
}

const [items, reps] = process.argv.slice(2);
if (items === undefined || reps === undefined) {
  process.stderr.write('usage: distributed.ts <items> <reps>\n');
  process.exitCode = 2;
} else {
  process.stdout.write(`${JSON.stringify(await main(Number(items), Number(reps)))}\n`);
}
