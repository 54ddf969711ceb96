import { resolve } from 'node:path';
import { writeOutput } from '../../src/cli/output.ts';
import { toMermaid } from '../../src/render/mermaid.ts';
import { formatOfPath } from '../../src/render/output-format.ts';
import { createRenderer } from '../../src/render/renderer.ts';
import { summariseTrace } from '../../src/render/trace.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { loadArchivistDags } from './engine.ts';
import { cachedPicture, renderCacheFolder } from './render-cache.ts';

/**
 * Draws the ask DAG, with its embedded compose/validate loop as a subgraph, and the path of this run over
 * it: to `path` (resolved against `cwd`) as SVG, PNG or Mermaid text, by its extension. A picture drawn
 * before (the same path, so the same Mermaid text) comes from the cache folder `env` names (see
 * `renderCacheFolder`) without starting the browser. A failed write is one `E_WRITE` line.
 */
export async function renderRun(
  path: string,
  events: readonly RunEvent[],
  cwd: string = process.cwd(),
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<void> {
  const file = resolve(cwd, path);
  const format = formatOfPath(file);
  const { dag, library } = await loadArchivistDags();
  const text = toMermaid(dag, { library, expandEmbedded: true, trace: summariseTrace(events) });
  if (format === 'mmd') {
    await writeOutput(file, text, cwd);
    return;
  }
  const picture = await cachedPicture(renderCacheFolder(env), text, format, async () => {
    const renderer = await createRenderer();
    try {
      return await renderer.render(text, format);
    } finally {
      await renderer.close();
    }
  });
  await writeOutput(file, picture, cwd);
}
