/**
 * The in-memory workloads W1 and W2 as repeatable units of work, run by the engine of a given source tree
 * (this one, or an older one extracted beside it) or written by hand. The engine is loaded through the
 * tree's public entry point (`src/index.ts`), so that a tree whose modules moved still loads. Each unit
 * returns how much it did: node executions for W1, list elements for W2.
 *
 * Workload names: `w1`, `w1-events` (with an event consumer), `w2-<sync|async>-<items>`.
 */
import { asyncScatterChain, doubleAsync, incrementAsync } from './baseline/async-scatter-chain.ts';
import { composeValidateLoop } from './baseline/compose-validate.ts';
import { double, increment, scatterChain } from './baseline/scatter-chain.ts';
import { W1_BUDGET, W1_POLICY, w1Workload, w2Documents } from './workloads.ts';

/** One repetition of a workload: runs it and returns how many units it did. */
export type Workload = () => Promise<number>;

/** W1's runs per repetition: 2,000 runs of 9 node executions. */
export const W1_RUNS = 2000;
/** The concurrency of W2's synchronous variant. */
export const W2_SYNC_CONCURRENCY = 64;

// The engine of another tree is loaded by path at run time, so it is typed loosely here.
// biome-ignore lint/suspicious/noExplicitAny: the modules of a tree loaded by path
type Loose = any;

interface W2Name {
  readonly variant: 'sync' | 'async';
  readonly items: number;
}

function w2Name(name: string): W2Name {
  const match = /^w2-(sync|async)-(\d+)$/u.exec(name);
  if (match === null)
    throw new Error(`unknown workload '${name}': use w1, w1-events or w2-<sync|async>-<items>`);
  return { variant: match[1] as 'sync' | 'async', items: Number(match[2]) };
}

/**
 * The workload `name` run by the engine of the tree at `root`, loaded from its `entry` (default
 * `src/index.ts`; `src/index.js` for a compiled tree such as `dist/`). With `storeFile`, each repetition's
 * runs are recorded in a fresh SQLite store at the path it gives (closed at the repetition's end).
 * @example
 * const unit = await engineWorkload('/tmp/today', 'w2-sync-10000');
 * await unit(); // 10000
 */
export async function engineWorkload(
  root: string,
  name: string,
  entry = 'src/index.ts',
  storeFile?: () => string,
): Promise<Workload> {
  const engine = (await import(`${root}/${entry}`)) as Loose;
  const parts = { dag: engine.dag, compile: engine.compile, defineNode: engine.defineNode };
  // The runs of one repetition, each given `options` (a fresh store's, when recorded).
  const recorded =
    (body: (options: Record<string, unknown>) => Promise<number>, base: Record<string, unknown>) =>
    async () => {
      if (storeFile === undefined) return body(base);
      const store = await engine.openSqliteStore(storeFile());
      try {
        return await body({ ...base, store });
      } finally {
        await store.close();
      }
    };
  if (name === 'w1' || name === 'w1-events') {
    const { compiled, nodes } = w1Workload(parts);
    const dispatcher = engine.createDispatcher({ nodes, policy: W1_POLICY });
    return recorded(
      async (options) => {
        let executions = 0;
        for (let i = 0; i < W1_RUNS; i++) {
          executions += (await dispatcher.run(compiled, { topic: 'whales' }, options)).stats.executions;
        }
        return executions;
      },
      name === 'w1-events' ? { onEvent: () => undefined } : {},
    );
  }
  const { variant, items } = w2Name(name);
  const { child, parent } = w2Documents(parts);
  const sync = variant === 'sync';
  const nodes = [
    engine.defineNode({
      id: 'urn:bench:double',
      outputs: ['ok'],
      run: (item: Loose) => (sync ? double(item.data) : doubleAsync(item.data)),
    }),
    engine.defineNode({
      id: 'urn:bench:increment',
      outputs: ['ok'],
      run: (item: Loose) => (sync ? increment(item.data) : incrementAsync(item.data)),
    }),
  ];
  const policy = sync
    ? { placements: { fan: { concurrency: W2_SYNC_CONCURRENCY } } }
    : { defaults: { concurrency: Number.MAX_SAFE_INTEGER } };
  const dispatcher = engine.createDispatcher({ nodes, library: engine.libraryOf([child]), policy });
  const xs = Array.from({ length: items }, (_, i) => i);
  return recorded(async (options) => {
    const result = await dispatcher.run(parent, { xs }, options);
    const out = result.items[0]?.data.out;
    if (result.status !== 'completed' || !Array.isArray(out) || out.length !== items) {
      throw new Error(`W2 run did not complete every child: ${result.status}`);
    }
    return items;
  }, {});
}

/**
 * The workload `name` written by hand (bench/baseline/): what the engine's run of it is measured against.
 * `w1-events` has no hand-written form of its own; it is `w1`.
 */
export function handWorkload(name: string): Workload {
  if (name === 'w1' || name === 'w1-events') {
    return async () => {
      let executions = 0;
      for (let i = 0; i < W1_RUNS; i++)
        executions += await composeValidateLoop({ topic: 'whales' }, W1_BUDGET);
      return executions;
    };
  }
  const { variant, items } = w2Name(name);
  const xs = Array.from({ length: items }, (_, i) => i);
  return async () => {
    const out =
      variant === 'sync' ? await scatterChain(xs, W2_SYNC_CONCURRENCY) : await asyncScatterChain(xs);
    if (out.length !== items) throw new Error('the hand-written W2 lost children');
    return items;
  };
}
