/**
 * The repetitions durable W1 is measured with (bench/durable-w1.bench.ts, bench/targets/durable-w1.ts): a
 * number of sequentially awaited W1 runs by the dispatcher on a fresh store (or none), by the hand-written
 * loop, or by the hand-written loop writing a checkpoint row per transition into its own SQLite file
 * (bench/baseline/durable-compose-validate.ts). Store files go to a temporary folder, removed by `close`.
 */
import { performance } from 'node:perf_hooks';
import { createDispatcher } from '../src/runtime/dispatcher.ts';
import type { RunStore } from '../src/store/types.ts';
import { composeValidateLoop } from './baseline/compose-validate.ts';
import { type CommitEvery, openLedger } from './baseline/durable-compose-validate.ts';
import { countingStore, openStore, type StoreKind, scratchFolder, totalRows } from './durable-common.ts';
import { median } from './stats.ts';
import { W1_BUDGET, W1_POLICY, w1Workload } from './workloads.ts';

/** One repetition: wall and CPU milliseconds, and the node executions they covered. */
export interface Sample {
  readonly ms: number;
  readonly cpuMs: number;
  readonly executions: number;
}

/** Median wall and CPU µs per node execution. */
export interface Figures {
  readonly us: number;
  readonly cpuUs: number;
}

/** Runs `body` and returns its wall and CPU time with the executions it reports. */
export async function timed(body: () => Promise<number>): Promise<Sample> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const executions = await body();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000, executions };
}

/** Median µs per execution of `samples`. */
export function figuresOf(samples: readonly Sample[]): Figures {
  return {
    us: median(samples.map((s) => (s.ms * 1000) / s.executions)),
    cpuUs: median(samples.map((s) => (s.cpuMs * 1000) / s.executions)),
  };
}

/** The repetitions of durable W1, `runs` W1 runs each. */
export interface DurableW1Runs {
  /** The dispatcher's runs on a fresh store of `kind`, or with no store. */
  engine(kind: StoreKind | 'none'): Promise<Sample>;
  /** The hand-written loop, no store. */
  byHand(): Promise<Sample>;
  /** The hand-written loop writing a checkpoint row per transition, committing as `every` says. */
  ledger(every: CommitEvery): Promise<Sample>;
  /** What one durable run writes, counted over 50 runs on an SQLite file. */
  writesPerRun(): Promise<string>;
  /** Removes the store files. */
  close(): void;
}

/**
 * The repetitions of durable W1, `runs` runs each, store files in a fresh temporary folder.
 * @example
 * const w1 = durableW1Runs(500);
 * const sample = await w1.engine('sqlite-file');
 * w1.close();
 */
export function durableW1Runs(runs: number): DurableW1Runs {
  const { compiled, nodes } = w1Workload();
  const folder = scratchFolder('switchyard-durable-w1-');
  let files = 0;
  return {
    async engine(kind) {
      const store = kind === 'none' ? undefined : await openStore(kind, folder.file(`${files++}.db`));
      const dispatcher = createDispatcher({
        nodes,
        policy: W1_POLICY,
        ...(store === undefined ? {} : { store }),
      });
      const sample = await timed(async () => {
        let executions = 0;
        for (let i = 0; i < runs; i++) {
          const result = await dispatcher.run(compiled, { topic: 'whales' });
          if (result.status !== 'completed') throw new Error(`W1 run ended ${result.status}`);
          executions += result.stats.executions;
        }
        return executions;
      });
      await store?.close();
      return sample;
    },
    byHand: () =>
      timed(async () => {
        let executions = 0;
        for (let i = 0; i < runs; i++)
          executions += await composeValidateLoop({ topic: 'whales' }, W1_BUDGET);
        return executions;
      }),
    async ledger(every) {
      const book = openLedger(folder.file(`${files++}.db`), every);
      const sample = await timed(async () => {
        let executions = 0;
        for (let i = 0; i < runs; i++) executions += book.run(`run-${i}`, { topic: 'whales' }, W1_BUDGET);
        return executions;
      });
      book.close();
      return sample;
    },
    async writesPerRun() {
      const counted = 50;
      const opened: RunStore = await openStore('sqlite-file', folder.file(`${files++}.db`));
      const { store, counts } = countingStore(opened);
      const dispatcher = createDispatcher({ nodes, policy: W1_POLICY, store });
      for (let i = 0; i < counted; i++) await dispatcher.run(compiled, { topic: 'whales' });
      await opened.close();
      const kinds = Object.entries(counts.rows)
        .map(([kind, n]) => `${n / counted} ${kind}`)
        .join(', ');
      return `${counts.batches / counted} commits + ${counts.leases / counted} lease transactions; ${totalRows(counts) / counted} rows: ${kinds}`;
    },
    close: () => folder.remove(),
  };
}
