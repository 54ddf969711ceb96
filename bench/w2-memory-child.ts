/**
 * One W2 configuration for bench/w2-memory.bench.ts, in a process without tsx: the parent compiles this file
 * with tsc and runs it with plain `node`, giving it the URL of the compiled package's entry point.
 *
 *   node w2-memory-child.js <baseline|engine> <items> <entry URL>
 *
 * Runs W2 once to warm up and then REPS times (default 9), as bench/w2.bench.ts does, and prints one JSON
 * line: the mode, the size, the median run time and the process's peak RSS.
 */
import { performance } from 'node:perf_hooks';
import { double, increment, scatterChain } from './baseline/scatter-chain.ts';
import { w2DocumentsWith } from './w2-documents.ts';

/** The scatter's concurrency, as in bench/w2.bench.ts. */
const CONCURRENCY = 64;

type Engine = typeof import('switchyard');

async function engineRunner(entry: string): Promise<(list: number[]) => Promise<void>> {
  const engine = (await import(entry)) as Engine;
  const { child, parent } = w2DocumentsWith(engine);
  const dispatcher = engine.createDispatcher({
    nodes: [
      engine.defineNode({ id: 'urn:bench:double', outputs: ['ok'], run: (item) => double(item.data) }),
      engine.defineNode({ id: 'urn:bench:increment', outputs: ['ok'], run: (item) => increment(item.data) }),
    ],
    library: engine.libraryOf([child]),
    policy: { placements: { fan: { concurrency: CONCURRENCY } } },
  });
  return async (list) => {
    const result = await dispatcher.run(parent, { xs: list });
    const out = result.items[0]?.data.out;
    if (result.status !== 'completed' || !Array.isArray(out) || out.length !== list.length) {
      throw new Error(`W2 run did not complete every child: ${result.status}`);
    }
  };
}

async function baselineRunner(): Promise<(list: number[]) => Promise<void>> {
  return async (xs) => {
    if ((await scatterChain(xs, CONCURRENCY)).length !== xs.length) throw new Error('baseline lost children');
  };
}

const [mode, sizeArg, entry] = process.argv.slice(2);
if ((mode !== 'baseline' && mode !== 'engine') || sizeArg === undefined || entry === undefined) {
  throw new Error('usage: node w2-memory-child.js <baseline|engine> <items> <entry URL>');
}
const size = Number(sizeArg);
const list = Array.from({ length: size }, (_, i) => i);
const run = mode === 'engine' ? await engineRunner(entry) : await baselineRunner();
await run(list);
const samples: number[] = [];
for (let i = 0; i < Number(process.env.REPS ?? 9); i++) {
  const start = performance.now();
  await run(list);
  samples.push(performance.now() - start);
}
samples.sort((a, b) => a - b);
const ms = samples[Math.floor(samples.length / 2)] ?? 0;
process.stdout.write(
  `${JSON.stringify({ mode, size, ms, peakMiB: process.resourceUsage().maxRSS / 1024 })}\n`,
);
