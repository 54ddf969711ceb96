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
import { performance } from 'node:perf_hooks';
import { createDispatcher } from '../src/runtime/dispatcher.ts';
import type { RunStore } from '../src/store/types.ts';
import { composeValidateLoop } from './baseline/compose-validate.ts';
import { type CommitEvery, openLedger } from './baseline/durable-compose-validate.ts';
import {
  countingStore,
  openStore,
  STORE_LABELS,
  type StoreKind,
  scratchFolder,
  totalRows,
} from './durable-common.ts';
import { median, printTable } from './stats.ts';
import { W1_BUDGET, W1_POLICY, w1Workload } from './workloads.ts';

const RUNS = Number(process.env.RUNS ?? 500);
const REPS = Number(process.env.REPS ?? 7);
const WARMUP = 2;
const BUDGET = W1_BUDGET;
const TARGET_US = 15;

const { compiled, nodes } = w1Workload();

const policy = W1_POLICY;
const folder = scratchFolder('switchyard-durable-w1-');
let files = 0;

/** One repetition: wall and CPU milliseconds, and the node executions they covered. */
interface Sample {
  readonly ms: number;
  readonly cpuMs: number;
  readonly executions: number;
}

async function timed(body: () => Promise<number>): Promise<Sample> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const executions = await body();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000, executions };
}

/** The dispatcher's runs on a fresh store of `kind`, or with no store. */
async function engine(kind: StoreKind | 'none'): Promise<Sample> {
  const store = kind === 'none' ? undefined : await openStore(kind, folder.file(`${files++}.db`));
  const dispatcher = createDispatcher({ nodes, policy, ...(store === undefined ? {} : { store }) });
  const sample = await timed(async () => {
    let executions = 0;
    for (let i = 0; i < RUNS; i++) {
      const result = await dispatcher.run(compiled, { topic: 'whales' });
      if (result.status !== 'completed') throw new Error(`W1 run ended ${result.status}`);
      executions += result.stats.executions;
    }
    return executions;
  });
  await store?.close();
  return sample;
}

async function byHand(): Promise<Sample> {
  return timed(async () => {
    let executions = 0;
    for (let i = 0; i < RUNS; i++) executions += await composeValidateLoop({ topic: 'whales' }, BUDGET);
    return executions;
  });
}

async function ledger(every: CommitEvery): Promise<Sample> {
  const book = openLedger(folder.file(`${files++}.db`), every);
  const sample = await timed(async () => {
    let executions = 0;
    for (let i = 0; i < RUNS; i++) executions += book.run(`run-${i}`, { topic: 'whales' }, BUDGET);
    return executions;
  });
  book.close();
  return sample;
}

/** Median wall and CPU µs per node execution. */
interface Figures {
  readonly us: number;
  readonly cpuUs: number;
}

async function measure(fn: () => Promise<Sample>, warmup = WARMUP): Promise<Figures> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: Sample[] = [];
  for (let i = 0; i < REPS; i++) samples.push(await fn());
  return {
    us: median(samples.map((s) => (s.ms * 1000) / s.executions)),
    cpuUs: median(samples.map((s) => (s.cpuMs * 1000) / s.executions)),
  };
}

/** What one durable run writes, counted over a few runs on the SQLite file. */
async function writesPerRun(): Promise<string> {
  const runs = 50;
  const opened: RunStore = await openStore('sqlite-file', folder.file(`${files++}.db`));
  const { store, counts } = countingStore(opened);
  const dispatcher = createDispatcher({ nodes, policy, store });
  for (let i = 0; i < runs; i++) await dispatcher.run(compiled, { topic: 'whales' });
  await opened.close();
  const kinds = Object.entries(counts.rows)
    .map(([kind, n]) => `${n / runs} ${kind}`)
    .join(', ');
  return `${counts.batches / runs} commits + ${counts.leases / runs} lease transactions; ${totalRows(counts) / runs} rows: ${kinds}`;
}

const hand = await measure(byHand);
const perTransition = await measure(() => ledger('transition'));
const perRun = await measure(() => ledger('run'));
const startAndEnd = await measure(() => ledger('start-and-end'));
// Runs without a store take microseconds: more of them are needed before the JIT has settled.
const inMemory = await measure(() => engine('none'), 10 * WARMUP);
const durable = new Map<StoreKind, Figures>();
for (const kind of ['sqlite-file', 'sqlite-memory', 'memory'] as const)
  durable.set(kind, await measure(() => engine(kind)));
const written = await writesPerRun();
folder.remove();

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
