/**
 * What an open page says when things change under it, in a real browser: the viewer stopping (and coming
 * back), a run id the store does not have, the store file deleted and created again, and times in the reader's
 * time zone.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { RunRecord } from '../../src/store/types.ts';
import { startViewer, type Viewer } from '../../src/ui/server.ts';
import { launchBrowser } from './browser.ts';
import { DAGS, recordRuns, tempFolder } from './helpers.ts';

const temp = tempFolder();
const storePath = join(temp.path, 'runs.db');
const runningId = 'still-running';
let browser: Browser;
let viewer: Viewer;

// Records the text of every message the page shows, in order, from its first paint on.
const MESSAGES = `window.messages = [];
new MutationObserver(() => {
  for (const m of document.querySelectorAll('#main .message')) {
    if (!window.messages.includes(m.textContent)) window.messages.push(m.textContent);
  }
}).observe(document, { subtree: true, childList: true, characterData: true });`;

beforeAll(async () => {
  const [id] = await recordRuns(storePath, 3);
  const store = await openSqliteStore(storePath);
  const run = (await store.getRun(id as string)) as RunRecord;
  await store.commit([{ kind: 'run', run: { ...run, id: runningId, status: 'running' } }]);
  await store.close();
  browser = await launchBrowser();
  viewer = await startViewer({ dags: DAGS, store: storePath, port: 0, announce: false });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  temp.remove();
});

describe('an open page', () => {
  it('says when the viewer has stopped, and goes on when it is back', async () => {
    const own = await startViewer({ dags: DAGS, store: storePath, port: 0, announce: false });
    const page = await browser.newPage();
    let again: Viewer | undefined;
    try {
      // A run still going on (its record says running), watched live.
      await page.goto(`${own.url}/runs/${runningId}`);
      const live = page.locator('#live');
      await live.filter({ hasText: /^Live: / }).waitFor();
      const banner = page.locator('#viewer-state');
      expect(await banner.isHidden()).toBe(true);
      await own.close();
      await banner.waitFor({ state: 'visible' });
      expect(await banner.textContent()).toMatch(/^The viewer has stopped: this page no longer updates\./u);
      expect(await banner.getAttribute('role')).toBe('alert');
      await live.filter({ hasText: /^Live updates paused: the viewer is not answering/u }).waitFor();
      again = await startViewer({ dags: DAGS, store: storePath, port: own.port, announce: false });
      await banner.waitFor({ state: 'hidden' });
      await live.filter({ hasText: /^Live: / }).waitFor();
    } finally {
      await page.close();
      await own.close();
      await again?.close();
    }
  }, 60_000);

  it('says at once that a run id is not in the store', async () => {
    const page = await browser.newPage();
    await page.addInitScript(MESSAGES);
    await page.goto(`${viewer.url}/runs/no-such-run`);
    await page.waitForSelector('#main[data-ready="true"]');
    const shown = await page.evaluate<string[]>('window.messages');
    expect(shown[0]).toMatch(/^no run 'no-such-run' in .*runs\.db/u);
    await page.close();
  });

  it('lets the runs of a deleted store go, and lists those of a new store of that name', async () => {
    const folder = tempFolder();
    const path = join(folder.path, 'runs.db');
    await recordRuns(path, 2);
    const own = await startViewer({ dags: DAGS, store: path, port: 0, announce: false });
    const page = await browser.newPage();
    try {
      await page.goto(`${own.url}/runs`);
      await expect.poll(() => page.locator('#runs tbody tr').count()).toBe(2);
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
      await page.locator('#runs-status', { hasText: 'no runs recorded' }).waitFor({ timeout: 20_000 });
      expect(await page.locator('#runs tbody tr').count()).toBe(0);
      await recordRuns(path, 1);
      await expect.poll(() => page.locator('#runs tbody tr').count(), { timeout: 20_000 }).toBe(1);
      expect(await page.locator('#runs-status').textContent()).toBe('');
    } finally {
      await page.close();
      await own.close();
      folder.remove();
    }
  }, 60_000);

  it("names the reader's time zone in every time it shows", async () => {
    const context = await browser.newContext({ timezoneId: 'Asia/Kolkata', locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(`${viewer.url}/runs`);
    await page.waitForSelector('#runs tbody tr time');
    const started = page.locator('#runs tbody tr time').first();
    // recordRuns starts its runs at 12:00 UTC on 1 January 2026: 17:30 in India.
    expect(await started.textContent()).toMatch(/17:3\d:\d\d GMT\+5:30$/u);
    expect(await started.getAttribute('datetime')).toMatch(/^2026-01-01T12:0\d:00\.000Z$/u);
    await page.locator('#runs tbody tr a').first().click();
    await page.waitForSelector('#main[data-status] .facts time');
    for (const time of await page.locator('.facts time').allTextContents()) {
      expect(time).toMatch(/GMT\+5:30$/u);
    }
    await context.close();
  });
});
