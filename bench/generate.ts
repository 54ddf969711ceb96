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
