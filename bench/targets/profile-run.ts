/**
 * A workload to profile, run by the compiled engine (`dist/`, after `npm run build`) or by the sources, so
 * that `node --cpu-prof`, `--heap-prof` or `--trace-gc` see the engine's own code (under tsx every function
 * is wrapped in esbuild's `__name` and every line is line 1). Runs the workload `reps` times after `warmup`
 * unmeasured runs, and prints the time and CPU of the measured ones.
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/targets/profile-run.ts <workload> [reps] [warmup] [src|dist]
 *
 * With `ALLOC_PROFILE=<file.heapprofile>` it samples every allocation of the measured runs, those the
 * collector has freed included (`HeapProfiler.startSampling` with `includeObjectsCollectedByMajorGC` and
 * `…MinorGC`): what each function allocates, garbage and all, which `--heap-prof` (live objects only)
 * does not show. bench/targets/profile-summary.ts reads it.
 *
 * Workloads: those of bench/tree-workloads.ts (`w1`, `w2-sync-<n>`, `w2-async-<n>`), `durable-w1` (500 W1 runs
 * recorded in a fresh SQLite file) and `ledger-w1` (the hand-written loop writing a row per transition, the
 * run's row committed first: bench/baseline/durable-compose-validate.ts); `hand-<workload>` runs a workload's
 * hand-written form.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { openLedger } from '../baseline/durable-compose-validate.ts';
import { scratchFolder } from '../durable-common.ts';
import { engineWorkload, handWorkload, type Workload } from '../tree-workloads.ts';
import { W1_BUDGET, W1_POLICY, w1Workload } from '../workloads.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const DURABLE_RUNS = 500;

// The engine is loaded by path (sources or build), so it is typed loosely here.
// biome-ignore lint/suspicious/noExplicitAny: the engine loaded by path
type Loose = any;

async function durableW1(
  root: string,
  entry: string,
  folder: ReturnType<typeof scratchFolder>,
): Promise<Workload> {
  const engine = (await import(`${root}/${entry}`)) as Loose;
  const { compiled, nodes } = w1Workload({
    dag: engine.dag,
    compile: engine.compile,
    defineNode: engine.defineNode,
  });
  let files = 0;
  return async () => {
    const store = await engine.openSqliteStore(folder.file(`${files++}.db`));
    const dispatcher = engine.createDispatcher({ nodes, policy: W1_POLICY, store });
    let executions = 0;
    for (let i = 0; i < DURABLE_RUNS; i++) {
      executions += (await dispatcher.run(compiled, { topic: 'whales' })).stats.executions;
    }
    await store.close();
    return executions;
  };
}

function ledgerW1(folder: ReturnType<typeof scratchFolder>): Workload {
  let files = 0;
  return async () => {
    const book = openLedger(folder.file(`${files++}.db`), 'start-and-end');
    let executions = 0;
    for (let i = 0; i < DURABLE_RUNS; i++) executions += book.run(`run-${i}`, { topic: 'whales' }, W1_BUDGET);
    book.close();
    return executions;
  };
}

async function main(name: string, reps: number, warmup: number, from: 'src' | 'dist'): Promise<void> {
  const root = from === 'dist' ? `${REPO}dist` : REPO.replace(/\/$/u, '');
  const entry = from === 'dist' ? 'src/index.js' : 'src/index.ts';
  const folder = scratchFolder('switchyard-profile-');
  try {
    const workload =
      name === 'durable-w1'
        ? await durableW1(root, entry, folder)
        : name === 'ledger-w1'
          ? ledgerW1(folder)
          : name.startsWith('hand-')
            ? handWorkload(name.slice('hand-'.length))
            : await engineWorkload(root, name, entry);
    for (let i = 0; i < warmup; i++) await workload();
    const allocations = process.env.ALLOC_PROFILE;
    const session = allocations === undefined ? undefined : new Session();
    if (session !== undefined) {
      session.connect();
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: 1024,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    }
    const start = performance.now();
    const cpu = process.cpuUsage();
    let units = 0;
    for (let i = 0; i < reps; i++) units += await workload();
    const used = process.cpuUsage(cpu);
    const ms = performance.now() - start;
    const cpuMs = (used.user + used.system) / 1000;
    if (session !== undefined && allocations !== undefined) {
      const { profile } = await session.post('HeapProfiler.stopSampling');
      writeFileSync(allocations, JSON.stringify({ ...profile, units }));
      session.disconnect();
    }
    process.stdout.write(
      `${name} (${from}): ${reps} runs, ${units} units, ${((ms * 1000) / units).toFixed(3)} µs/unit wall, ${((cpuMs * 1000) / units).toFixed(3)} µs/unit CPU\n`,
    );
  } finally {
    folder.remove();
  }
}

const [name, reps, warmup, from] = process.argv.slice(2);
if (name === undefined || (from !== undefined && from !== 'src' && from !== 'dist')) {
  process.stderr.write('usage: profile-run.ts <workload> [reps] [warmup] [src|dist]\n');
  process.exitCode = 2;
} else {
  await main(name, Number(reps ?? 5), Number(warmup ?? 1), from ?? 'dist');
}
