/**
 * One measured run of W2 over Redis (bench/distributed-w2.bench.ts, bench/targets/distributed.ts): worker
 * processes (bench/distributed-worker.ts) started on a fresh key prefix, an unmeasured warm-up run, then one
 * measured run of `n` children submitted by this process, with the hops it made (from the queue's event
 * stream), what Redis did, and the CPU time of the workers and of this process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
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
import { keepEvents, lastEvent, readHops } from './distributed-hops.ts';
import { cpuMs } from './distributed-raw.ts';
import { type BenchRedis, usageBetween } from './distributed-redis.ts';
import type { Sample } from './distributed-report.ts';
import { w2Documents } from './workloads.ts';

// The worker is this module's sibling, compiled or not: a compiled copy (bench/targets/compiled.ts) runs
// with plain node, the sources with tsx.
const SOURCE = import.meta.url.endsWith('.ts');
const WORKER = fileURLToPath(new URL(`./distributed-worker.${SOURCE ? 'ts' : 'js'}`, import.meta.url));

/** How the workers of a configuration run: jobs at a time each, and how long each node waits (ms). */
export interface WorkerShape {
  readonly concurrency: number;
  readonly waitMs: number;
}

/** Where and how one distributed W2 run goes. */
export interface DistributedRun {
  /** The key prefix of its queues, fresh for the run. */
  readonly prefix: string;
  /** Worker processes. */
  readonly workers: number;
  readonly shape: WorkerShape;
  /** Children of an unmeasured first run on the same workers (0: none). */
  readonly warmup: number;
  /** A folder for a `--cpu-prof` profile of every worker process; none when undefined. */
  readonly profileDir?: string | undefined;
}

interface WorkerProcess {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  /** Its CPU ms so far. */
  cpu(): Promise<number>;
}

function startWorkerProcess(url: string, run: DistributedRun): WorkerProcess {
  const flags = run.profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${run.profileDir}`];
  const { concurrency, waitMs } = run.shape;
  const child = spawn(
    process.execPath,
    [
      ...flags,
      ...(SOURCE ? ['--import', 'tsx'] : []),
      WORKER,
      url,
      run.prefix,
      'w2',
      String(concurrency),
      String(waitMs),
    ],
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

/**
 * W2 over Redis: starts the run's worker processes, runs W2 on `n` list elements and stops the workers.
 * @example
 * const sample = await distributedW2(redis, 5000, { prefix: 'sb-1:w2', workers: 1, shape: { concurrency: 64, waitMs: 0 }, warmup: 1000 });
 */
export async function distributedW2(redis: BenchRedis, n: number, run: DistributedRun): Promise<Sample> {
  const { prefix } = run;
  const processes = Array.from({ length: run.workers }, () => startWorkerProcess(redis.url, run));
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
    if (run.warmup > 0) {
      await dispatcher.run(parent, { xs: Array.from({ length: run.warmup }, (_x, i) => i) });
    }
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

/** Deletes every key under `root` (a scratch prefix of the benchmark's). */
export async function removeKeys(redis: Redis, root: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${root}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}
