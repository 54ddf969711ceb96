/**
 * Rendering cost: launching a browser (the baseline), every document of dags/ rendered to SVG with one
 * browser (median of a few runs, per diagram), and one 1,000-placement document.
 * Run: node --import tsx bench/render.bench.ts
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadDagFolder } from '../src/document/load.ts';
import type { Dag, Placement } from '../src/document/model.ts';
import { findChromium, launchChromium } from '../src/render/chromium.ts';
import { toMermaid } from '../src/render/mermaid.ts';
import { createRenderer } from '../src/render/renderer.ts';

const RUNS = 3;
const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const ms = (value: number): string => `${value.toFixed(0)} ms`;

function bigDag(size: number): Dag {
  const key = (i: number) => `step-${String(i).padStart(4, '0')}`;
  const placements: Placement[] = [];
  for (let i = 0; i < size; i++) {
    const retry =
      i % 10 === 9
        ? [{ output: 'retry', to: key(i - 1), kind: 'retry' as const, budget: 'step', exhausted: 'failed' }]
        : [];
    placements.push({
      key: key(i),
      kind: 'task',
      node: 'urn:x:step',
      routes: [{ output: 'ok', to: i === size - 1 ? 'done' : key(i + 1), kind: 'next' }, ...retry],
    });
  }
  placements.push({ key: 'done', kind: 'terminal', outcome: 'completed', routes: [] });
  placements.push({ key: 'failed', kind: 'terminal', outcome: 'failed', routes: [] });
  return {
    id: 'urn:bench:big',
    name: 'big',
    version: '1',
    entrypoints: [key(0)],
    budgets: [{ name: 'step', max: 2 }],
    placements,
  };
}

const dagsDir = join(import.meta.dirname, '../dags');
const files = readdirSync(dagsDir)
  .filter((f) => f.endsWith('.jsonld'))
  .map((f) => join(dagsDir, f));
const { results, library } = await loadDagFolder(files);
const texts = [...results.values()].flatMap((r) => (r.dag ? [toMermaid(r.dag, { library })] : []));

const launches: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const start = performance.now();
  const launched = await launchChromium(findChromium());
  launches.push(performance.now() - start);
  await launched.close();
}
console.log(`browser launch (baseline): ${ms(median(launches))} (median of ${RUNS})`);

const renderer = await createRenderer();
try {
  const rounds: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    for (const text of texts) await renderer.render(text, 'svg');
    rounds.push(performance.now() - start);
  }
  const all = median(rounds);
  console.log(
    `dags/ (${texts.length} diagrams) to SVG, one browser: ${ms(all)}, ${ms(all / texts.length)} per diagram`,
  );
  const start = performance.now();
  await renderer.render(toMermaid(bigDag(1000)), 'svg');
  console.log(`1,000-placement document to SVG: ${ms(performance.now() - start)}`);
} finally {
  await renderer.close();
}
