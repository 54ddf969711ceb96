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
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import { createDistributedDispatcher } from '../src/distributed/dispatcher.ts';
import { libraryOf } from '../src/document/load.ts';
import { defineNode } from '../src/runtime/node.ts';
import type { RunStore } from '../src/store/types.ts';
import { double, increment } from './baseline/scatter-chain.ts';
import { keepEvents, lastEvent, quantile, readHops } from './distributed-hops.ts';
import { cpuMs, rawBullmq } from './distributed-raw.ts';
import { type BenchRedis, benchRedis, usageBetween } from './distributed-redis.ts';
import { printResults, printScaleOut, type Sample } from './distributed-report.ts';
import { median } from './stats.ts';
import { w2Documents } from './workloads.ts';

const ITEMS = Number(process.env.ITEMS ?? 5_000);
const REPS = Number(process.env.REPS ?? 3);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 64);
/** Items of an unmeasured first run on each configuration's workers. */
const WARMUP = Number(process.env.WARMUP ?? 1_000);
const WORKER = fileURLToPath(new URL('./distributed-worker.ts', import.meta.url));
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

interface WorkerProcess {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  /** Its CPU ms so far. */
  cpu(): Promise<number>;
}

/** How the workers of a configuration run: jobs at a time each, and how long each node waits (ms). */
interface WorkerShape {
  readonly concurrency: number;
  readonly waitMs: number;
}

const CPU_BOUND: WorkerShape = { concurrency: CONCURRENCY, waitMs: 0 };

function startWorkerProcess(url: string, prefix: string, shape: WorkerShape): WorkerProcess {
  const flags = PROFILE === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`];
  const child = spawn(
    process.execPath,
    [...flags, '--import', 'tsx', WORKER, url, prefix, 'w2', String(shape.concurrency), String(shape.waitMs)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    onReady = resolve;
    // A worker that dies before it takes jobs fails the benchmark rather than leaving it waiting.
    child.once('exit', (code) =>
      reject(new Error(`a worker process exited with ${code} before it was ready`)),
    );
  });
  const waiting: ((ms: number) => void)[] = [];
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  lines.on('line', (line) => {
    if (line === 'ready') onReady();
    const cpu = /^cpu ([\d.]+)$/u.exec(line);
    if (cpu !== null) waiting.shift()?.(Number(cpu[1]));
  });
  return {
    child,
    ready,
    cpu() {
      return new Promise<number>((resolve) => {
        waiting.push(resolve);
        child.stdin?.write('cpu\n');
      });
    },
  };
}

/** The CPU ms of all the worker processes so far. */
async function workersCpu(processes: readonly WorkerProcess[]): Promise<number> {
  const each = await Promise.all(processes.map((p) => p.cpu()));
  return each.reduce((a, b) => a + b, 0);
}

/** W2 over Redis with `workers` worker processes: one run of `n` children. */
async function distributedW2(
  redis: BenchRedis,
  n: number,
  workers: number,
  rep: number,
  shape: WorkerShape = CPU_BOUND,
): Promise<Sample> {
  const prefix = `${ROOT}w2-${workers}-${shape.waitMs}-${rep}`;
  const processes = Array.from({ length: workers }, () => startWorkerProcess(redis.url, prefix, shape));
  await Promise.all(processes.map((p) => p.ready));
  const { child, parent } = w2Documents();
  const nodes = [
    defineNode({ id: 'urn:bench:double', outputs: ['ok'], run: (item) => double(item.data) }),
    defineNode({ id: 'urn:bench:increment', outputs: ['ok'], run: (item) => increment(item.data) }),
  ];
  const dispatcher = await createDistributedDispatcher({
    connection: redis.url,
    nodes,
    library: libraryOf([child]),
    prefix,
    queue: 'w2',
  });
  let stopped = false;
  const stopWorkers = async () => {
    if (stopped) return;
    stopped = true;
    for (const p of processes) p.child.kill('SIGTERM');
    await Promise.all(processes.map((p) => (p.child.exitCode === null ? once(p.child, 'exit') : undefined)));
  };
  try {
    // The dispatcher's queue writes the queue's settings as it connects; the stream's length is set after.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await keepEvents(redis.client, prefix, 'w2');
    // A first run warms the workers up (a long-lived worker has compiled its code and grown its heap).
    const warmup = shape.waitMs > 0 ? 0 : WARMUP;
    if (warmup > 0) await dispatcher.run(parent, { xs: Array.from({ length: warmup }, (_x, i) => i) });
    const xs = Array.from({ length: n }, (_x, i) => i);
    const after = await lastEvent(redis.client, prefix, 'w2');
    const before = await redis.counters();
    const workersBefore = await workersCpu(processes);
    const cpu = process.cpuUsage();
    const start = performance.now();
    // Nobody listens, as in a program that awaits the result: the moves are counted from the store after.
    const result = await dispatcher.run(parent, { xs });
    const ms = performance.now() - start;
    const submitterCpuMs = cpuMs(cpu);
    const workerCpuMs = (await workersCpu(processes)) - workersBefore;
    const usage = usageBetween(before, await redis.counters());
    const out = result.items[0]?.data.out;
    if (!Array.isArray(out) || out.length !== n || out.some((v, i) => v !== 2 * i + 1)) {
      throw new Error(`W2 over Redis gave a wrong result: ${JSON.stringify(out).slice(0, 200)}`);
    }
    const hops = await readHops(redis.client, prefix, 'w2', after);
    const transitions = await countRoutes(dispatcher.store, result.runId);
    return { ms, hops, redis: usage, workerCpuMs, submitterCpuMs, transitions };
  } finally {
    await dispatcher.close();
    await stopWorkers();
  }
}

/** The placement transitions (`route` events) a run's store holds. */
async function countRoutes(store: RunStore, runId: string): Promise<number> {
  let routes = 0;
  let after: number | undefined;
  for (;;) {
    const page = await store.readEvents(
      runId,
      after === undefined ? { limit: 10_000 } : { after, limit: 10_000 },
    );
    for (const event of page) if (event.type === 'route') routes++;
    if (page.length < 10_000) return routes;
    after = (page.at(-1) as { seq: number }).seq;
  }
}

async function removeKeys(redis: Redis): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${ROOT}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
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
    if (ONLY.has('1')) one.push(await distributedW2(redis, ITEMS, 1, rep));
    if (ONLY.has('2')) two.push(await distributedW2(redis, ITEMS, 2, rep));
    if (ONLY.has('io')) {
      ioOne.push(await distributedW2(redis, IO_ITEMS, 1, rep, IO_SHAPE));
      ioTwo.push(await distributedW2(redis, IO_ITEMS, 2, rep, IO_SHAPE));
    }
    await removeKeys(redis.client);
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
  await removeKeys(redis.client).catch(() => undefined);
  await redis.stop();
}
