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
import { W1_POLICY, w1Workload, w2Documents } from './workloads.ts';

const OLD_TREE = process.env.OLD_TREE;
const NEW_TREE = fileURLToPath(new URL('..', import.meta.url));
const REPS = Number(process.env.REPS ?? 15);
const WARMUP = 3;
const W1_RUNS = 2000;

/** One repetition: runs the workload and returns how many units (executions or items) it did. */
type Workload = () => Promise<number>;

// The two trees' modules are loaded by path at run time, so they are typed loosely here.
// biome-ignore lint/suspicious/noExplicitAny: modules of another tree, loaded by path
type Loose = any;

async function load(root: string, workload: string): Promise<Workload> {
  const { dag } = (await import(`${root}/src/document/builder.ts`)) as Loose;
  const { compile } = (await import(`${root}/src/graph/compile.ts`)) as Loose;
  const { createDispatcher } = (await import(`${root}/src/runtime/dispatcher.ts`)) as Loose;
  const { defineNode } = (await import(`${root}/src/runtime/node.ts`)) as Loose;
  if (workload === 'w1' || workload === 'w1-events') {
    const { compiled, nodes } = w1Workload({ dag, compile, defineNode });
    const policy = W1_POLICY;
    const dispatcher = createDispatcher({ nodes, policy });
    const options = workload === 'w1-events' ? { onEvent: () => undefined } : {};
    return async () => {
      let executions = 0;
      for (let i = 0; i < W1_RUNS; i++) {
        executions += (await dispatcher.run(compiled, { topic: 'whales' }, options)).stats.executions;
      }
      return executions;
    };
  }
  const [, variant, size] = workload.split('-');
  const { libraryOf } = (await import(`${root}/src/document/load.ts`)) as Loose;
  const chain = (await import(`${root}/bench/baseline/scatter-chain.ts`)) as Loose;
  const asyncChain = (await import(`${root}/bench/baseline/async-scatter-chain.ts`)) as Loose;
  const { child, parent } = w2Documents({ dag, compile, defineNode });
  const sync = variant === 'sync';
  const nodes = [
    defineNode({
      id: 'urn:bench:double',
      outputs: ['ok'],
      run: (item: Loose) => (sync ? chain.double(item.data) : asyncChain.doubleAsync(item.data)),
    }),
    defineNode({
      id: 'urn:bench:increment',
      outputs: ['ok'],
      run: (item: Loose) => (sync ? chain.increment(item.data) : asyncChain.incrementAsync(item.data)),
    }),
  ];
  const policy = sync
    ? { placements: { fan: { concurrency: 64 } } }
    : { defaults: { concurrency: Number.MAX_SAFE_INTEGER } };
  const dispatcher = createDispatcher({ nodes, library: libraryOf([child]), policy });
  const xs = Array.from({ length: Number(size) }, (_, i) => i);
  return async () => {
    const result = await dispatcher.run(parent, { xs });
    if (result.status !== 'completed') throw new Error(`W2 run ended ${result.status}`);
    return xs.length;
  };
}

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
  const old = await load(oldTree, name);
  const current = await load(NEW_TREE, name);
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
