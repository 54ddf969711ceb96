/**
 * W2: one input item whose data holds N numbers, scattered through a sub-DAG of two tasks and gathered with
 * `collect`, on the real clock. Prints items per second (N / run time) and peak RSS, without and with an
 * event consumer, for 10,000 and 100,000 items, beside a hand-written async chain with the same concurrency
 * (bench/baseline/scatter-chain.ts), and the per-item cost ratio 100k vs 10k. Each configuration runs in its
 * own child process, so each peak RSS is that configuration's own.
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { dag } from '../src/document/builder.ts';
import { libraryOf } from '../src/document/load.ts';
import { compile } from '../src/graph/compile.ts';
import { createDispatcher } from '../src/runtime/dispatcher.ts';
import { defineNode } from '../src/runtime/node.ts';
import { double, increment, scatterChain } from './baseline/scatter-chain.ts';
import { median, printTable } from './stats.ts';

const CONCURRENCY = 64;
const TARGET_PER_SECOND = 300_000;
const TARGET_MIB = 150;
const SIZES = [10_000, 100_000] as const;
const MODES = ['baseline', 'engine', 'engine+events'] as const;
type Mode = (typeof MODES)[number];

interface Figures {
  readonly mode: Mode;
  readonly size: number;
  readonly ms: number;
  readonly peakMiB: number;
}

const reps = (size: number) => Number(process.env.REPS ?? (size > 10_000 ? 5 : 9));

function engineRunner(withEvents: boolean): (list: number[]) => Promise<void> {
  const child = dag('urn:bench:w2:child', { name: 'W2 child', version: '1' })
    .entry('double')
    .task('double', 'urn:bench:double')
    .route('ok', 'increment')
    .task('increment', 'urn:bench:increment')
    .route('ok', 'done')
    .terminal('done', 'completed')
    .build();
  const parent = compile(
    dag('urn:bench:w2', { name: 'W2 scatter', version: '1' })
      .entry('fan')
      .scatter('fan', { items: '/xs', dag: 'urn:bench:w2:child' })
      .route('done', 'join')
      .gather('join', { into: '/out', reducer: 'collect' })
      .route('completed', 'ok')
      .route('failed', 'ko')
      .terminal('ok', 'completed')
      .terminal('ko', 'failed')
      .build(),
  );
  const nodes = [
    defineNode({ id: 'urn:bench:double', outputs: ['ok'], run: (item) => double(item.data) }),
    defineNode({ id: 'urn:bench:increment', outputs: ['ok'], run: (item) => increment(item.data) }),
  ];
  const dispatcher = createDispatcher({
    nodes,
    library: libraryOf([child]),
    policy: { placements: { fan: { concurrency: CONCURRENCY } } },
  });
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

async function measureChild(mode: Mode, size: number): Promise<Figures> {
  const list = Array.from({ length: size }, (_, i) => i);
  const run =
    mode === 'baseline'
      ? async (xs: number[]) => {
          const out = await scatterChain(xs, CONCURRENCY);
          if (out.length !== xs.length) throw new Error('baseline lost children');
        }
      : engineRunner(mode === 'engine+events');
  await run(list);
  const samples: number[] = [];
  for (let i = 0; i < reps(size); i++) {
    const start = performance.now();
    await run(list);
    samples.push(performance.now() - start);
  }
  return { mode, size, ms: median(samples), peakMiB: process.resourceUsage().maxRSS / 1024 };
}

function spawnConfiguration(mode: Mode, size: number): Figures {
  const file = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, ['--import', 'tsx', file, mode, String(size)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = child.stdout.split('\n').find((l) => l.startsWith('{'));
  if (child.status !== 0 || line === undefined) throw new Error(`W2 ${mode} ${size} failed: ${child.stdout}`);
  return JSON.parse(line) as Figures;
}

const [modeArg, sizeArg] = process.argv.slice(2);
if (modeArg !== undefined) {
  process.stdout.write(`${JSON.stringify(await measureChild(modeArg as Mode, Number(sizeArg)))}\n`);
} else {
  const figures = SIZES.flatMap((size) => MODES.map((mode) => spawnConfiguration(mode, size)));
  const get = (mode: Mode, size: number) =>
    figures.find((f) => f.mode === mode && f.size === size) as Figures;
  const rows: string[][] = [];
  for (const size of SIZES) {
    const base = get('baseline', size);
    for (const mode of MODES) {
      const f = get(mode, size);
      const perSecond = (size / f.ms) * 1000;
      const note =
        mode === 'baseline'
          ? ''
          : `${perSecond >= TARGET_PER_SECOND ? 'ok' : 'MISSED'} ≥ ${TARGET_PER_SECOND / 1000}k/s, ${f.peakMiB < TARGET_MIB ? 'ok' : 'MISSED'} < ${TARGET_MIB} MiB; +${(f.peakMiB - base.peakMiB).toFixed(0)} MiB over baseline`;
      rows.push([
        `${size.toLocaleString('en')} items, ${mode}`,
        `${(perSecond / 1000).toFixed(0)}k items/s  ${f.ms.toFixed(1)} ms  peak ${f.peakMiB.toFixed(0)} MiB`,
        note,
      ]);
    }
  }
  for (const mode of MODES) {
    const small = get(mode, 10_000);
    const large = get(mode, 100_000);
    rows.push([
      `per-item cost 100k / 10k, ${mode}`,
      `${(large.ms / 100_000 / (small.ms / 10_000)).toFixed(2)}`,
      'linear ≈ 1',
    ]);
  }
  printTable(
    `W2 scatter → sub-DAG (2 tasks) → gather collect, concurrency ${CONCURRENCY}, each in its own process`,
    rows,
  );
}
