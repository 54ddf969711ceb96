/**
 * The durable and distributed lines of bench/engine-targets.ts: durable W1 against the hand-written loop
 * writing the same rows (within 1.5×), durable W2 against its hand-written baseline writing as many
 * checkpoints and events (at least 0.7× its items per CPU second), and W2 over Redis against raw BullMQ
 * (at most 2× the CPU per hop, Redis included).
 */
import { type Written, writingFor } from '../durable-common.ts';
import { runChild } from './child.ts';
import type { DistributedFigures } from './distributed.ts';
import type { DurableW1Figures } from './durable-w1.ts';
import type { Measured } from './in-memory-lines.ts';
import type { TargetOptions } from './options.ts';

const us = (n: number) => `${n.toFixed(2)} µs`;

/** Durable W1 on an SQLite file beside the hand-written loop committing as the dispatcher must. */
export function durableW1(options: TargetOptions, root: string): Measured {
  const reps = options.reps ?? 7;
  const f = runChild<DurableW1Figures>(root, 'targets/durable-w1', [
    String(options.durableRuns),
    String(reps),
  ]);
  return {
    target: `durable W1, SQLite file, ${options.durableRuns} runs: engine / hand-written ledger, CPU per transition`,
    baseline: `${us(f.hand.cpuUs)}/exec CPU (${us(f.hand.us)} wall)`,
    engine: `${us(f.engine.cpuUs)}/exec CPU (${us(f.engine.us)} wall)`,
    measured: f.engine.cpuUs / f.hand.cpuUs,
    goal: { bound: 'at most', value: 1.5, unit: 'ratio' },
    before: '2.3×',
    note:
      `${(f.engine.us / f.hand.us).toFixed(2)}× wall; median of ${reps} after ${f.warmup} × ${options.durableRuns} runs; ` +
      `repetitions ${f.early.from}–${f.warmup}: ${(f.early.engine.cpuUs / f.early.hand.cpuUs).toFixed(2)}× (engine ${us(f.early.engine.cpuUs)}, ` +
      `still being optimised); a run writes ${f.written}`,
  };
}

/** What bench/durable-w2.bench.ts prints for one configuration. */
interface DurableW2Figures {
  readonly ms: number;
  readonly cpuMs: number;
  readonly samples: readonly number[];
}

/** Durable W2 (`sync` and `async`) on an SQLite file beside the hand-written chain writing as much. */
export function durableW2(options: TargetOptions, root: string): Measured[] {
  const items = options.durableItems;
  const env = { ITEMS: String(items), ...(options.reps === undefined ? {} : { REPS: String(options.reps) }) };
  const lines: Measured[] = [];
  for (const variant of ['sync', 'async'] as const) {
    const written = runChild<Written>(root, 'durable-w2.bench', [variant, 'count'], { env });
    const writing = JSON.stringify(writingFor(written, items));
    const base = runChild<DurableW2Figures>(root, 'durable-w2.bench', [variant, 'baseline+rows', writing], {
      env,
    });
    const engine = runChild<DurableW2Figures>(root, 'durable-w2.bench', [variant, 'sqlite-file', writing], {
      env,
    });
    const rate = (f: DurableW2Figures) =>
      `${(items / f.cpuMs).toFixed(1)}k items/CPU s (${f.cpuMs.toFixed(0)} ms CPU, ${f.ms.toFixed(0)} ms wall)`;
    lines.push({
      target: `durable W2 ${variant}, SQLite file, ${items.toLocaleString('en')} items: engine / hand-written, items per CPU s`,
      baseline: rate(base),
      engine: rate(engine),
      measured: base.cpuMs / engine.cpuMs,
      goal: { bound: 'at least', value: 0.7, unit: 'ratio' },
      before: '0.34–0.49×',
      note: `${(base.ms / engine.ms).toFixed(2)}× wall; median of ${engine.samples.length}`,
    });
  }
  return lines;
}

/** W2 over Redis with one worker process beside raw BullMQ's empty jobs: CPU per hop, Redis included. */
export function distributed(options: TargetOptions, root: string): Measured {
  const reps = options.reps ?? 5;
  const items = options.distributedItems;
  const f = runChild<DistributedFigures>(root, 'targets/distributed', [String(items), String(reps)]);
  const target = `distributed W2, ${items.toLocaleString('en')} items, 1 worker: engine / raw BullMQ, CPU per hop`;
  const goal = { bound: 'at most', value: 2, unit: 'ratio' } as const;
  if ('skipped' in f) {
    return { target, baseline: '', engine: '', measured: Number.NaN, goal, before: '2.5×', note: f.skipped };
  }
  const cell = (p: { cpuMsPerHop: number; redisCpuMsPerHop: number; hopsPerItem: number }) =>
    `${p.cpuMsPerHop.toFixed(3)} ms/hop (Redis ${p.redisCpuMsPerHop.toFixed(3)}), ${p.hopsPerItem.toFixed(3)} hops/item`;
  return {
    target,
    baseline: cell(f.raw),
    engine: cell(f.w2),
    measured: f.w2.cpuMsPerHop / f.raw.cpuMsPerHop,
    goal,
    before: '2.5×',
    note: `median of ${reps}${f.own ? '' : '; shared Redis: its CPU includes other clients'}`,
  };
}
