/**
 * The table bench/distributed-w2.bench.ts prints: per configuration, medians of its runs' items per second,
 * hops, per-hop latency, Redis commands, bytes and CPU per item (see that file for the definitions).
 */
import type { Hops } from './distributed-hops.ts';
import { quantile } from './distributed-hops.ts';
import type { RedisUsage } from './distributed-redis.ts';
import { median, printTable } from './stats.ts';

/** One measured run of a configuration. */
export interface Sample {
  readonly ms: number;
  readonly hops: Hops;
  readonly redis: RedisUsage;
  /** CPU ms of the worker processes (raw BullMQ: its worker runs in this process, counted as submitter). */
  readonly workerCpuMs: number;
  /** CPU ms of this process during the run. */
  readonly submitterCpuMs: number;
  /** Placement transitions (route events), for W2. */
  readonly transitions: number;
}

/**
 * Median CPU ms per hop of a configuration's runs: Redis's, the workers' and the submitter's CPU time over
 * the BullMQ jobs the run made. It varies less than wall time on a shared machine.
 */
export function cpuPerHop(runs: readonly Sample[]): number {
  return median(runs.map((s) => (s.redis.cpuMs + s.workerCpuMs + s.submitterCpuMs) / s.hops.jobs));
}

/** The table row of a configuration, and its hop rate. */
function row(
  items: number,
  label: string,
  runs: readonly Sample[],
  rawHopsPerSecond: number | undefined,
): string[] {
  const mid = (f: (s: Sample) => number) => median(runs.map(f));
  const ms = mid((s) => s.ms);
  const hopsPerItem = mid((s) => s.hops.jobs) / items;
  const hopsPerSecond = mid((s) => s.hops.jobs / (s.ms / 1000));
  const fixed = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
  const p50 = mid((s) => quantile(s.hops.serviceMs, 0.5));
  const p99 = mid((s) => quantile(s.hops.serviceMs, 0.99));
  return [
    label,
    `${ms.toFixed(0)} ms`,
    `${Math.round(mid((s) => items / (s.ms / 1000))).toLocaleString('en')} /s`,
    fixed(hopsPerItem, 3),
    fixed(mid((s) => s.transitions) / items, 2),
    `${Math.round(hopsPerSecond).toLocaleString('en')} /s`,
    rawHopsPerSecond === undefined ? '1' : fixed(hopsPerSecond / rawHopsPerSecond, 2),
    `${fixed(p50, 0)} / ${fixed(p99, 0)} ms`,
    `${fixed(
      mid((s) => quantile(s.hops.sojournMs, 0.5)),
      0,
    )} ms`,
    fixed(mid((s) => s.redis.commands) / items),
    fixed(mid((s) => s.redis.scripts) / items, 2),
    fixed(mid((s) => s.redis.bytesIn) / items / 1024, 2),
    fixed(mid((s) => s.redis.cpuMs) / items, 3),
    fixed(mid((s) => s.workerCpuMs) / items, 3),
    fixed(mid((s) => s.submitterCpuMs) / items, 3),
  ];
}

/** The commands that make up most of a configuration's Redis work, per item (median run's). */
function topCommands(items: number, runs: readonly Sample[]): string {
  const byMs = [...runs].sort((a, b) => a.ms - b.ms);
  const mid = byMs[Math.floor(byMs.length / 2)] as Sample;
  return [...mid.redis.byCommand]
    .filter(([name]) => name !== 'info')
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([name, calls]) => `${name} ${(calls / items).toFixed(2)}`)
    .join(', ');
}

/** What the table's title says of the runs. */
export interface RunInfo {
  readonly items: number;
  readonly reps: number;
  readonly title: string;
}

/** Prints the table of the three configurations and the two targets. */
export function printResults(
  run: RunInfo,
  raw: readonly Sample[],
  one: readonly Sample[],
  two: readonly Sample[],
): void {
  const items = run.items;
  const rawHopsPerSecond = median(raw.map((s) => s.hops.jobs / (s.ms / 1000)));
  printTable(`W2 over Redis, ${items.toLocaleString('en')} items, median of ${run.reps}, ${run.title}`, [
    [
      '',
      'run',
      'items',
      'hops/item',
      'moves/item',
      'hops',
      'vs raw',
      'hop p50 / p99',
      'added→done p50',
      'cmds/item',
      'scripts/item',
      'KiB in/item',
      'CPU ms/item: Redis',
      'workers',
      'submitter',
    ],
    row(items, 'raw BullMQ, empty jobs, 1 worker', raw, undefined),
    row(items, 'W2, 1 worker process', one, rawHopsPerSecond),
    row(items, 'W2, 2 worker processes', two, rawHopsPerSecond),
  ]);
  console.log(
    '  item: a list element (raw: an empty job); hop: a BullMQ job (added, taken, finished); move: a placement transition (route event)',
  );
  console.log(
    '  hop p50 / p99: from a worker taking a job to its finishing, on Redis clock (event stream); cmds include those run inside Lua scripts',
  );
  console.log(`  raw BullMQ Redis commands per item: ${topCommands(items, raw)}`);
  console.log(`  W2, 1 worker, Redis commands per item: ${topCommands(items, one)}`);
  const rawCpu = cpuPerHop(raw);
  const oneCpu = cpuPerHop(one);
  console.log(
    `  CPU ms per hop, Redis and every process: raw BullMQ ${rawCpu.toFixed(3)}, W2 1 worker ${oneCpu.toFixed(3)}, 2 workers ${cpuPerHop(two).toFixed(3)} (raw / W2 1 worker: ${(rawCpu / oneCpu).toFixed(2)})`,
  );
  const speedup = median(one.map((s) => s.ms)) / median(two.map((s) => s.ms));
  const ratio = median(one.map((s) => s.hops.jobs / (s.ms / 1000))) / rawHopsPerSecond;
  const moves = median(one.map((s) => s.transitions / (s.ms / 1000))) / rawHopsPerSecond;
  console.log(
    `2 workers vs 1: ${speedup.toFixed(2)}× (target > 1); W2 vs raw BullMQ per hop, 1 worker: ${ratio.toFixed(2)} counting a hop as a job, ${moves.toFixed(2)} as a move (target ≥ 0.5)`,
  );
}

/**
 * Prints the I/O-bound variant: the same W2 whose nodes wait before they answer, few jobs at a time per
 * worker, so that a worker's concurrency (not the CPU) bounds it, as with nodes that call services.
 */
export function printScaleOut(run: RunInfo, one: readonly Sample[], two: readonly Sample[]): void {
  const items = run.items;
  const line = (label: string, runs: readonly Sample[]) => {
    const ms = median(runs.map((s) => s.ms));
    const p50 = median(runs.map((s) => quantile(s.hops.serviceMs, 0.5)));
    const p99 = median(runs.map((s) => quantile(s.hops.serviceMs, 0.99)));
    return [
      label,
      `${ms.toFixed(0)} ms`,
      `${Math.round(items / (ms / 1000)).toLocaleString('en')} /s`,
      `${p50.toFixed(0)} / ${p99.toFixed(0)} ms`,
      (median(runs.map((s) => s.workerCpuMs)) / items).toFixed(3),
    ];
  };
  printTable(
    `W2 over Redis, I/O-bound: ${items.toLocaleString('en')} items, median of ${run.reps}, ${run.title}`,
    [
      ['', 'run', 'items', 'hop p50 / p99', 'workers CPU ms/item'],
      line('W2, 1 worker process', one),
      line('W2, 2 worker processes', two),
    ],
  );
  const speedup = median(one.map((s) => s.ms)) / median(two.map((s) => s.ms));
  console.log(`2 workers vs 1, I/O-bound: ${speedup.toFixed(2)}× (target > 1)`);
}
