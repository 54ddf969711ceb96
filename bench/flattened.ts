/**
 * The generated benchmark documents in flattened JSON-LD form (every node at the top level, linked by
 * blank-node ids), the form the loader frames, and a timing of loading them:
 * `node --import tsx bench/flattened.ts [placements…]`.
 */
import { performance } from 'node:perf_hooks';
import jsonld from 'jsonld';
import { documentLoader } from '../src/document/context-loader.ts';
import { loadDagText } from '../src/document/load.ts';
import { CONTEXT_IRI } from '../src/document/model.ts';
import { generateDocument } from './generate.ts';

/**
 * The document of `generateDocument(placements)` flattened and compacted with the Switchyard context.
 *
 * @example
 * ```ts
 * const text = JSON.stringify(await generateFlattened(1000));
 * ```
 */
export async function generateFlattened(placements: number): Promise<Record<string, unknown>> {
  const options = { documentLoader, base: null } as never;
  const flattened = await jsonld.flatten(
    generateDocument(placements) as never,
    CONTEXT_IRI as never,
    options,
  );
  return flattened as unknown as Record<string, unknown>;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number);
  for (const placements of sizes.length > 0 ? sizes : [1000, 10_000]) {
    const text = JSON.stringify(await generateFlattened(placements));
    const start = performance.now();
    const cpu = process.cpuUsage();
    const { dag, problems } = await loadDagText(text, 'flattened.jsonld');
    const ms = performance.now() - start;
    const { user, system } = process.cpuUsage(cpu);
    if (!dag) throw new Error(`did not load: ${problems[0]?.message}`);
    console.log(
      `${placements} placements, flattened: ${ms.toFixed(0)} ms (${(ms / placements).toFixed(3)} ms each), CPU ${((user + system) / 1000).toFixed(0)} ms`,
    );
  }
}
