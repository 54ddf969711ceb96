/**
 * The viewer end to end in a real browser (Debian's Chromium through playwright-core): the documents of
 * dags/ listed, compose-validate drawn with every placement and retry label, a run with Retry-After waits
 * watched live from a real `switchyard run` until it ends with its path drawn, a document with an
 * unbounded loop showing the cycle, and a traversal URL refused. The screenshots go to test-output/ui/, and to
 * docs/images/ (where the README shows them) with `UPDATE_DOCS_IMAGES=1`, so that a test run leaves the
 * tracked files as they were.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewer, type Viewer } from '../../src/ui/server.ts';
import { SWITCHYARD } from '../cli-entry.ts';
import { launchBrowser } from './browser.ts';
import { composeValidate, DAGS, ROOT, recordRuns, tempFolder } from './helpers.ts';

const IMAGES = join(ROOT, process.env.UPDATE_DOCS_IMAGES === '1' ? 'docs/images' : 'test-output/ui');
const temp = tempFolder();
const storePath = join(temp.path, 'runs.db');
let browser: Browser;
let viewer: Viewer;
let broken: Viewer;

/** Every word of an SVG's text, whitespace collapsed: Mermaid writes each word of a label in its own tspan. */
async function svgText(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(selector, (nodes) =>
    nodes.map((n) =>
      [...n.querySelectorAll('tspan, text')]
        .filter((t) => t.children.length === 0)
        .map((t) => t.textContent ?? '')
        .join(' ')
        .replace(/\s+/gu, ' ')
        .trim(),
    ),
  );
}

/**
 * Starts a real `switchyard run` of compose-validate with the Retry-After nodes, recording into the store the
 * viewer serves, and resolves once it prints the run's page URL.
 */
async function startRun(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; ended: Promise<{ code: number | null; stderr: string }> }> {
  const child = spawn(
    process.execPath,
    [
      ...SWITCHYARD,
      'run',
      'dags/compose-validate.jsonld',
      '--nodes',
      'test/ui/fixtures/nodes.ts',
      '--input',
      JSON.stringify({ topic: 'whales' }),
      '--store',
      storePath,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const ended = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stderr })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', () => {
      const found = /view it at (\S+)/u.exec(stderr);
      if (found) resolve(found[1] as string);
    });
    void ended.then(() => reject(new Error(`the run ended without printing its URL: ${stderr}`)));
  });
  return { child, url, ended };
}

beforeAll(async () => {
  mkdirSync(IMAGES, { recursive: true });
  const brokenFolder = join(temp.path, 'broken');
  mkdirSync(brokenFolder);
  cpSync(join(ROOT, 'test/fixtures/invalid/E_UNBOUNDED_LOOP.jsonld'), join(brokenFolder, 'loop.jsonld'));
  await recordRuns(storePath, 55);
  browser = await launchBrowser();
  viewer = await startViewer({ dags: DAGS, store: storePath, port: 0 });
  broken = await startViewer({ dags: brokenFolder, store: storePath, port: 0, announce: false });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  await broken?.close();
  temp.remove();
});

describe('the viewer in Chromium', () => {
  it('lists every document of dags/, reachable from the keyboard', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(`${viewer.url}/`);
    await page.waitForSelector('#documents tbody tr');
    const listed = await page.$$eval('#documents tbody tr td:first-child', (cells) =>
      cells.map((c) => c.textContent),
    );
    const files = readdirSync(DAGS, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.jsonld'))
      .map((f) => f.split('\\').join('/'))
      .sort();
    expect(listed).toEqual(files);
    await page.screenshot({ path: join(IMAGES, 'ui-documents.png') });
    // From the keyboard alone: tab to the compose-validate link and follow it.
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate<string>("document.activeElement?.textContent ?? ''");
      if (focused === 'compose-validate.jsonld') break;
    }
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/documents\/compose-validate\.jsonld$/u);
    await page.close();
  });

  it('draws compose-validate with every placement and each retry label in the SVG', async () => {
    const dag = await composeValidate();
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`${viewer.url}/documents/compose-validate.jsonld`);
    await page.waitForSelector('#diagram[data-drawn="true"] svg', { timeout: 30_000 });
    const nodes = (await svgText(page, '#diagram svg .node')).join(' | ');
    for (const placement of dag.placements) expect(nodes).toContain(placement.label ?? placement.key);
    const labels = await svgText(page, '#diagram svg .edgeLabel');
    for (const placement of dag.placements) {
      for (const route of placement.routes.filter((r) => r.kind === 'retry')) {
        const max = dag.budgets.find((b) => b.name === route.budget)?.max;
        const label = labels.find(
          (l) => l.startsWith(route.output) && l.includes(`${route.budget} ≤ ${max}`),
        );
        expect(label, `the retry label of ${placement.key} —${route.output}→ ${route.to}`).toBeDefined();
        expect(labels).toContain(`${route.budget} exhausted`);
      }
    }
    await page.screenshot({ path: join(IMAGES, 'ui-document.png'), fullPage: true });
    await page.close();
  }, 60_000);

  it('lists the runs a page at a time, filtered by status and document', async () => {
    const page = await browser.newPage();
    await page.goto(`${viewer.url}/runs`);
    await page.waitForSelector('#runs tbody tr');
    expect(await page.locator('#runs tbody tr').count()).toBe(50);
    await page.locator('#more').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#runs tbody tr').count()).toBe(55);
    expect(await page.locator('#more').isHidden()).toBe(true);
    await page.selectOption('#filter-status', 'failed');
    await page.waitForURL(/\/runs\?status=failed$/u);
    await page.locator('#runs-status', { hasText: 'No runs match.' }).waitFor();
    await page.selectOption('#filter-status', '');
    await page.selectOption('#filter-dag', 'urn:switchyard:dag:compose-validate');
    await page.waitForURL(/\/runs\?dag=urn/u);
    await expect.poll(() => page.locator('#runs tbody tr').count()).toBe(50);
    await page.close();
  });

  it('watches a run live: a Retry-After wait counting down, then its abort', async () => {
    // A 60 s Retry-After: the wait lasts until the test aborts the run, however slow the machine.
    const { child, url, ended } = await startRun({ SWITCHYARD_UI_RETRY_AFTER: '60' });
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(url);
    await page.waitForSelector('#main[data-status="running"] #live');
    await page.evaluate('window.notReloaded = true');
    await page
      .locator('#items .countdown', { hasText: /\d( ms|\.\d s|min \d+ s) left \(retry-after\)/u })
      .waitFor();
    await page.screenshot({ path: join(IMAGES, 'ui-run-live.png'), fullPage: true });
    // Ctrl-C: the run is aborted, resumable; the page says so without a reload.
    child.kill('SIGINT');
    await ended;
    await page.waitForSelector('#main[data-status="aborted"]');
    await page.locator('#items-table .badge.aborted').waitFor();
    expect(await page.locator('#items .countdown').count()).toBe(0);
    expect(await page.locator('#items-table').textContent()).toContain(
      'aborted while waiting (retry-after) at compose',
    );
    await page.locator('#live', { hasText: 'switchyard resume' }).waitFor();
    expect(await page.locator('#timelines .entry.aborted').first().textContent()).toContain(
      'the run was aborted',
    );
    expect(await page.evaluate('window.notReloaded')).toBe(true);
    await page.screenshot({ path: join(IMAGES, 'ui-run-aborted.png'), fullPage: true });
    await page.close();
  }, 120_000);

  it('shows a run that waited on a Retry-After with its path drawn once it ends', async () => {
    const { url, ended } = await startRun({});
    expect(url).toMatch(new RegExp(`^${viewer.url}/runs/[0-9a-f-]{36}$`, 'u'));
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(url);
    await page.waitForSelector('#main[data-status]');
    await page.evaluate('window.notReloaded = true');
    // However far the run got before the page loaded, the page follows it to its end without a reload.
    await page.waitForSelector('#main[data-status="completed"]', { timeout: 90_000 });
    expect((await ended).code).toBe(0);
    expect(await page.evaluate('window.notReloaded')).toBe(true);
    // The path drawn: counts on the edges taken, the retry waits, the Retry-After one in the timeline.
    await page.locator('#diagram svg .edgeLabel', { hasText: 'waited' }).first().waitFor();
    const labels = (await svgText(page, '#diagram svg .edgeLabel')).join(' | ');
    expect(labels).toContain('retry · transient ≤ 2 · ×1 · waited 5000 ms');
    expect(labels).toMatch(/invalid · retry · compose ≤ 3 · ×1 · waited \d+ ms/u);
    expect(labels).toContain('drafted · ×2');
    expect(await page.locator('#timelines').textContent()).toContain('after a Retry-After wait of 5.0 s');
    expect(await page.locator('#items-table .badge').allTextContents()).toEqual(['completed']);
    await page.screenshot({ path: join(IMAGES, 'ui-run.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect
      .poll(() => page.evaluate('getComputedStyle(document.body).backgroundColor'))
      .toBe('rgb(15, 23, 42)');
    await page.screenshot({ path: join(IMAGES, 'ui-run-dark.png'), fullPage: true });
    await page.close();
  }, 120_000);

  it('names the cycle of a document with an unbounded loop', async () => {
    const page = await browser.newPage();
    await page.goto(`${broken.url}/documents/loop.jsonld`);
    await page.waitForSelector('#problems');
    expect(await page.locator('#problems').textContent()).toContain('E_UNBOUNDED_LOOP');
    expect(await page.locator('#problems .cycle').textContent()).toBe('Cycle: check → start → check');
    expect(await page.locator('#problems .where').first().textContent()).toMatch(/^line \d+, column \d+$/u);
    // The document still loads as a model: its diagram outlines the two placements of the loop.
    await page.waitForSelector('#diagram[data-drawn="true"] svg');
    expect(await page.locator('#diagram svg g.node.cycle').count()).toBe(2);
    await page.screenshot({ path: join(IMAGES, 'ui-unbounded-loop.png'), fullPage: true });
    // Fixed on disk (the loop gets a budget): the page checks and draws it again without a reload.
    await page.evaluate('window.notReloaded = true');
    const file = join(temp.path, 'broken', 'loop.jsonld');
    const fixed = JSON.parse(readFileSync(file, 'utf8')) as {
      budgets?: unknown[];
      placements: { key: string; routes?: Record<string, unknown>[] }[];
    };
    fixed.budgets = [{ name: 'checks', max: 2 }];
    const back = fixed.placements.find((p) => p.key === 'check')?.routes?.find((r) => r.to === 'start');
    Object.assign(back ?? {}, { kind: 'retry', budget: 'checks', exhausted: 'done' });
    writeFileSync(file, JSON.stringify(fixed, null, 2));
    await page.locator('h1 .badge', { hasText: /^valid$/u }).waitFor({ timeout: 30_000 });
    await page.waitForSelector('#diagram[data-drawn="true"] svg');
    expect(await page.locator('#diagram svg g.node.cycle').count()).toBe(0);
    expect(await page.locator('#loops').textContent()).toContain('budget checks ≤ 2');
    expect(await page.evaluate('window.notReloaded')).toBe(true);
    await page.close();
  }, 60_000);

  it('says on the page that the store is missing', async () => {
    const missing = await startViewer({
      dags: DAGS,
      store: join(temp.path, 'none', 'runs.db'),
      port: 0,
      announce: false,
    });
    const page = await browser.newPage();
    try {
      await page.goto(`${missing.url}/runs`);
      const note = page.locator('#runs-status .message');
      await note.waitFor();
      expect(await note.textContent()).toMatch(/^no runs recorded at .*runs\.db yet: run `switchyard run`/u);
    } finally {
      await page.close();
      await missing.close();
    }
  });

  it('refuses a path-traversal URL', async () => {
    const page = await browser.newPage();
    // Chromium itself resolves `/../` and `%2e%2e` before sending; an encoded slash reaches the server.
    for (const path of ['/documents/..%2f..%2fpackage.json', '/documents/%2e%2e%2fpackage.json']) {
      const response = await page.goto(`${viewer.url}${path}`);
      expect(response?.status()).toBe(400);
      expect(await page.locator('#refusal').textContent()).toContain('climbs out of the served folder');
    }
    const resolved = await page.goto(`${viewer.url}/documents/%2e%2e/package.json`);
    expect(resolved?.status()).toBe(404);
    await page.close();
  });
});
