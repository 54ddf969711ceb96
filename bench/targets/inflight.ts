/**
 * Bytes per in-flight item of W2 async, in a process of its own run with `--expose-gc`: every list element
 * is held at the start of the second step (a gate all of them wait on) until the last one arrives; then,
 * after a forced collection, the heap in use over that of the same moment before the run, divided by the
 * elements, is what each in-flight item holds. The same for the hand-written chain
 * (bench/baseline/async-scatter-chain.ts) with the same gate. Prints one JSON line.
 *
 *   node --expose-gc --import tsx bench/targets/inflight.ts <engine|baseline> <items> <reps>
 *
 * `INFLIGHT_SNAPSHOT=<file.heapsnapshot>` also writes a heap snapshot at the gate of the last repetition
 * (keep the items to about 10,000: the snapshot of a larger heap is too large a string to read back);
 * bench/targets/profile-summary.ts counts what it holds per item.
 */

import { writeHeapSnapshot } from 'node:v8';
import { createDispatcher, defineNode, libraryOf } from '../../src/index.ts';
import {
  type AsyncStep,
  asyncScatterChain,
  doubleAsync,
  incrementAsync,
} from '../baseline/async-scatter-chain.ts';
import { median } from '../stats.ts';
import { w2Documents } from '../workloads.ts';

/** What the process prints. */
export interface InflightFigures {
  readonly mode: 'engine' | 'baseline';
  readonly items: number;
  /** Median over the repetitions of the retained heap per held item, bytes. */
  readonly bytesPerItem: number;
  readonly samples: readonly number[];
  /** The process's peak RSS over all its runs, bytes. */
  readonly peakRss: number;
}

const collect = (globalThis as { gc?: () => void }).gc;

/** A gate the second step of every child waits at; `onFull` runs once all `items` have arrived. */
function gate(items: number, onFull: () => void): { readonly step: AsyncStep; open(): void } {
  let arrived = 0;
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return {
    async step(child) {
      // The last arrival lets every pending microtask of the run settle before the heap is read.
      if (++arrived === items) setImmediate(onFull);
      await opened;
      return incrementAsync(child);
    },
    open: () => open(),
  };
}

/** Runs W2 once over `list` with the given second step. */
type Runner = (list: readonly number[], second: AsyncStep) => Promise<void>;

function engineRunner(): Runner {
  let second: AsyncStep = incrementAsync;
  const { child, parent } = w2Documents();
  const dispatcher = createDispatcher({
    nodes: [
      defineNode({ id: 'urn:bench:double', outputs: ['ok'], run: (item) => doubleAsync(item.data) }),
      defineNode({ id: 'urn:bench:increment', outputs: ['ok'], run: (item) => second(item.data) }),
    ],
    library: libraryOf([child]),
    policy: { defaults: { concurrency: Number.MAX_SAFE_INTEGER } },
  });
  return async (list, step) => {
    second = step;
    const result = await dispatcher.run(parent, { xs: list });
    if (result.status !== 'completed') throw new Error(`W2 run ended ${result.status}`);
  };
}

const baselineRunner: Runner = async (list, step) => {
  if ((await asyncScatterChain(list, step)).length !== list.length) throw new Error('baseline lost children');
};

/**
 * One held run: the retained heap per item while every item waits at the gate; a heap snapshot is written
 * there to `snapshot` when given.
 */
async function heldRun(
  run: Runner,
  list: readonly number[],
  gc: () => void,
  snapshot?: string,
): Promise<number> {
  gc();
  const before = process.memoryUsage().heapUsed;
  let held = Number.NaN;
  const g = gate(list.length, () => {
    gc();
    held = process.memoryUsage().heapUsed - before;
    if (snapshot !== undefined) writeHeapSnapshot(snapshot);
    g.open();
  });
  await run(list, g.step);
  return held / list.length;
}

async function main(mode: 'engine' | 'baseline', items: number, reps: number): Promise<InflightFigures> {
  if (collect === undefined) throw new Error('run with node --expose-gc');
  const run = mode === 'engine' ? engineRunner() : baselineRunner;
  const list = Array.from({ length: items }, (_, i) => i);
  // A smaller held run first compiles the code, so that the measured runs hold data, not code.
  await heldRun(run, list.slice(0, Math.min(items, 10_000)), collect);
  const samples: number[] = [];
  const snapshot = process.env.INFLIGHT_SNAPSHOT;
  for (let i = 0; i < reps; i++) {
    samples.push(await heldRun(run, list, collect, i === reps - 1 ? snapshot : undefined));
  }
  return {
    mode,
    items,
    bytesPerItem: median(samples),
    samples,
    peakRss: process.resourceUsage().maxRSS * 1024,
  };
}

const [mode, items, reps] = process.argv.slice(2);
if ((mode !== 'engine' && mode !== 'baseline') || items === undefined || reps === undefined) {
  process.stderr.write('usage: node --expose-gc --import tsx inflight.ts <engine|baseline> <items> <reps>\n');
  process.exitCode = 2;
} else {
  process.stdout.write(`${JSON.stringify(await main(mode, Number(items), Number(reps)))}\n`);
}
