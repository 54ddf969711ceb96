/**
 * What the run page's data says of gates, from real runs through a dispatcher's gates recorded in a real
 * SQLite store: items waiting at a gate are waiting with the reason `gate <key>` (though their checkpoints
 * say they are at their placement), the gate's closing is in force with its end and its Retry-After, and
 * the timelines show the closing, the waits at the gate, the passing and the reopening; and what the page
 * draws of it in a real browser.
 */
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/policy/clock.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { RunStore } from '../../src/store/types.ts';
import type { RunDetail } from '../../src/ui/run-detail.ts';
import { startViewer, type Viewer } from '../../src/ui/server.ts';
import { launchBrowser } from './browser.ts';
import { composeValidate, DAGS, tempFolder } from './helpers.ts';
import { getJson } from './http.ts';

/** The composer answers 429 with a Retry-After of `retryAfterMs` on the first visit of an item naming one. */
const nodes = [
  defineNode({
    id: 'urn:switchyard:node:compose',
    outputs: ['drafted'],
    run: (item, ctx) => {
      const wait = item.data.retryAfterMs;
      if (ctx.visit === 1 && typeof wait === 'number') {
        throw Object.assign(new Error('429 Too Many Requests'), { status: 429, retryAfter: wait });
      }
      return 'drafted';
    },
  }),
  defineNode({ id: 'urn:switchyard:node:validate', outputs: ['valid', 'invalid'], run: () => 'valid' }),
  defineNode({ id: 'urn:switchyard:node:salvage', outputs: ['salvaged'], run: () => 'salvaged' }),
];

const policy = {
  defaults: { jitter: 'none', retryAfter: { honour: true, capMs: 600_000 } },
  gates: { provider: { placements: ['compose'], concurrency: 1 } },
} as PolicyInput;

const temp = tempFolder();
const storePath = join(temp.path, 'runs.db');
let store: RunStore;
let viewer: Viewer;

beforeAll(async () => {
  store = await openSqliteStore(storePath);
  viewer = await startViewer({ dags: DAGS, store: storePath, port: 0, announce: false });
});

afterAll(async () => {
  await viewer?.close();
  await store?.close();
  temp.remove();
});

async function detail(id: string): Promise<RunDetail> {
  const { status, json } = await getJson<RunDetail>(viewer.url, `/api/runs/${id}`);
  expect(status).toBe(200);
  return json;
}

describe('gates on the run page', () => {
  it('shows items waiting at a closed gate, the closing in force, then its reopening and the passings', async () => {
    // A clock moved by the test only, its wall time now's, so that the run's lease is live meanwhile.
    const wallStart = systemClock.wallNow();
    const clock = createVirtualClock({ wallStart });
    const running = createDispatcher({ nodes, clock, store, policy }).run(
      await composeValidate(),
      {},
      { items: [{ retryAfterMs: 20_000 }, {}, {}], runId: 'gated-run' },
    );
    const until = new Date(wallStart + 20_000).toISOString();
    // Items 2 and 3 queued behind item 1's call, which closed the gate for 20 s. Neither has a checkpoint
    // yet (an item's first is written at its first transition): the page knows them by their events.
    await expect
      .poll(async () => (await detail('gated-run')).items.map((i) => [i.id, i.state, i.wait?.reason]), {
        timeout: 20_000,
      })
      .toEqual([
        ['1', 'waiting', 'retry-after'],
        ['2', 'waiting', 'gate provider'],
        ['3', 'waiting', 'gate provider'],
      ]);
    const waiting = await detail('gated-run');
    expect(waiting.items[1]?.wait).toEqual({
      reason: 'gate provider',
      until,
      gate: { name: 'provider', key: 'provider', why: 'closed' },
    });
    // The key's state as `runs show` says it, and its timeline.
    expect(waiting.gates).toEqual([
      {
        gate: 'provider',
        key: 'provider',
        state: 'closed',
        until,
        reason: 'HTTP 429',
        hintMs: 20_000,
        waiting: 2,
        items: ['2', '3'],
      },
    ]);
    expect(waiting.gateTimelines.provider).toEqual([
      {
        seq: expect.any(Number),
        atMs: 0,
        kind: 'closed',
        gate: 'provider',
        untilMs: wallStart + 20_000,
        hintMs: 20_000,
        text: `closed until ${until} (HTTP 429, Retry-After 20.0 s) by item 1 at compose`,
      },
    ]);
    expect(waiting.timelines['2']?.map((e) => [e.kind, e.text])).toEqual([
      ['placement', 'compose starts (visit 1)'],
      ['gate', `waits at gate provider: closed until ${until}`],
    ]);
    expect(waiting.timelines['1']?.map((e) => e.text)).toContain(
      `closed gate provider until ${until} (HTTP 429, Retry-After 20.0 s)`,
    );

    await clock.runUntilIdle();
    expect((await running).status).toBe('completed');
    const done = await detail('gated-run');
    expect(done.items.map((i) => i.state)).toEqual(['completed', 'completed', 'completed']);
    expect(done.gates[0]).toMatchObject({ key: 'provider', state: 'open', closedMs: 20_000, waiting: 0 });
    expect(done.gateTimelines.provider?.map((e) => [e.atMs, e.kind, e.text])).toEqual([
      [0, 'closed', `closed until ${until} (HTTP 429, Retry-After 20.0 s) by item 1 at compose`],
      [20_000, 'opened', 'reopened after 20.0 s closed'],
    ]);
    expect(done.timelines['2']?.map((e) => [e.atMs, e.kind, e.text]).slice(0, 3)).toEqual([
      [0, 'placement', 'compose starts (visit 1)'],
      [0, 'gate', `waits at gate provider: closed until ${until}`],
      [20_000, 'gate', 'through gate provider after 20.0 s'],
    ]);
  });

  it('says an item of an aborted run was stopped while it waited at the gate', async () => {
    const clock = createVirtualClock({ wallStart: systemClock.wallNow() });
    const abort = new AbortController();
    const running = createDispatcher({ nodes, clock, store, policy }).run(
      await composeValidate(),
      {},
      { items: [{ retryAfterMs: 20_000 }, {}], runId: 'gated-abort', signal: abort.signal },
    );
    await expect
      .poll(async () => (await detail('gated-abort')).items.map((i) => i.wait?.reason), { timeout: 20_000 })
      .toEqual(['retry-after', 'gate provider']);
    abort.abort();
    expect((await running).status).toBe('aborted');
    const shown = await detail('gated-abort');
    expect(shown.items.map((i) => [i.state, i.stoppedWhile])).toEqual([
      ['aborted', 'waiting (retry-after) at compose'],
      ['aborted', 'waiting (gate provider) at compose'],
    ]);
    // The gate stays closed after the run: its closing is the provider's, not the run's.
    expect(shown.gates[0]).toMatchObject({ key: 'provider', state: 'closed', items: ['2'] });
  });
});

describe('gates in the page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the items waiting at the gate and the gate closed with its countdown, then reopened', async () => {
    const clock = createVirtualClock({ wallStart: systemClock.wallNow() });
    const running = createDispatcher({ nodes, clock, store, policy }).run(
      await composeValidate(),
      {},
      { items: [{ retryAfterMs: 600_000 }, {}, {}], runId: 'gated-page' },
    );
    await expect
      .poll(async () => (await detail('gated-page')).gates[0]?.waiting, { timeout: 20_000 })
      .toBe(2);
    const page = await browser.newPage();
    try {
      await page.goto(`${viewer.url}/runs/gated-page`);
      const row = page.locator('#items-table tr[data-item="3"]');
      await row.filter({ hasText: 'waiting' }).waitFor();
      // The wait counts down to the closing's end, ten minutes ahead (a few seconds pass meanwhile).
      await row.locator('.countdown', { hasText: 'left' }).waitFor();
      expect(await row.locator('.countdown').textContent()).toMatch(
        /^(9 min \d+|10 min 0) s left \(gate provider, closed\)$/u,
      );
      const gate = page.locator('#gates details[data-gate="provider"]');
      await gate.waitFor();
      expect(await gate.getAttribute('open')).not.toBeNull();
      await gate.locator('summary .countdown', { hasText: 'left' }).waitFor();
      expect(await gate.locator('summary').textContent()).toMatch(
        /^Gate provider · (9 min \d+|10 min 0) s left \(closed: HTTP 429, Retry-After 10 min 0 s\) · 2 items waiting · 1 closing$/u,
      );
      expect(await gate.locator('li').allTextContents()).toEqual([
        expect.stringMatching(
          /^\+0 msclosed until \S+ \(HTTP 429, Retry-After 600\.0 s\) by item 1 at compose$/u,
        ),
      ]);
      await clock.runUntilIdle();
      expect((await running).status).toBe('completed');
      await page.locator('#gates li[data-kind="opened"]').waitFor();
      expect(await gate.locator('summary').textContent()).toBe('Gate provider · open · 1 closing');
    } finally {
      await page.close();
    }
  }, 60_000);
});
