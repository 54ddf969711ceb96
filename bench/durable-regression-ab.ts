/**
 * In-memory W1 and W2 of an older tree against this one, in one process, repetitions alternated old/new so
 * that the load of a shared machine falls on both alike: the check that durable runs left the in-memory
 * engine where it was. Prints median wall and CPU µs per node execution (W1) or per item (W2) of each tree,
 * and the median of the per-pair new/old ratios.
 *
 * ```sh
 * git worktree add /tmp/w-old 6e207bf && ln -s "$PWD/node_modules" /tmp/w-old/node_modules
 * OLD_TREE=/tmp/w-old node --import tsx bench/durable-regression-ab.ts w1 w1-events w2-sync-10000 w2-async-10000
 * git worktree remove --force /tmp/w-old
 * ```
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median } from './stats.ts';
import { engineWorkload, type Workload } from './tree-workloads.ts';

const OLD_TREE = process.env.OLD_TREE;
const NEW_TREE = fileURLToPath(new URL('..', import.meta.url));
const REPS = Number(process.env.REPS ?? 15);
const WARMUP = 3;

/** Wall and CPU µs per unit of one repetition. */
interface Sample {
  readonly wall: number;
  readonly cpu: number;
}

async function sample(workload: Workload): Promise<Sample> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const units = await workload();
  const used = process.cpuUsage(cpu);
  return { wall: ((performance.now() - start) * 1000) / units, cpu: (used.user + used.system) / units };
}

async function compare(name: string, oldTree: string): Promise<void> {
  const old = await engineWorkload(oldTree, name);
  const current = await engineWorkload(NEW_TREE, name);
  for (let i = 0; i < WARMUP; i++) {
    await sample(old);
    await sample(current);
  }
  const olds: Sample[] = [];
  const news: Sample[] = [];
  for (let i = 0; i < REPS; i++) {
    // Which tree goes first alternates, so neither always runs on the other's garbage.
    if (i % 2 === 0) {
      olds.push(await sample(old));
      news.push(await sample(current));
    } else {
      news.push(await sample(current));
      olds.push(await sample(old));
    }
  }
  const med = (list: Sample[], key: keyof Sample) => median(list.map((s) => s[key])).toFixed(3);
  const ratio = (key: keyof Sample) =>
    median(news.map((s, i) => s[key] / (olds[i] as Sample)[key])).toFixed(2);
  const unit = name.startsWith('w1') ? 'µs/exec' : 'µs/item';
  process.stdout.write(
    `${name.padEnd(15)} old ${med(olds, 'wall')} ${unit} (CPU ${med(olds, 'cpu')})  new ${med(news, 'wall')} (CPU ${med(news, 'cpu')})  new/old ${ratio('wall')} (CPU ${ratio('cpu')}), median of ${REPS} pairs\n`,
  );
}

if (OLD_TREE === undefined) {
  process.stderr.write(
    'durable-regression-ab: set OLD_TREE to the folder of the older tree (see the file header)\n',
  );
  process.exitCode = 2;
} else {
  const names = process.argv.slice(2);
  for (const name of names.length > 0 ? names : ['w1', 'w1-events', 'w2-sync-10000', 'w2-async-10000']) {
    await compare(name, OLD_TREE);
  }
}
