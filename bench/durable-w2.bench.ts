/**
 * Durable W2: the scatter → sub-DAG → gather run of bench/w2.bench.ts (same DAGs, same nodes; `sync` with
 * concurrency 64 and `async` with unbounded concurrency) on 10,000 items, recorded in a run store: an SQLite
 * file in a temporary folder, and for comparison SQLite `:memory:` and the memory store. Beside them: the
 * engine with no store, the chain written by hand, and the chain written by hand writing as many checkpoint
 * rows and events as the durable engine does (counted first), in batched transactions of the engine's
 * average batch with the events of each transaction in one page row (bench/baseline/durable-scatter-chain.ts).
 * Each configuration runs in its own process. Prints items per second (median run time and median CPU
 * time) and what one durable run writes. `W2_VARIANT=sync|async` runs one variant; `ITEMS=n`, `REPS=n` set
 * the sizes.
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { libraryOf } from '../src/document/load.ts';
import { createDispatcher } from '../src/runtime/dispatcher.ts';
import type { RunStore } from '../src/store/types.ts';
import { asyncScatterChain } from './baseline/async-scatter-chain.ts';
import { durableScatterChain, type Writing } from './baseline/durable-scatter-chain.ts';
import { scatterChain } from './baseline/scatter-chain.ts';
import {
  countingStore,
  durableW2,
  openStore,
  STORE_LABELS,
  type StoreKind,
  scratchFolder,
  totalRows,
  type Written,
  writingFor,
} from './durable-common.ts';
import { median, printTable } from './stats.ts';

const ITEMS = Number(process.env.ITEMS ?? 10_000);
const REPS = Number(process.env.REPS ?? 7);
const CONCURRENCY = 64;
const TARGET_PER_SECOND = 100_000;

type Variant = 'sync' | 'async';
type Mode = 'baseline' | 'baseline+rows' | 'engine' | StoreKind;
const MODES: readonly Mode[] = [
  'baseline',
  'baseline+rows',
  'engine',
  'sqlite-file',
  'sqlite-memory',
  'memory',
];

/** A child process's figures: median wall and CPU ms of a run. */
interface Figures {
  readonly ms: number;
  readonly cpuMs: number;
  readonly samples: readonly number[];
}

function dispatcherFor(variant: Variant, store: RunStore | undefined) {
  const { child, parent, nodes, policy } = durableW2(variant);
  const dispatcher = createDispatcher({
    nodes,
    library: libraryOf([child]),
    policy,
    ...(store ? { store } : {}),
  });
  return async (xs: number[]) => {
    const result = await dispatcher.run(parent, { xs });
    const out = result.items[0]?.data.out;
    if (result.status !== 'completed' || !Array.isArray(out) || out.length !== xs.length) {
      throw new Error(`W2 run did not complete every child: ${result.status}`);
    }
  };
}

/** Measures one configuration in this process: a warm-up run, then {@link REPS} runs, each on a fresh store. */
async function measureChild(variant: Variant, mode: Mode, writing: Writing | undefined): Promise<Figures> {
  const folder = scratchFolder('switchyard-durable-w2-');
  let files = 0;
  const xs = Array.from({ length: ITEMS }, (_, i) => i);
  const once = async (): Promise<{ ms: number; cpuMs: number }> => {
    const file = folder.file(`${files++}.db`);
    const store =
      mode === 'baseline' || mode === 'baseline+rows' || mode === 'engine'
        ? undefined
        : await openStore(mode, file);
    const run =
      mode === 'baseline'
        ? () => (variant === 'sync' ? scatterChain(xs, CONCURRENCY) : asyncScatterChain(xs))
        : mode === 'baseline+rows'
          ? () => durableScatterChain(xs, file, variant, CONCURRENCY, writing as Writing)
          : dispatcherFor(variant, store);
    const start = performance.now();
    const cpu = process.cpuUsage();
    await run(xs);
    const used = process.cpuUsage(cpu);
    const ms = performance.now() - start;
    await store?.close();
    return { ms, cpuMs: (used.user + used.system) / 1000 };
  };
  await once();
  const samples: { ms: number; cpuMs: number }[] = [];
  for (let i = 0; i < REPS; i++) samples.push(await once());
  folder.remove();
  return {
    ms: median(samples.map((s) => s.ms)),
    cpuMs: median(samples.map((s) => s.cpuMs)),
    samples: samples.map((s) => s.ms),
  };
}

/** Counts what one durable run of `variant` writes to the SQLite file (after a warm-up run). */
async function countWrites(variant: Variant): Promise<Written> {
  const folder = scratchFolder('switchyard-durable-w2-count-');
  const opened = await openStore('sqlite-file', folder.file('count.db'));
  const { store, counts } = countingStore(opened);
  const run = dispatcherFor(variant, store);
  await run(Array.from({ length: ITEMS }, (_, i) => i));
  await opened.close();
  folder.remove();
  return { batches: counts.batches, leases: counts.leases, rows: counts.rows, events: counts.events };
}

function spawnChild(args: readonly string[]): string {
  const file = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, ['--import', 'tsx', file, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = child.stdout.split('\n').find((l) => l.startsWith('{'));
  if (child.status !== 0 || line === undefined)
    throw new Error(`durable W2 ${args.join(' ')} failed: ${child.stdout}`);
  return line;
}

function report(variant: Variant): void {
  const written = JSON.parse(spawnChild([variant, 'count'])) as Written;
  const rows = totalRows({ ...written, commitMs: 0 });
  const writing = writingFor(written, ITEMS);
  const figures = new Map<Mode, Figures>();
  for (const mode of MODES)
    figures.set(mode, JSON.parse(spawnChild([variant, mode, JSON.stringify(writing)])) as Figures);
  const get = (mode: Mode) => figures.get(mode) as Figures;
  const rate = (f: Figures) =>
    `${(((ITEMS / f.ms) * 1000) / 1000).toFixed(1)}k items/s  ${f.ms.toFixed(1)} ms (CPU ${f.cpuMs.toFixed(0)} ms, ${(((ITEMS / f.cpuMs) * 1000) / 1000).toFixed(0)}k items/CPU s)`;
  const table: string[][] = [
    ['baseline: hand-written chain, no store', rate(get('baseline')), ''],
    [
      'baseline: by hand + the same checkpoints and events, batched',
      rate(get('baseline+rows')),
      `${writing.checkpointsPerChild} checkpoint row + ${writing.eventsPerChild} events/child, ${writing.checkpointsPerBatch} checkpoints and a page of their events a transaction`,
    ],
    ['dispatcher, no store', rate(get('engine')), ''],
  ];
  for (const kind of ['sqlite-file', 'sqlite-memory', 'memory'] as const) {
    const f = get(kind);
    const perSecond = (ITEMS / f.ms) * 1000;
    const note =
      kind === 'sqlite-file'
        ? `${perSecond >= TARGET_PER_SECOND ? 'ok' : 'MISSED'} ≥ ${TARGET_PER_SECOND / 1000}k/s; ${(f.ms / get('baseline+rows').ms).toFixed(1)}× the durable baseline's time`
        : '';
    table.push([`dispatcher, ${STORE_LABELS[kind]}`, rate(f), note]);
  }
  const file = get('sqlite-file');
  const engine = get('engine');
  table.push(
    [
      'durable cost per item (SQLite file − no store)',
      `${(((file.ms - engine.ms) * 1000) / ITEMS).toFixed(2)} µs`,
      `CPU ${(((file.cpuMs - engine.cpuMs) * 1000) / ITEMS).toFixed(2)} µs`,
    ],
    [
      'one durable run writes',
      `${written.batches} commits + ${written.leases} lease transactions; ${written.events} events; ${rows} rows: ${Object.entries(
        written.rows,
      )
        .map(([kind, n]) => `${n} ${kind}`)
        .join(', ')}`,
      '',
    ],
  );
  const title =
    variant === 'sync'
      ? `Durable W2 scatter → sub-DAG (2 synchronous tasks) → gather, concurrency ${CONCURRENCY}`
      : 'Durable W2 async: scatter → sub-DAG (2 asynchronous tasks) → gather, unbounded concurrency';
  printTable(
    `${title}, ${ITEMS.toLocaleString('en')} items, median of ${REPS}, each in its own process`,
    table,
  );
}

const [variantArg, modeArg, writingArg] = process.argv.slice(2);
if (modeArg === 'count') {
  process.stdout.write(`${JSON.stringify(await countWrites(variantArg as Variant))}\n`);
} else if (modeArg !== undefined) {
  const writing = writingArg === undefined ? undefined : (JSON.parse(writingArg) as Writing);
  process.stdout.write(
    `${JSON.stringify(await measureChild(variantArg as Variant, modeArg as Mode, writing))}\n`,
  );
} else {
  const only = process.env.W2_VARIANT;
  for (const variant of ['sync', 'async'] as const)
    if (only === undefined || only === variant) report(variant);
}
