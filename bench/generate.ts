/**
 * Generates large, realistic DAG documents for benchmarks: chains of tasks with budgeted self-retries and
 * chain-level retry loops that exhaust into a salvage task, scatter/gather pairs, and two terminals. Every
 * placement is reachable, every placement can reach a terminal, and every cycle passes a budgeted retry route.
 */
import { type DagBuilder, dag } from '../src/document/builder.ts';
import { expand } from '../src/document/jsonld-api.ts';
import type { Dag } from '../src/document/model.ts';
import { toDocument } from '../src/document/serialise.ts';

const CHAIN_TASKS = 8;
const SCATTER_EVERY = 10;
const NODE = 'urn:switchyard:node:bench';

/** Sizes of the chains that make up `total` non-terminal placements (each chain: tasks plus one salvage). */
function chainSizes(total: number): number[] {
  const sizes: number[] = [];
  let remaining = total;
  while (remaining > 0) {
    let size = Math.min(CHAIN_TASKS + 1, remaining);
    if (remaining - size === 1) size -= 1;
    sizes.push(size);
    remaining -= size;
  }
  return sizes;
}

function addChain(builder: DagBuilder, chain: number, size: number, next: string): void {
  const start = `c${chain}_0`;
  const salvage = `c${chain}_salvage`;
  const step = `c${chain}-step`;
  const loop = `c${chain}-loop`;
  builder
    .budget(step, 2, `Re-tries of a step of chain ${chain}.`)
    .budget(loop, 1, `Re-runs of chain ${chain}.`);
  const withScatter = chain % SCATTER_EVERY === SCATTER_EVERY - 1 && size >= 4;
  const keys: string[] = [];
  for (let i = 0; i < size - 1; i++) keys.push(`c${chain}_${i}`);
  keys.forEach((key, i) => {
    const following = keys[i + 1] ?? next;
    if (withScatter && i === 0) {
      builder
        .scatter(key, { items: '/queries', node: NODE, label: `Fan out ${chain}` })
        .route('done', following);
      builder.salvage('error', salvage);
      return;
    }
    if (withScatter && i === 1) {
      builder
        .gather(key, { into: '/hits', require: 'any', label: `Gather ${chain}` })
        .route('completed', following);
      builder.salvage('failed', salvage);
      return;
    }
    builder
      .task(key, NODE, { label: `Step ${i} of chain ${chain}` })
      .route('ok', following)
      .retry('retry', key, { budget: step, exhausted: salvage })
      .salvage('error', salvage);
    if (i % 4 === 3) builder.retry('invalid', start, { budget: loop, exhausted: salvage, resets: [step] });
  });
  builder
    .task(salvage, NODE, { label: `Salvage chain ${chain}` })
    .route('salvaged', next)
    .route('error', 'failed');
}

/**
 * A model with exactly `placements` placements (at least 4).
 *
 * @example
 * ```ts
 * const big = generateDag(1000);
 * ```
 */
export function generateDag(placements: number): Dag {
  if (!Number.isInteger(placements) || placements < 4) {
    throw new RangeError(`generateDag(${placements}): ask for an integer of at least 4 placements`);
  }
  const builder = dag(`urn:switchyard:dag:bench-${placements}`, {
    name: `Benchmark DAG of ${placements} placements`,
    version: '1.0.0',
  });
  const sizes = chainSizes(placements - 2);
  builder.entry('c0_0');
  sizes.forEach((size, chain) => {
    addChain(builder, chain, size, chain + 1 < sizes.length ? `c${chain + 1}_0` : 'done');
  });
  builder.terminal('done', 'completed', { label: 'Done' }).terminal('failed', 'failed', { label: 'Failed' });
  return builder.build();
}

/** The canonical compact JSON-LD document of {@link generateDag} (the loader's fast path). */
export function generateDocument(placements: number): Record<string, unknown> {
  return toDocument(generateDag(placements));
}

/** The same document in JSON-LD expanded form (the loader's normalising path). */
export async function generateExpanded(placements: number): Promise<unknown[]> {
  return expand(generateDocument(placements));
}

function checkSize(what: string, placements: number, least: number): void {
  if (!Number.isInteger(placements) || placements < least) {
    throw new RangeError(`${what}(${placements}): ask for an integer of at least ${least} placements`);
  }
}

/**
 * A chain of exactly `placements` placements: tasks `t0 … t(n-3)`, each retrying itself on a budget of its own
 * (max 2) that exhausts into the `failed` terminal, the last one routing to `done`.
 *
 * @example
 * ```ts
 * const chain = generateChain(10_000);
 * ```
 */
export function generateChain(placements: number): Dag {
  checkSize('generateChain', placements, 3);
  const builder = dag(`urn:switchyard:dag:chain-${placements}`, {
    name: `Chain of ${placements} placements`,
    version: '1.0.0',
  });
  const tasks = placements - 2;
  builder.entry('t0');
  for (let i = 0; i < tasks; i++) {
    builder
      .budget(`b${i}`, 2)
      .task(`t${i}`, NODE)
      .route('ok', i + 1 < tasks ? `t${i + 1}` : 'done')
      .retry('again', `t${i}`, { budget: `b${i}`, exhausted: 'failed' });
  }
  builder.terminal('done', 'completed').terminal('failed', 'failed');
  return builder.build();
}

/** Placements in one layer of {@link generateLattice}. */
export const LATTICE_WIDTH = 8;

/**
 * A lattice of exactly `placements` placements: a `start` task fans out to the first layer; each placement
 * `l<layer>_<i>` routes to two placements of the next layer (`i` and `i + 1`, wrapping), and retries to the
 * placement `i` of the layer before it on the layer's budget (max 2, exhausted into `failed`; the first layer
 * retries itself). The last, possibly partial, layer routes to `done`.
 *
 * @example
 * ```ts
 * const lattice = generateLattice(10_000);
 * ```
 */
export function generateLattice(placements: number): Dag {
  checkSize('generateLattice', placements, 4);
  const builder = dag(`urn:switchyard:dag:lattice-${placements}`, {
    name: `Lattice of ${placements} placements`,
    version: '1.0.0',
  });
  const cells = placements - 3;
  const key = (k: number): string =>
    k < cells ? `l${Math.floor(k / LATTICE_WIDTH)}_${k % LATTICE_WIDTH}` : 'done';
  builder.entry('start').task('start', NODE);
  for (let i = 0; i < Math.min(LATTICE_WIDTH, cells); i++) builder.route(`o${i}`, key(i));
  const layers = Math.ceil(cells / LATTICE_WIDTH);
  for (let layer = 0; layer < layers; layer++) builder.budget(`layer${layer}`, 2);
  for (let k = 0; k < cells; k++) {
    const layer = Math.floor(k / LATTICE_WIDTH);
    const i = k % LATTICE_WIDTH;
    const next = (layer + 1) * LATTICE_WIDTH;
    const back = layer === 0 ? k : k - LATTICE_WIDTH;
    builder
      .task(key(k), NODE)
      .route('left', key(next + i))
      .route('right', key(next + ((i + 1) % LATTICE_WIDTH)))
      .retry('again', key(back), { budget: `layer${layer}`, exhausted: 'failed' });
  }
  builder.terminal('done', 'completed').terminal('failed', 'failed');
  return builder.build();
}
