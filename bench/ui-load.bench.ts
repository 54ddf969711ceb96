/**
 * The web viewer's first load, measured in the browser (Debian's Chromium through playwright-core) with
 * Navigation Timing: a new visitor (fresh browser context, empty cache) opening the documents page of dags/
 * and the runs page of a store of 1,000 real runs, each until its list is on screen (`switchyard:ready`
 * mark), and a document page until its diagram is drawn. Prints medians; the runs page fetches one page of
 * runs (50), never the whole store.
 * Run: node --import tsx bench/ui-load.bench.ts
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startViewer } from '../src/ui/server.ts';
import { launchBrowser } from '../test/ui/browser.ts';
import { DAGS, recordRuns, tempFolder } from '../test/ui/helpers.ts';
import { median, printTable } from './stats.ts';

const RUNS = 15;
const RUN_COUNT = 1000;
const ms = (value: number): string => `${value.toFixed(0)} ms`;

interface Timing {
  readonly ready: number;
  readonly domContentLoaded: number;
  readonly load: number;
}

/** Navigation Timing of the page and its ready mark, in ms since the navigation started. */
function timing(page: Page): Promise<Timing> {
  // Evaluated in the page, where the DOM's performance API is.
  return page.evaluate<Timing>(`(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const ready = performance.getEntriesByName('switchyard:ready')[0]?.startTime ?? Number.NaN;
    return { ready, domContentLoaded: nav.domContentLoadedEventEnd, load: nav.loadEventEnd };
  })()`);
}

const temp = tempFolder();
const store = join(temp.path, 'runs.db');
const recordStart = performance.now();
await recordRuns(store, RUN_COUNT);
process.stdout.write(
  `recorded ${RUN_COUNT} runs of compose-validate in ${ms(performance.now() - recordStart)}\n`,
);

const viewer = await startViewer({ dags: DAGS, store, port: 0, announce: false });
const browser = await launchBrowser();
try {
  const measure = async (path: string, selector: string, drawn = false) => {
    const samples: Timing[] = [];
    const diagram: number[] = [];
    let runsPage = 0;
    for (let i = 0; i < RUNS + 1; i++) {
      // A new context per load: no cache, no service state, as a first visit.
      const context = await browser.newContext();
      const page = await context.newPage();
      page.on('response', async (response) => {
        if (new URL(response.url()).pathname === '/api/runs')
          runsPage = ((await response.json()) as { runs: unknown[] }).runs.length;
      });
      await page.goto(`${viewer.url}${path}`);
      await page.waitForSelector(selector);
      // The page sets the ready mark in the same turn as this attribute.
      await page.locator('#main[data-ready="true"]').waitFor();
      const t = await timing(page);
      if (drawn) {
        await page.waitForSelector('#diagram[data-drawn="true"]', { timeout: 30_000 });
        diagram.push(await page.evaluate(() => performance.now()));
      }
      // The first load warms the server's document check; it is not counted.
      if (i > 0) samples.push(t);
      await context.close();
    }
    return {
      ready: median(samples.map((s) => s.ready)),
      load: median(samples.map((s) => s.load)),
      domContentLoaded: median(samples.map((s) => s.domContentLoaded)),
      diagram: diagram.length > 0 ? median(diagram.slice(1)) : undefined,
      runsPage,
    };
  };
  const documents = await measure('/', '#documents tbody tr');
  const runs = await measure('/runs', '#runs tbody tr');
  const document = await measure('/documents/compose-validate.jsonld', '#placements', true);
  printTable(`First load in Chromium, median of ${RUNS} (fresh context each), ms since navigation start`, [
    ['page', 'list on screen', 'load event', 'DOMContentLoaded'],
    ['documents of dags/', ms(documents.ready), ms(documents.load), ms(documents.domContentLoaded)],
    [`runs, store of ${RUN_COUNT}`, ms(runs.ready), ms(runs.load), ms(runs.domContentLoaded)],
    ['compose-validate', ms(document.ready), ms(document.load), ms(document.domContentLoaded)],
  ]);
  process.stdout.write(
    `  compose-validate's diagram drawn (Mermaid loaded and run in the page): ${ms(document.diagram ?? Number.NaN)}\n` +
      `  the runs page fetched ${runs.runsPage} of the ${RUN_COUNT} runs (one page; the next comes by cursor)\n`,
  );
} finally {
  await browser.close();
  await viewer.close();
  temp.remove();
}
