/**
 * Large documents in a real browser: a document of 1,000 placements opens at once with a note and its tables,
 * and no diagram is laid out in the page (Mermaid's layout, which would hold the page's thread for minutes,
 * never runs); a drawn diagram zooms and pans with the mouse, the buttons and the keyboard. The page's long
 * tasks are recorded in test-output/ui/ for the record; the assertions are on what ran, not on how long.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDocument } from '../../bench/generate.ts';
import { startViewer, type Viewer } from '../../src/ui/server.ts';
import { launchBrowser } from './browser.ts';
import { DAGS, ROOT, tempFolder } from './helpers.ts';
import { getJson } from './http.ts';

const OUTPUT = join(ROOT, 'test-output/ui');
const temp = tempFolder();
const folder = join(temp.path, 'dags');
let browser: Browser;
let viewer: Viewer;

/** Every long task (≥ 50 ms on the page's main thread) from the start of the page. */
const LONG_TASKS = `window.longTasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.longTasks.push(Math.round(e.duration));
}).observe({ type: 'longtask', buffered: true });`;

/** The paths of the page's scripts that lay out and draw a flowchart: fetched only when one is drawn. */
async function layoutScripts(page: Page): Promise<string[]> {
  const urls = await page.evaluate<string[]>(
    "performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)",
  );
  return urls.filter((u) => /\/(flowDiagram|render)-[^/]*\.mjs$/u.test(u));
}

beforeAll(async () => {
  mkdirSync(folder);
  mkdirSync(OUTPUT, { recursive: true });
  writeFileSync(join(folder, 'huge.jsonld'), JSON.stringify(generateDocument(1000), null, 2));
  cpSync(join(DAGS, 'compose-validate.jsonld'), join(folder, 'compose-validate.jsonld'));
  viewer = await startViewer({ dags: folder, store: join(temp.path, 'runs.db'), port: 0, announce: false });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  temp.remove();
});

describe('a document of 1,000 placements', () => {
  it('sends no diagram, only its size, and the tables', async () => {
    const { status, json } = await getJson<{
      mermaid?: unknown;
      diagramTooLarge?: { placements: number; edges: number; limit: number };
      placements: unknown[];
    }>(viewer.url, '/api/documents/huge.jsonld');
    expect(status).toBe(200);
    expect(json.mermaid).toBeUndefined();
    expect(json.diagramTooLarge).toMatchObject({ placements: 1000, limit: 300 });
    expect(json.placements).toHaveLength(1000);
  }, 60_000);

  it('opens with a note and its placements, and lays out no diagram in the page', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.addInitScript(LONG_TASKS);
    await page.goto(`${viewer.url}/documents/huge.jsonld`);
    await page.locator('#diagram-too-large').waitFor({ timeout: 60_000 });
    expect(await page.locator('#diagram-too-large').textContent()).toMatch(
      /1,000 placements and [\d,]+ arrows, more than the 300 .*switchyard render .*huge\.jsonld -o huge\.svg/u,
    );
    expect(await page.locator('#placements tbody tr').count()).toBe(1000);
    expect(await page.locator('svg').count()).toBe(0);
    // Scrolled to its end and back, the page answers (it is not busy laying anything out).
    await page.keyboard.press('End');
    await page.keyboard.press('Home');
    expect(await layoutScripts(page)).toEqual([]);
    await page.screenshot({ path: join(OUTPUT, 'ui-huge-document.png') });
    const longTasks = await page.evaluate<number[]>('window.longTasks');
    writeFileSync(join(OUTPUT, 'huge-document-long-tasks.json'), `${JSON.stringify({ longTasks })}\n`);
    await page.close();
  }, 60_000);
});

describe('a drawn diagram', () => {
  it('zooms and pans with the buttons, the mouse and the keyboard', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`${viewer.url}/documents/compose-validate.jsonld`);
    const view = page.locator('#diagram .diagram-view[data-ready="true"]');
    await view.waitFor({ timeout: 60_000 });
    // Mermaid did lay this one out: the scripts the huge document never fetched.
    expect((await layoutScripts(page)).length).toBeGreaterThan(0);
    const state = () =>
      page.evaluate<{ scale: number; transform: string }>(`({
        scale: Number(document.querySelector('.diagram-view').dataset.scale),
        transform: document.querySelector('.diagram-stage').style.transform,
      })`);
    const start = await state();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    const zoomed = await state();
    expect(zoomed.scale).toBeGreaterThan(start.scale);
    const box = await view.boundingBox();
    if (box === null) throw new Error('the diagram has no box');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 150, box.y + box.height / 2 - 80, { steps: 5 });
    await page.mouse.up();
    const dragged = await state();
    expect(dragged.scale).toBe(zoomed.scale);
    expect(dragged.transform).not.toBe(zoomed.transform);
    await view.focus();
    await page.keyboard.press('ArrowLeft');
    expect((await state()).transform).not.toBe(dragged.transform);
    await page.keyboard.press('-');
    expect((await state()).scale).toBeLessThan(zoomed.scale);
    await page.keyboard.press('1');
    expect((await state()).scale).toBe(1);
    await page.keyboard.press('0');
    expect((await state()).scale).toBeLessThanOrEqual(1);
    // The wheel scrolls the page; Ctrl and the wheel zoom the diagram.
    const before = (await state()).scale;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 200);
    expect((await state()).scale).toBe(before);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -200);
    await page.keyboard.up('Control');
    await expect.poll(async () => (await state()).scale).toBeGreaterThan(before);
    await page.close();
  }, 60_000);
});
