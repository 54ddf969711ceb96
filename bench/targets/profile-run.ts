/**
 * A workload to profile, run by the compiled engine (`dist/`, after `npm run build`) or by the sources, so
 * that `node --cpu-prof`, `--heap-prof` or `--trace-gc` see the engine's own code (under tsx every function
 * is wrapped in esbuild's `__name` and every line is line 1). Runs the workload `reps` times after `warmup`
 * unmeasured runs, and prints the time and CPU of the measured ones.
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/targets/profile-run.ts <workload> [reps] [warmup] [src|dist]
 *
 * The tree defaults to `dist` under tsx and to the copy's own `src` in a compiled copy.
 *
 * With `ALLOC_PROFILE=<file.heapprofile>` it samples every allocation of the measured runs, those the
 * collector has freed included (`HeapProfiler.startSampling` with `includeObjectsCollectedByMajorGC` and
 * `…MinorGC`): what each function allocates, garbage and all, which `--heap-prof` (live objects only)
 * does not show. bench/targets/profile-summary.ts reads it.
 *
 * Workloads: those of bench/tree-workloads.ts (`w1`, `w2-sync-<n>`, `w2-async-<n>`); `durable-<workload>`
 * records each repetition's runs in a fresh SQLite file; `hand-<workload>` runs a workload's hand-written
 * form; `ledger-w1` is the hand-written W1 writing a row per transition, the run's row committed first
 * (bench/baseline/durable-compose-validate.ts), 500 runs a repetition.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { openLedger } from '../baseline/durable-compose-validate.ts';
import { scratchFolder } from '../durable-common.ts';
import { engineWorkload, handWorkload, type Workload } from '../tree-workloads.ts';
import { W1_BUDGET } from '../workloads.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const LEDGER_RUNS = 500;

function ledgerW1(folder: ReturnType<typeof scratchFolder>): Workload {
  let files = 0;
  return async () => {
    const book = openLedger(folder.file(`${files++}.db`), 'start-and-end');
    let executions = 0;
    for (let i = 0; i < LEDGER_RUNS; i++) executions += book.run(`run-${i}`, { topic: 'whales' }, W1_BUDGET);
    book.close();
    return executions;
  };
}

async function main(name: string, reps: number, warmup: number, from: 'src' | 'dist'): Promise<void> {
  const root = from === 'dist' ? `${REPO}dist` : REPO.replace(/\/$/u, '');
  // `src` is this copy's own tree: the sources under tsx, or a compiled copy (bench/targets/compiled.ts).
  const entry = from === 'dist' || !import.meta.url.endsWith('.ts') ? 'src/index.js' : 'src/index.ts';
  const folder = scratchFolder('switchyard-profile-');
  try {
    let files = 0;
    const workload = name.startsWith('durable-')
      ? await engineWorkload(root, name.slice('durable-'.length), entry, () => folder.file(`${files++}.db`))
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
  // A compiled copy (bench/targets/compiled.ts) has no dist/ of its own: its compiled src/ is the engine.
  const compiled = !import.meta.url.endsWith('.ts');
  await main(name, Number(reps ?? 5), Number(warmup ?? 1), from ?? (compiled ? 'src' : 'dist'));
}
