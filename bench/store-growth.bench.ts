/**
 * Store growth: durable W1 runs (bench/durable-w1.bench.ts's loop, 9 node executions = 9 transitions a run)
 * into a fresh SQLite file until 1k, 2k, 4k and 8k transitions are recorded; after each, the file is closed
 * (which checkpoints the write-ahead log into it) and its size on disk (file + log) is divided by the
 * transitions and the runs: linear growth keeps that figure flat. Then every run is pruned
 * (`store.prune({ olderThan: Number.MAX_SAFE_INTEGER })`, which VACUUMs) and the size after is printed beside
 * an empty store's. `SIZES=1000,2000` sets the transition counts.
 */
import { performance } from 'node:perf_hooks';
import { createDispatcher } from '../src/runtime/dispatcher.ts';
import { openSqliteStore } from '../src/store/sqlite.ts';
import { bytesOnDisk, formatBytes, scratchFolder } from './durable-common.ts';
import { printTable } from './stats.ts';
import { W1_POLICY, w1Workload } from './workloads.ts';

const SIZES = (process.env.SIZES ?? '1000,2000,4000,8000').split(',').map(Number);

const { compiled, nodes } = w1Workload();
const policy = W1_POLICY;

const folder = scratchFolder('switchyard-store-growth-');
const emptyFile = folder.file('empty.db');
await (await openSqliteStore(emptyFile)).close();
const empty = bytesOnDisk(emptyFile);

const rows: string[][] = [['empty store', formatBytes(empty), '']];
let firstPerTransition: number | undefined;
for (const size of SIZES) {
  const file = folder.file(`${size}.db`);
  const store = await openSqliteStore(file);
  const dispatcher = createDispatcher({ nodes, policy, store });
  let transitions = 0;
  let runs = 0;
  const start = performance.now();
  while (transitions < size) {
    const result = await dispatcher.run(compiled, { topic: 'whales' });
    transitions += result.stats.executions;
    runs++;
  }
  const ms = performance.now() - start;
  await store.close();
  const grown = bytesOnDisk(file) - empty;
  const perTransition = grown / transitions;
  firstPerTransition ??= perTransition;
  rows.push([
    `${transitions.toLocaleString('en')} transitions (${runs} runs, ${(ms / 1000).toFixed(1)} s)`,
    `${formatBytes(bytesOnDisk(file))}: +${perTransition.toFixed(0)} B/transition, +${(grown / runs / 1024).toFixed(2)} KiB/run`,
    `per transition ${(perTransition / firstPerTransition).toFixed(2)}× the smallest (linear ≈ 1)`,
  ]);
  if (size === SIZES.at(-1)) {
    const reopened = await openSqliteStore(file);
    const pruned = await reopened.prune({ olderThan: Number.MAX_SAFE_INTEGER });
    await reopened.close();
    const after = bytesOnDisk(file);
    rows.push([
      `runs prune of all ${pruned.runs} runs (VACUUM)`,
      `${formatBytes(after)} after (${formatBytes(pruned.reclaimedBytes)} reclaimed)`,
      `${after <= empty * 1.5 ? 'ok' : 'MISSED'}: back to ${(after / empty).toFixed(2)}× the empty store`,
    ]);
  }
}
folder.remove();
printTable('Store growth: durable W1 runs into a fresh SQLite file, size after close (file + WAL)', rows);
