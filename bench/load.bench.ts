/**
 * Load, validate and analyse a generated 1,000-placement document, on the fast path (canonical compact form)
 * and on the JSON-LD normalising path (the same graph in expanded form). Prints medians of several runs;
 * a JSON.parse of the same text is the baseline measured in the same run.
 */
import { performance } from 'node:perf_hooks';
import { loadDagText } from '../src/document/load.ts';
import { analyse } from '../src/graph/analyse.ts';
import { computeBounds } from '../src/graph/bounds.ts';
import { compile } from '../src/graph/compile.ts';
import { generateDocument, generateExpanded } from './generate.ts';
import { median, printTable } from './stats.ts';

const PLACEMENTS = Number(process.env.PLACEMENTS ?? 1000);
const RUNS = Number(process.env.RUNS ?? 15);
const WARMUP = 5;

async function loadAndAnalyse(text: string): Promise<number> {
  const start = performance.now();
  const { dag, problems } = await loadDagText(text, 'generated.jsonld');
  if (!dag || problems.length > 0)
    throw new Error(`generated document did not load: ${problems[0]?.message}`);
  const found = analyse(dag).filter((p) => p.severity === 'error');
  if (found.length > 0) throw new Error(`generated document has problems: ${found[0]?.message}`);
  computeBounds(compile(dag));
  return performance.now() - start;
}

async function time(label: string, fn: () => Promise<number> | number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < WARMUP; i++) await fn(); // schema compilation, JIT
  for (let i = 0; i < RUNS; i++) samples.push(await fn());
  void label;
  return samples;
}

const canonical = JSON.stringify(generateDocument(PLACEMENTS));
const expanded = JSON.stringify(await generateExpanded(PLACEMENTS));

const baseline = await time('JSON.parse', () => {
  const start = performance.now();
  JSON.parse(canonical);
  return performance.now() - start;
});
const fast = await time('fast path', () => loadAndAnalyse(canonical));
const normalising = await time('normalising path', () => loadAndAnalyse(expanded));

printTable(`load + validate + analyse, ${PLACEMENTS} placements, median of ${RUNS} runs`, [
  ['baseline: JSON.parse of the canonical text', `${median(baseline).toFixed(2)} ms`],
  ['fast path (canonical compact form)', `${median(fast).toFixed(1)} ms`, 'aim < 50 ms'],
  ['normalising path (expanded form, jsonld.js)', `${median(normalising).toFixed(1)} ms`, 'aim < 500 ms'],
]);
