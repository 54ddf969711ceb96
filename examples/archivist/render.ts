import { writeFile } from 'node:fs/promises';
import { toMermaid } from '../../src/render/mermaid.ts';
import { formatOfPath } from '../../src/render/output-format.ts';
import { createRenderer } from '../../src/render/renderer.ts';
import { summariseTrace } from '../../src/render/trace.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { loadArchivistDags } from './engine.ts';

/**
 * Draws the ask DAG, with its embedded compose/validate loop as a subgraph, and the path of this run over
 * it: to `path` as SVG, PNG or Mermaid text, by its extension.
 */
export async function renderRun(path: string, events: readonly RunEvent[]): Promise<void> {
  const format = formatOfPath(path);
  const { dag, library } = await loadArchivistDags();
  const text = toMermaid(dag, { library, expandEmbedded: true, trace: summariseTrace(events) });
  if (format === 'mmd') {
    await writeFile(path, text);
    return;
  }
  const renderer = await createRenderer();
  try {
    await writeFile(path, await renderer.render(text, format));
  } finally {
    await renderer.close();
  }
}
