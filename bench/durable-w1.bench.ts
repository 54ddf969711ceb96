/**
 * Durable W1: the compose → validate loop of bench/w1.bench.ts (same DAG, same nodes, 9 node executions per
 * run), sequentially awaited runs, each recorded in a run store: an SQLite file in a temporary folder, and
 * for comparison SQLite `:memory:` and the memory store. Beside them, from the same process: the engine with
 * no store, the loop written by hand, and the loop written by hand writing a checkpoint row per transition
 * into its own better-sqlite3 table with the store's pragmas (bench/baseline/durable-compose-validate.ts),
 * one transaction per transition, one per run, or the run's row first and the rest with its end (two per
 * run, as the dispatcher commits). Prints µs per node execution (wall and CPU), medians of several
 * repetitions each on a fresh store, and what a durable run writes. `RUNS=n`, `REPS=n` set the sizes.
 */

import { STORE_LABELS, type StoreKind } from './durable-common.ts';
import { durableW1Runs, type Figures, figuresOf, type Sample } from './durable-w1-runs.ts';
import { printTable } from './stats.ts';
import { W1_BUDGET } from './workloads.ts';

const RUNS = Number(process.env.RUNS ?? 500);
const REPS = Number(process.env.REPS ?? 7);
const WARMUP = 2;
const BUDGET = W1_BUDGET;
const TARGET_US = 15;

const w1 = durableW1Runs(RUNS);

async function measure(fn: () => Promise<Sample>, warmup = WARMUP): Promise<Figures> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: Sample[] = [];
  for (let i = 0; i < REPS; i++) samples.push(await fn());
  return figuresOf(samples);
}

const hand = await measure(() => w1.byHand());
const perTransition = await measure(() => w1.ledger('transition'));
const perRun = await measure(() => w1.ledger('run'));
const startAndEnd = await measure(() => w1.ledger('start-and-end'));
// Runs without a store take microseconds: more of them are needed before the JIT has settled.
const inMemory = await measure(() => w1.engine('none'), 10 * WARMUP);
const durable = new Map<StoreKind, Figures>();
for (const kind of ['sqlite-file', 'sqlite-memory', 'memory'] as const)
  durable.set(kind, await measure(() => w1.engine(kind)));
const written = await w1.writesPerRun();
w1.close();

const cell = (m: Figures) =>
  `${m.us.toFixed(2)} µs/exec  (CPU ${m.cpuUs.toFixed(2)})  ${(1e6 / m.us / 1000).toFixed(0)}k exec/s`;
const file = durable.get('sqlite-file') as Figures;
const rows: string[][] = [
  ['baseline: hand-written loop, no store', cell(hand), ''],
  [
    'baseline: by hand + checkpoint row, a transaction per transition',
    cell(perTransition),
    'SQLite file, WAL',
  ],
  ['baseline: by hand + checkpoint row, a transaction per run', cell(perRun), 'SQLite file, WAL'],
  [
    'baseline: by hand, the run row committed first, the rest with its end',
    cell(startAndEnd),
    'SQLite file, WAL; two commits per run, as the dispatcher',
  ],
  ['dispatcher, no store', cell(inMemory), ''],
];
for (const [kind, m] of durable) {
  const note =
    kind === 'sqlite-file' ? `${m.us <= TARGET_US ? 'ok' : 'MISSED'} (target ≤ ${TARGET_US} µs)` : '';
  rows.push([`dispatcher, ${STORE_LABELS[kind]}`, cell(m), note]);
}
rows.push(
  [
    'durable cost per transition (SQLite file − no store)',
    `${(file.us - inMemory.us).toFixed(2)} µs`,
    `CPU ${(file.cpuUs - inMemory.cpuUs).toFixed(2)} µs`,
  ],
  [
    'ratio dispatcher+SQLite file / baseline a transaction per transition',
    `${(file.us / perTransition.us).toFixed(1)}×`,
    '',
  ],
  [
    'ratio dispatcher+SQLite file / baseline a transaction per run',
    `${(file.us / perRun.us).toFixed(1)}×`,
    '',
  ],
  [
    'ratio dispatcher+SQLite file / baseline the run row committed first',
    `${(file.us / startAndEnd.us).toFixed(1)}×`,
    '',
  ],
  ['one durable run writes', written, ''],
);
printTable(
  `Durable W1 compose → validate, budget ${BUDGET}, ${RUNS} runs × 9 executions (a transition each), median of ${REPS}, fresh store each`,
  rows,
);
