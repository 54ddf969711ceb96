/**
 * W2 over Redis: the scatter → sub-DAG → gather run of bench/w2.bench.ts (same documents, same nodes) on
 * `ITEMS` list elements (default 5,000), carried by BullMQ workers in 1 and in 2 worker processes
 * (bench/distributed-worker.ts, `CONCURRENCY` jobs at a time each, default 64); beside them, in the same run,
 * the floor: raw BullMQ adding (in bulk) and processing as many empty jobs on the same Redis, with one
 * worker of the same concurrency in this process.
 *
 * An item is one list element (a scatter child; for raw BullMQ, one job). A hop is one BullMQ job: one trip
 * through the queue (a raw job is one hop; a W2 child is one job that runs `double → increment → done` in
 * the worker that took it, and the run adds the input item's job and its gathered job). A move is a
 * placement transition (a `route` event, counted from the run store after the run: the run is awaited with
 * no listener, as a program that wants only its result does). Prints, as medians of `REPS` runs (default 3): items per second,
 * hops and moves per item, hops per second and their ratio to raw BullMQ's, per-hop latency (median and
 * p99 of each job's time from a worker taking it to its finishing, and the median from added to finished,
 * read from the queue's event stream on Redis's clock), Redis commands per item (those run inside Lua
 * scripts included), scripts and KiB sent to Redis per item, and CPU ms per item of Redis, the worker
 * processes and this process (the submitter; for raw BullMQ, its adder and worker).
 *
 * Then the same W2 I/O-bound: each node waits `IO_WAIT_MS` (default 10) before it answers, `IO_CONCURRENCY`
 * (default 4) jobs at a time per worker, `IO_ITEMS` (default 1,000) items, in 1 and 2 worker processes: a
 * worker's concurrency bounds it there, not the CPU, as with nodes that call services.
 *
 * Each CPU-bound configuration first runs `WARMUP` items (default 1,000) unmeasured on the same workers, as
 * a long-lived worker has compiled its code and grown its heap; CPU, commands and hops count the measured
 * run only.
 *
 * Runs on a redis-server of its own on a free port (stopped at the end), so that the counts are its alone;
 * `SWITCHYARD_BENCH_REDIS=redis://…` runs on that server instead (keys under a scratch prefix, deleted at
 * the end). Says so and exits 0 when no Redis can be had. `BENCH_CPU_PROF=<dir>` writes a `--cpu-prof`
 * profile of every worker process there; `BENCH_ONLY=1` (or `raw`, `2`, `io`, comma-separated) runs only
 * those configurations and prints their times alone unless all of `raw,1,2` ran.
 */
import { randomBytes } from 'node:crypto';
import { quantile } from './distributed-hops.ts';
import { rawBullmq } from './distributed-raw.ts';
import { benchRedis } from './distributed-redis.ts';
import { printResults, printScaleOut, type Sample } from './distributed-report.ts';
import { type DistributedRun, distributedW2, removeKeys, type WorkerShape } from './distributed-run.ts';
import { median } from './stats.ts';

const ITEMS = Number(process.env.ITEMS ?? 5_000);
const REPS = Number(process.env.REPS ?? 3);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 64);
/** Items of an unmeasured first run on each configuration's workers. */
const WARMUP = Number(process.env.WARMUP ?? 1_000);
// About as long as the default prefix (`switchyard:dist`): every BullMQ key carries it.
const ROOT = `sb-${randomBytes(4).toString('hex')}:`;
const PROFILE = process.env.BENCH_CPU_PROF;
/** The configurations to run: `raw`, `1`, `2`, `io` (comma-separated); all by default. */
const ONLY = new Set((process.env.BENCH_ONLY ?? 'raw,1,2,io').split(','));
/** The I/O-bound variant: each node waits `IO_WAIT_MS`, `IO_CONCURRENCY` jobs at a time per worker. */
const IO_SHAPE: WorkerShape = {
  concurrency: Number(process.env.IO_CONCURRENCY ?? 4),
  waitMs: Number(process.env.IO_WAIT_MS ?? 10),
};
const IO_ITEMS = Number(process.env.IO_ITEMS ?? 1_000);

const CPU_BOUND: WorkerShape = { concurrency: CONCURRENCY, waitMs: 0 };

/** A run of W2 with `workers` worker processes of `shape`, on a key prefix of its own. */
function configuration(workers: number, rep: number, shape: WorkerShape): DistributedRun {
  return {
    prefix: `${ROOT}w2-${workers}-${shape.waitMs}-${rep}`,
    workers,
    shape,
    warmup: shape.waitMs > 0 ? 0 : WARMUP,
    profileDir: PROFILE,
  };
}

const redis = await benchRedis();
if (redis === undefined) {
  console.log(
    'skipped: no Redis (no redis-server to start, none at SWITCHYARD_BENCH_REDIS or 127.0.0.1:6379)',
  );
  process.exit(0);
}
try {
  const raw: Sample[] = [];
  const one: Sample[] = [];
  const two: Sample[] = [];
  const ioOne: Sample[] = [];
  const ioTwo: Sample[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    if (ONLY.has('raw')) {
      raw.push(
        await rawBullmq(redis, ITEMS, {
          prefix: `${ROOT}raw${rep}`,
          concurrency: CONCURRENCY,
          warmup: WARMUP,
        }),
      );
    }
    if (ONLY.has('1')) one.push(await distributedW2(redis, ITEMS, configuration(1, rep, CPU_BOUND)));
    if (ONLY.has('2')) two.push(await distributedW2(redis, ITEMS, configuration(2, rep, CPU_BOUND)));
    if (ONLY.has('io')) {
      ioOne.push(await distributedW2(redis, IO_ITEMS, configuration(1, rep, IO_SHAPE)));
      ioTwo.push(await distributedW2(redis, IO_ITEMS, configuration(2, rep, IO_SHAPE)));
    }
    await removeKeys(redis.client, ROOT);
  }
  if (raw.length === 0 || one.length === 0 || two.length === 0) {
    // A profiling run of some configurations (BENCH_ONLY) prints no comparison.
    for (const [label, runs] of [
      ['W2, 1 worker', one],
      ['W2, 2 workers', two],
      ['raw', raw],
    ] as const) {
      if (runs.length === 0) continue;
      const ms = median(runs.map((s) => s.ms));
      const cpu = median(runs.map((s) => s.workerCpuMs)) / ITEMS;
      const p50 = median(runs.map((s) => quantile(s.hops.serviceMs, 0.5)));
      const p99 = median(runs.map((s) => quantile(s.hops.serviceMs, 0.99)));
      const redisCpu = median(runs.map((s) => s.redis.cpuMs)) / ITEMS;
      console.log(
        `${label}: ${ms.toFixed(0)} ms, CPU ms/item: workers ${cpu.toFixed(3)}, Redis ${redisCpu.toFixed(3)}; hop p50 ${p50} ms, p99 ${p99} ms`,
      );
    }
  } else {
    const where = redis.own
      ? 'a redis-server of its own'
      : `${redis.url} (shared: counts include other clients)`;
    printResults(
      { items: ITEMS, reps: REPS, title: `${CONCURRENCY} jobs at a time per worker, on ${where}` },
      raw,
      one,
      two,
    );
  }
  if (ioOne.length > 0 && ioTwo.length > 0) {
    printScaleOut(
      {
        items: IO_ITEMS,
        reps: REPS,
        title: `each node waits ${IO_SHAPE.waitMs} ms, ${IO_SHAPE.concurrency} jobs at a time per worker`,
      },
      ioOne,
      ioTwo,
    );
  }
} finally {
  await removeKeys(redis.client, ROOT).catch(() => undefined);
  await redis.stop();
}
