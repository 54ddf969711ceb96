/**
 * The in-memory targets' measurement, in a process of its own: a workload of bench/tree-workloads.ts run by
 * its hand-written form, by this tree's engine and (when given) by today's engine, in rounds that go
 * through every order of them, so that the load of a shared machine and each one's garbage fall on all alike. Prints one JSON
 * line: the median wall and CPU µs per unit of each, and the medians of the per-round ratios.
 *
 *   node bench/targets/in-memory.js <workload> <rounds> [<today's tree>]   (compiled: bench/targets/compiled.ts)
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median } from '../stats.ts';
import { engineWorkload, handWorkload, type Workload } from '../tree-workloads.ts';

/** The engine's entry point beside this module: the sources under tsx, the compiled copy with plain node. */
const ENTRY = import.meta.url.endsWith('.ts') ? 'src/index.ts' : 'src/index.js';

/** Unmeasured rounds first: W1's runs take microseconds, and the JIT settles only after many. */
const WARMUP_ROUNDS = 3;
/** About how long one repetition of the engine takes, ms. */
const SAMPLE_MS = 100;

/** Wall and CPU µs per unit of one repetition. */
export interface PerUnit {
  readonly wall: number;
  readonly cpu: number;
}

/** What the process prints. */
export interface InMemoryFigures {
  readonly hand: PerUnit;
  readonly engine: PerUnit;
  readonly today?: PerUnit;
  /** Medians of the per-round ratios engine / hand-written. */
  readonly engineOverHand: PerUnit;
  /** Medians of the per-round ratios engine / today's engine. */
  readonly engineOverToday?: PerUnit;
  readonly rounds: number;
  /** Workload runs per repetition. */
  readonly times: number;
}

/** Runs `workload` `times` times and returns its wall and CPU µs per unit. */
async function sample(workload: Workload, times: number): Promise<PerUnit> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  let units = 0;
  for (let i = 0; i < times; i++) units += await workload();
  const used = process.cpuUsage(cpu);
  return { wall: ((performance.now() - start) * 1000) / units, cpu: (used.user + used.system) / units };
}

/** Every order of `n` items (n ≤ 3 here: 1, 2 or 6 orders). */
function orders(n: number): number[][] {
  if (n <= 1) return [[0]];
  return orders(n - 1).flatMap((order) =>
    Array.from({ length: n }, (_, at) => [...order.slice(0, at), n - 1, ...order.slice(at)]),
  );
}

function medians(list: readonly PerUnit[]): PerUnit {
  return { wall: median(list.map((s) => s.wall)), cpu: median(list.map((s) => s.cpu)) };
}

function ratios(a: readonly PerUnit[], b: readonly PerUnit[]): PerUnit {
  const at = (i: number) => b[i] as PerUnit;
  return {
    wall: median(a.map((s, i) => s.wall / at(i).wall)),
    cpu: median(a.map((s, i) => s.cpu / at(i).cpu)),
  };
}

async function main(name: string, rounds: number, todayRoot: string | undefined): Promise<InMemoryFigures> {
  const here = fileURLToPath(new URL('../..', import.meta.url));
  const contenders: Workload[] = [handWorkload(name), await engineWorkload(here, name, ENTRY)];
  if (todayRoot !== undefined) contenders.push(await engineWorkload(todayRoot, name, ENTRY));
  // A repetition runs the workload often enough to take about SAMPLE_MS of the engine's time, so that one
  // collection more or less does not move it.
  const once = await sample(contenders[1] as Workload, 1);
  const units = await (contenders[1] as Workload)();
  const times = Math.max(1, Math.round((SAMPLE_MS * 1000) / (once.wall * units)));
  // The rounds go through every order of the contenders in turn, so that each runs as often in each
  // position and after each other one: neither always runs on the other's garbage or a warmer cache.
  const every = orders(contenders.length);
  const samples: PerUnit[][] = contenders.map(() => []);
  for (let round = 0; round < WARMUP_ROUNDS + rounds; round++) {
    for (const which of every[round % every.length] as number[]) {
      const measured = await sample(contenders[which] as Workload, times);
      if (round >= WARMUP_ROUNDS) samples[which]?.push(measured);
    }
  }
  const [hand, engine, today] = samples as [PerUnit[], PerUnit[], PerUnit[] | undefined];
  return {
    hand: medians(hand),
    engine: medians(engine),
    engineOverHand: ratios(engine, hand),
    ...(today === undefined ? {} : { today: medians(today), engineOverToday: ratios(engine, today) }),
    rounds,
    times,
  };
}

const [name, rounds, todayRoot] = process.argv.slice(2);
if (name === undefined || rounds === undefined) {
  process.stderr.write('usage: in-memory.ts <workload> <rounds> [<today tree>]\n');
  process.exitCode = 2;
} else {
  process.stdout.write(`${JSON.stringify(await main(name, Number(rounds), todayRoot))}\n`);
}
