/**
 * The in-memory lines of bench/engine-targets.ts: W1 and sync W2 against today's engine (within 5%), async
 * W2 against its hand-written baseline at the smallest size (within 2×), its growth to the larger sizes
 * (linear: at most 2× the smallest size's per-item cost), and the bytes each in-flight item holds.
 */

import { runChild } from './child.ts';
import type { InMemoryFigures } from './in-memory.ts';
import type { InflightFigures } from './inflight.ts';
import type { TargetOptions } from './options.ts';
import type { TargetLine } from './verdict.ts';

/** A line before the load average is added. */
export type Measured = Omit<TargetLine, 'load'>;

/**
 * Engine / hand-written CPU ratios of today's engine, measured by this command on this 2-core machine at a
 * load average of 4–5 (W1 55–68×, the hand-written loop taking 0.01 µs an execution; sync W2 9–11×). Used
 * only when today's tree cannot be extracted (`TARGETS_TODAY=none`, or no git): a coarse stand-in, since the
 * hand-written figures are tiny and move with the load.
 */
export const RECORDED_TODAY: Readonly<Record<'w1' | 'w2-sync', number>> = { w1: 65, 'w2-sync': 9.7 };

const us = (n: number) => `${n.toFixed(3)} µs`;

/**
 * Processes each in-memory comparison runs in. Two copies of the same engine loaded in one process differ
 * by up to ±4% (where each copy's code and objects land), so the ratio is the median of several processes'.
 */
const PROCESSES = 5;

/** The median of a few numbers. */
function mid(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/**
 * W1 (`which` = 'w1') or sync W2 ('w2-sync') by this engine, today's and by hand, in rounds through every
 * order of them, in {@link PROCESSES} processes; the median process's figures.
 */
export function versusToday(
  which: 'w1' | 'w2-sync',
  options: TargetOptions,
  root: string,
  todayRoot: string | undefined,
): Measured {
  const workload = which === 'w1' ? 'w1' : `w2-sync-${options.syncItems}`;
  const rounds = options.reps ?? 12;
  const runs = Array.from({ length: PROCESSES }, () =>
    runChild<InMemoryFigures>(root, 'targets/in-memory', [
      workload,
      String(rounds),
      ...(todayRoot ? [todayRoot] : []),
    ]),
  );
  const ratioOf = (f: InMemoryFigures) =>
    f.engineOverToday === undefined ? f.engineOverHand.cpu / RECORDED_TODAY[which] : f.engineOverToday.cpu;
  const ratios = runs.map(ratioOf);
  const measured = mid(ratios);
  const f = runs.find((run) => ratioOf(run) === measured) as InMemoryFigures;
  const unit = which === 'w1' ? '/exec' : '/item';
  const label =
    which === 'w1'
      ? 'in-memory W1, 2,000 runs × 9 executions: engine / today, CPU'
      : `sync W2, ${options.syncItems.toLocaleString('en')} items, concurrency 64: engine / today, CPU`;
  const spread = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
  return {
    target: label,
    baseline: `${us(f.hand.cpu)}${unit}`,
    engine: `${us(f.engine.cpu)}${unit}${f.today ? `; today ${us(f.today.cpu)}` : ''}`,
    measured,
    goal: { bound: 'at most', value: 1.05, unit: 'ratio' },
    before: '1.00×',
    note:
      `engine / hand ${f.engineOverHand.cpu.toFixed(2)}× CPU, ${f.engineOverHand.wall.toFixed(2)}× wall` +
      (f.engineOverToday === undefined
        ? `; today's engine / hand as recorded (${RECORDED_TODAY[which]}×)`
        : `; engine / today ${f.engineOverToday.wall.toFixed(2)}× wall`) +
      `; median of ${PROCESSES} processes (${spread}) of ${rounds} rounds each`,
  };
}

/** What bench/w2.bench.ts prints for one configuration. */
interface W2Figures {
  readonly ms: number;
  readonly cpuMs: number;
  readonly peakMiB: number;
  readonly samples: readonly number[];
}

/** Heap limit (MiB) of the processes measuring a million items or more: every child is in flight at once. */
const LARGE_HEAP_MIB = 16_384;

function w2Async(mode: 'baseline' | 'engine', size: number, options: TargetOptions, root: string): W2Figures {
  return runChild<W2Figures>(root, 'w2.bench', ['async', mode, String(size)], {
    flags: size >= 1_000_000 ? [`--max-old-space-size=${LARGE_HEAP_MIB}`] : [],
    env: options.reps === undefined ? {} : { REPS: String(options.reps) },
  });
}

/** Async W2 at each size, each configuration in its own process (bench/w2.bench.ts): ratio and growth. */
export function asyncW2(options: TargetOptions, root: string): Measured[] {
  const [smallest, ...larger] = options.asyncSizes as [number, ...number[]];
  const figures = new Map<number, { base: W2Figures; engine: W2Figures }>();
  for (const size of options.asyncSizes) {
    figures.set(size, {
      base: w2Async('baseline', size, options, root),
      engine: w2Async('engine', size, options, root),
    });
  }
  const at = (size: number) => figures.get(size) as { base: W2Figures; engine: W2Figures };
  const items = (n: number) => n.toLocaleString('en');
  const cell = (f: W2Figures, size: number) =>
    `${(((size / f.cpuMs) * 1000) / 1000).toFixed(0)}k items/CPU s (${f.cpuMs.toFixed(0)} ms CPU, ${f.ms.toFixed(0)} ms wall, ${f.peakMiB.toFixed(0)} MiB)`;
  const first = at(smallest);
  const lines: Measured[] = [
    {
      target: `async W2, ${items(smallest)} items, unbounded: engine / hand-written, CPU`,
      baseline: cell(first.base, smallest),
      engine: cell(first.engine, smallest),
      measured: first.engine.cpuMs / first.base.cpuMs,
      goal: { bound: 'at most', value: 2, unit: 'ratio' },
      before: '7.5×',
      note: `${(first.engine.ms / first.base.ms).toFixed(2)}× wall; median of ${first.engine.samples.length}`,
    },
  ];
  for (const size of larger) {
    const growth = (f: (x: { base: W2Figures; engine: W2Figures }) => W2Figures) =>
      f(at(size)).cpuMs / size / (f(first).cpuMs / smallest);
    lines.push({
      target: `async W2 per-item CPU at ${items(size)} / at ${items(smallest)} (linear)`,
      baseline: `${growth((x) => x.base).toFixed(2)}×; ${cell(at(size).base, size)}`,
      engine: `${cell(at(size).engine, size)}`,
      measured: growth((x) => x.engine),
      goal: { bound: 'at most', value: 2, unit: 'ratio' },
      before: size >= 1_000_000 ? '1.86× (wall)' : '1.44× (wall)',
    });
  }
  return lines;
}

/** Bytes each in-flight async W2 item holds, every item held at once, after a forced collection. */
export function inflight(options: TargetOptions, root: string): Measured {
  const reps = String(options.reps ?? 3);
  const size = String(options.inflightItems);
  const base = runChild<InflightFigures>(root, 'targets/inflight', ['baseline', size, reps], {
    flags: ['--expose-gc'],
  });
  const engine = runChild<InflightFigures>(root, 'targets/inflight', ['engine', size, reps], {
    flags: ['--expose-gc'],
  });
  const rss = (f: InflightFigures) => `peak RSS ${(f.peakRss / 1024 / 1024).toFixed(0)} MiB`;
  return {
    target: `async W2, ${options.inflightItems.toLocaleString('en')} items held in flight: heap per item after GC`,
    baseline: `${Math.round(base.bytesPerItem).toLocaleString('en')} B; ${rss(base)}`,
    engine: `${Math.round(engine.bytesPerItem).toLocaleString('en')} B; ${rss(engine)}`,
    measured: engine.bytesPerItem,
    goal: { bound: 'at most', value: 2048, unit: 'bytes' },
    before: '5.4 KiB (peak RSS / item at 1M)',
  };
}
