/**
 * W2: one input item whose data holds N numbers, scattered through a sub-DAG of two tasks and gathered with
 * `collect`, on the real clock. Two variants, each beside its hand-written baseline measured in the same run:
 *
 * - `sync`: synchronous nodes, scatter concurrency 64, 10,000 and 100,000 items, without and with an event
 *   consumer (baseline: bench/baseline/scatter-chain.ts);
 * - `async`: asynchronous nodes (one answers with a resolved promise, the other awaits a microtask first) and
 *   unbounded concurrency, 10,000, 100,000 and 1,000,000 items (baseline:
 *   bench/baseline/async-scatter-chain.ts).
 *
 * Prints the median run time of several runs (and the median CPU time, which a busy machine disturbs less),
 * items per second (N / run time), peak RSS and the per-item cost of each size over the smallest (linear ≈ 1).
 * Each configuration runs in its own child process, so each peak RSS is that configuration's own; a million
 * items in flight at once need a larger heap than the default, which those processes get. `W2_VARIANT=sync|async`
 * runs one variant; `REPS=n` sets the runs.
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { libraryOf } from '../src/document/load.ts';
import type { PolicyInput } from '../src/policy/types.ts';
import { createDispatcher } from '../src/runtime/dispatcher.ts';
import { defineNode } from '../src/runtime/node.ts';
import { asyncScatterChain, doubleAsync, incrementAsync } from './baseline/async-scatter-chain.ts';
import { double, increment, scatterChain } from './baseline/scatter-chain.ts';
import { median, printTable } from './stats.ts';
import { w2Documents } from './workloads.ts';

const CONCURRENCY = 64;
/** No placement limits how many items run it at once: the largest limit a policy can state. */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;
const TARGET_PER_SECOND = 300_000;
const TARGET_MIB = 150;

type Mode = 'baseline' | 'engine' | 'engine+events';
type VariantName = 'sync' | 'async';

interface Variant {
  readonly name: VariantName;
  readonly title: string;
  readonly sizes: readonly number[];
  readonly modes: readonly Mode[];
  /** The size whose rate is held to {@link TARGET_PER_SECOND}; every size is held to it when undefined. */
  readonly rateAt?: number;
  /** Peak RSS is held to {@link TARGET_MIB} up to this size. */
  readonly memoryUpTo: number;
}

const VARIANTS: readonly Variant[] = [
  {
    name: 'sync',
    title: `W2 scatter → sub-DAG (2 synchronous tasks) → gather collect, concurrency ${CONCURRENCY}`,
    sizes: [10_000, 100_000],
    modes: ['baseline', 'engine', 'engine+events'],
    memoryUpTo: 100_000,
  },
  {
    name: 'async',
    title: 'W2 async: scatter → sub-DAG (2 asynchronous tasks) → gather collect, unbounded concurrency',
    sizes: [10_000, 100_000, 1_000_000],
    modes: ['baseline', 'engine'],
    rateAt: 10_000,
    memoryUpTo: 10_000,
  },
];

interface Figures {
  readonly variant: VariantName;
  readonly mode: Mode;
  readonly size: number;
  readonly ms: number;
  readonly samples: readonly number[];
  /** Median CPU time of the process per run (user + system): less sensitive to a busy machine. */
  readonly cpuMs: number;
  readonly peakMiB: number;
}

/** The most items a warm-up run takes. */
const WARM_UP_SIZE = 100_000;
/** Heap limit (MiB) of the processes measuring a million items: every child is in flight at once. */
const LARGE_HEAP_MIB = 16_384;

const reps = (size: number) => Number(process.env.REPS ?? (size >= 1_000_000 ? 3 : size > 10_000 ? 5 : 9));

function engineRunner(variant: VariantName, withEvents: boolean): (list: number[]) => Promise<void> {
  const { child, parent } = w2Documents();
  const nodes =
    variant === 'sync'
      ? [
          defineNode({ id: 'urn:bench:double', outputs: ['ok'], run: (item) => double(item.data) }),
          defineNode({ id: 'urn:bench:increment', outputs: ['ok'], run: (item) => increment(item.data) }),
        ]
      : [
          defineNode({ id: 'urn:bench:double', outputs: ['ok'], run: (item) => doubleAsync(item.data) }),
          defineNode({
            id: 'urn:bench:increment',
            outputs: ['ok'],
            run: (item) => incrementAsync(item.data),
          }),
        ];
  const policy: PolicyInput =
    variant === 'sync'
      ? { placements: { fan: { concurrency: CONCURRENCY } } }
      : { defaults: { concurrency: UNBOUNDED } };
  const dispatcher = createDispatcher({ nodes, library: libraryOf([child]), policy });
  let events = 0;
  const options = withEvents ? { onEvent: () => void events++ } : {};
  return async (list) => {
    const result = await dispatcher.run(parent, { xs: list }, options);
    const out = result.items[0]?.data.out;
    if (result.status !== 'completed' || !Array.isArray(out) || out.length !== list.length) {
      throw new Error(`W2 run did not complete every child: ${result.status}`);
    }
  };
}

function baselineRunner(variant: VariantName): (list: number[]) => Promise<void> {
  return async (xs) => {
    const out = variant === 'sync' ? await scatterChain(xs, CONCURRENCY) : await asyncScatterChain(xs);
    if (out.length !== xs.length) throw new Error('baseline lost children');
  };
}

async function measureChild(variant: VariantName, mode: Mode, size: number): Promise<Figures> {
  const list = Array.from({ length: size }, (_, i) => i);
  const run = mode === 'baseline' ? baselineRunner(variant) : engineRunner(variant, mode === 'engine+events');
  // Warms up the JIT; a million-item warm-up would only double the time a large size takes.
  await run(size > WARM_UP_SIZE ? list.slice(0, WARM_UP_SIZE) : list);
  const samples: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < reps(size); i++) {
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    await run(list);
    const used = process.cpuUsage(cpuStart);
    samples.push(performance.now() - start);
    cpu.push((used.user + used.system) / 1000);
  }
  const peakMiB = process.resourceUsage().maxRSS / 1024;
  return { variant, mode, size, ms: median(samples), samples, cpuMs: median(cpu), peakMiB };
}

function spawnConfiguration(variant: VariantName, mode: Mode, size: number): Figures {
  const file = fileURLToPath(import.meta.url);
  const heap = size >= 1_000_000 ? [`--max-old-space-size=${LARGE_HEAP_MIB}`] : [];
  const child = spawnSync(process.execPath, [...heap, '--import', 'tsx', file, variant, mode, String(size)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = child.stdout.split('\n').find((l) => l.startsWith('{'));
  if (child.status !== 0 || line === undefined) {
    throw new Error(`W2 ${variant} ${mode} ${size} failed: ${child.stdout}`);
  }
  return JSON.parse(line) as Figures;
}

const fixed = (n: number) => n.toFixed(n < 10 ? 1 : 0);

function report(variant: Variant): void {
  const figures = variant.sizes.flatMap((size) =>
    variant.modes.map((mode) => spawnConfiguration(variant.name, mode, size)),
  );
  const get = (mode: Mode, size: number) =>
    figures.find((f) => f.mode === mode && f.size === size) as Figures;
  const rows: string[][] = [];
  for (const size of variant.sizes) {
    const base = get('baseline', size);
    for (const mode of variant.modes) {
      const f = get(mode, size);
      const perSecond = (size / f.ms) * 1000;
      const notes: string[] = [];
      if (mode !== 'baseline') {
        if (variant.rateAt === undefined || variant.rateAt === size)
          notes.push(`${perSecond >= TARGET_PER_SECOND ? 'ok' : 'MISSED'} ≥ ${TARGET_PER_SECOND / 1000}k/s`);
        if (size <= variant.memoryUpTo)
          notes.push(`${f.peakMiB < TARGET_MIB ? 'ok' : 'MISSED'} < ${TARGET_MIB} MiB`);
        notes.push(`${(f.ms / base.ms).toFixed(1)}× baseline time, +${fixed(f.peakMiB - base.peakMiB)} MiB`);
      }
      rows.push([
        `${size.toLocaleString('en')} items, ${mode}`,
        `${fixed(perSecond / 1000)}k items/s  ${f.ms.toFixed(1)} ms (median of ${f.samples.length}, CPU ${f.cpuMs.toFixed(0)} ms)  peak ${fixed(f.peakMiB)} MiB`,
        notes.join(', '),
      ]);
    }
  }
  const smallest = variant.sizes[0] as number;
  for (const size of variant.sizes.slice(1)) {
    for (const mode of variant.modes) {
      const ratio = get(mode, size).ms / size / (get(mode, smallest).ms / smallest);
      const cpuRatio = get(mode, size).cpuMs / size / (get(mode, smallest).cpuMs / smallest);
      const base = get('baseline', size).ms / size / (get('baseline', smallest).ms / smallest);
      const k = (n: number) => `${(n / 1000).toLocaleString('en')}k`;
      rows.push([
        `per-item cost ${k(size)} / ${k(smallest)}, ${mode}`,
        `${ratio.toFixed(2)} (CPU ${cpuRatio.toFixed(2)})`,
        mode === 'baseline'
          ? 'linear ≈ 1'
          : `linear ≈ 1: ${ratio <= 2 ? 'ok' : 'MISSED'} ≤ 2; ${(ratio / base).toFixed(2)}× the baseline's growth`,
      ]);
    }
  }
  printTable(`${variant.title}, each in its own process`, rows);
}

const [variantArg, modeArg, sizeArg] = process.argv.slice(2);
if (modeArg !== undefined) {
  const figures = await measureChild(variantArg as VariantName, modeArg as Mode, Number(sizeArg));
  process.stdout.write(`${JSON.stringify(figures)}\n`);
} else {
  const only = process.env.W2_VARIANT;
  for (const variant of VARIANTS) if (only === undefined || only === variant.name) report(variant);
}
