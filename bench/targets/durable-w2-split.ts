/**
 * Where a durable W2 run's time goes (docs/ENGINE-PROFILE.md, "Durable W2"), by difference: the W2 run of
 * bench/durable-w2.bench.ts (the same documents and nodes; `sync` with concurrency 64, `async` with
 * unbounded concurrency) with no store, recorded to a store that keeps nothing (the recording's own cost:
 * events, checkpoints and their JSON text made by the engine), and to a fresh SQLite file. Configurations
 * alternate, each repetition a run of `items` children; prints the median CPU ms of a run and µs a child.
 *
 *   node <compiled copy>/bench/targets/durable-w2-split.js [sync|async] [items] [reps]   (bench/targets/compiled.ts)
 *   node --import tsx bench/targets/durable-w2-split.ts [sync|async] [items] [reps]      (the sources, under tsx)
 */
import {
  createDispatcher,
  createMemoryStore,
  libraryOf,
  openSqliteStore,
  type RunStore,
} from '../../src/index.ts';
import { durableW2, scratchFolder } from '../durable-common.ts';
import { median } from '../stats.ts';

type Mode = 'none' | 'discarded' | 'file';
const MODES: readonly Mode[] = ['none', 'discarded', 'file'];
const LABELS: Readonly<Record<Mode, string>> = {
  none: 'engine, no store',
  discarded: 'recorded to a store that keeps nothing',
  file: 'recorded to a SQLite file',
};

/** A store that records nothing: every commit succeeds at once (what the recording costs outside a store). */
function nothing(store: RunStore): RunStore {
  return new Proxy(store, {
    get(target, key) {
      if (key === 'commit') return async () => undefined;
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function main(variant: 'sync' | 'async', items: number, reps: number): Promise<void> {
  const { child, parent, nodes, policy } = durableW2(variant);
  const dispatcher = createDispatcher({ nodes, library: libraryOf([child]), policy });
  const xs = Array.from({ length: items }, (_, i) => i);
  const folder = scratchFolder('switchyard-durable-w2-split-');
  let files = 0;
  const once = async (mode: Mode): Promise<number> => {
    const store =
      mode === 'file'
        ? await openSqliteStore(folder.file(`${files++}.db`))
        : mode === 'discarded'
          ? nothing(createMemoryStore())
          : undefined;
    const start = process.cpuUsage();
    const result = await dispatcher.run(parent, { xs }, store === undefined ? {} : { store });
    const used = process.cpuUsage(start);
    if (mode === 'file') await store?.close();
    if (result.status !== 'completed') throw new Error(`the W2 run ended ${result.status}`);
    return (used.user + used.system) / 1000;
  };
  try {
    for (const mode of MODES) await once(mode);
    const ms: Record<Mode, number[]> = { none: [], discarded: [], file: [] };
    for (let i = 0; i < reps; i++) for (const mode of MODES) ms[mode].push(await once(mode));
    console.log(`durable W2 ${variant}, ${items} children, median of ${reps}, CPU`);
    for (const mode of MODES) {
      const m = median(ms[mode]);
      console.log(
        `  ${LABELS[mode].padEnd(40)} ${m.toFixed(1).padStart(8)} ms/run ${((m * 1000) / items).toFixed(2).padStart(8)} µs/child`,
      );
    }
  } finally {
    folder.remove();
  }
}

const [variantArg = 'sync', itemsArg = '10000', repsArg = '7'] = process.argv.slice(2);
if (variantArg !== 'sync' && variantArg !== 'async') {
  console.error(`E_USAGE: the variant is sync or async, not '${variantArg}'`);
  process.exit(2);
}
await main(variantArg, Number(itemsArg), Number(repsArg));
