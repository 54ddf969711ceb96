/**
 * Rendering cost: launching a browser (the baseline), every document of dags/ rendered to SVG with one
 * browser (median of a few runs, per diagram), and one 1,000-placement document.
 * Run: node --import tsx bench/render.bench.ts
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadDagFolder } from '../src/document/load.ts';
import { findChromium, launchChromium } from '../src/render/chromium.ts';
import { toMermaid } from '../src/render/mermaid.ts';
import { createRenderer } from '../src/render/renderer.ts';
import { generateDag } from './generate.ts';
import { median } from './stats.ts';

const RUNS = 3;
const ms = (value: number): string => `${value.toFixed(0)} ms`;

const dagsDir = join(import.meta.dirname, '../dags');
const files = readdirSync(dagsDir, { recursive: true, encoding: 'utf8' })
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
  await renderer.render(toMermaid(generateDag(1000)), 'svg');
  console.log(`1,000-placement document to SVG: ${ms(performance.now() - start)}`);
} finally {
  await renderer.close();
}
