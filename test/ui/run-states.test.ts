/**
 * What the run page's data says of items and runs that did not simply complete: a failed item is failed
 * (never a green "ended"), the items of an aborted run are aborted where they stood with the abort in their
 * timeline (never a wait that never ends), and a run whose process is gone is stalled.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDag } from '../../bench/generate.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { RunRecord, RunStore } from '../../src/store/types.ts';
import { startViewer, type Viewer } from '../../src/ui/server.ts';
import { nodes as retryAfterNodes } from './fixtures/nodes.ts';
import { composeValidate, DAGS, tempFolder } from './helpers.ts';
import { getJson, openEvents } from './http.ts';

interface Detail {
  status: string;
  stalled: boolean;
  items: { id: string; state: string; wait?: unknown; stoppedWhile?: string }[];
  timelines: Record<string, { kind: string; text: string }[]>;
}

/** Compose fails with a 400, and so does the salvage: the item ends at the `failed` terminal. */
const failing = [
  defineNode({
    id: 'urn:switchyard:node:compose',
    outputs: ['drafted'],
    run: () => Promise.reject(Object.assign(new Error('400 Bad Request'), { status: 400 })),
  }),
  defineNode({ id: 'urn:switchyard:node:validate', outputs: ['valid', 'invalid'], run: () => 'valid' }),
  defineNode({
    id: 'urn:switchyard:node:salvage',
    outputs: ['salvaged'],
    run: () => Promise.reject(new Error('no template')),
  }),
];

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

async function detail(id: string): Promise<Detail> {
  const { status, json } = await getJson<Detail>(viewer.url, `/api/runs/${id}`);
  expect(status).toBe(200);
  return json;
}

describe('the states the run page shows', () => {
  it('shows a failed item as failed', async () => {
    const clock = createVirtualClock({ auto: true });
    const dag = await composeValidate();
    const result = await createDispatcher({ nodes: failing, clock, store }).run(dag, {}, { items: [{}] });
    const shown = await detail(result.runId);
    expect(shown.items.map((i) => i.state)).toEqual(['failed']);
  });

  it('shows the items of an aborted run aborted where they stood, with the abort in their timeline', async () => {
    // A clock that never moves by itself: the Retry-After wait lasts until the abort.
    const clock = createVirtualClock();
    const abort = new AbortController();
    const dag = await composeValidate();
    const running = createDispatcher({ nodes: retryAfterNodes, clock, store }).run(
      dag,
      {},
      { items: [{ topic: 'a' }, { topic: 'b' }], signal: abort.signal, runId: 'aborted-run' },
    );
    await expect
      .poll(async () => (await store.listCheckpoints('aborted-run', 'waiting')).length, { timeout: 20_000 })
      .toBe(2);
    abort.abort();
    expect((await running).status).toBe('aborted');
    const shown = await detail('aborted-run');
    expect(shown.status).toBe('aborted');
    expect(shown.items.map((i) => i.state)).toEqual(['aborted', 'aborted']);
    expect(shown.items.every((i) => i.wait === undefined)).toBe(true);
    expect(shown.items[0]?.stoppedWhile).toBe('waiting (retry-after) at compose');
    const last = shown.timelines['1']?.at(-1);
    expect(last?.kind).toBe('aborted');
    expect(last?.text).toMatch(
      /^the run was aborted while the item was waiting \(retry-after\) at compose; `switchyard resume aborted-run` goes on from here$/u,
    );
  });

  it('shows a running run whose lease expired as stalled, its items with it', async () => {
    const clock = createVirtualClock({ auto: true });
    const dag = await composeValidate();
    const done = await createDispatcher({ nodes: retryAfterNodes, clock, store }).run(
      dag,
      {},
      { items: [{}] },
    );
    const run = (await store.getRun(done.runId)) as RunRecord;
    const id = 'stalled-run';
    const checkpoints = await store.listCheckpoints(done.runId);
    const past = Date.now() - 60_000;
    await store.commit([
      { kind: 'run', run: { ...run, id, status: 'running' } },
      ...checkpoints.map(({ ending: _ending, ...c }) => ({
        kind: 'checkpoint' as const,
        checkpoint: { ...c, runId: id, status: 'waiting' as const },
      })),
      {
        kind: 'lease',
        lease: { runId: id, token: 't', pid: 1, host: 'gone', acquiredAt: past - 1000, expiresAt: past },
      },
    ]);
    const shown = await detail(id);
    expect(shown.stalled).toBe(true);
    expect(shown.items.map((i) => i.state)).toEqual(['stalled']);
  });

  it('sends no diagram for the run of a document too large to draw in the page, only its size', async () => {
    const clock = createVirtualClock({ auto: true });
    const done = await createDispatcher({ nodes: retryAfterNodes, clock, store }).run(
      await composeValidate(),
      {},
      { items: [{}] },
    );
    const run = (await store.getRun(done.runId)) as RunRecord;
    const huge = generateDag(1000);
    await store.commit([
      { kind: 'run', run: { ...run, id: 'huge-run', dag: { ...run.dag, iri: huge.id, document: huge } } },
    ]);
    const { json } = await getJson<{ mermaid?: unknown; diagramTooLarge?: { placements: number } }>(
      viewer.url,
      '/api/runs/huge-run',
    );
    expect(json.mermaid).toBeUndefined();
    expect(json.diagramTooLarge?.placements).toBe(1000);
  });

  it("tells a live page when the run's process stops renewing its lease, though no event says so", async () => {
    const clock = createVirtualClock({ auto: true });
    const done = await createDispatcher({ nodes: retryAfterNodes, clock, store }).run(
      await composeValidate(),
      {},
      { items: [{}] },
    );
    const run = (await store.getRun(done.runId)) as RunRecord;
    const expiresAt = Date.UTC(2026, 0, 1, 12, 0, 0);
    let now = expiresAt - 1000;
    await store.commit([
      { kind: 'run', run: { ...run, id: 'lapsing-run', status: 'running' } },
      {
        kind: 'lease',
        lease: { runId: 'lapsing-run', token: 't', pid: 1, host: 'h', acquiredAt: now - 1000, expiresAt },
      },
    ]);
    const own = await startViewer({
      dags: DAGS,
      store: storePath,
      port: 0,
      announce: false,
      runs: { now: () => now, pollMs: 10 },
    });
    const stream = openEvents(own.url, '/api/runs/lapsing-run/live');
    try {
      await stream.until((events) => events.some((e) => e.event === 'ready'));
      now = expiresAt + 1;
      const events = await stream.until((all) => all.some((e) => e.event === 'changed'));
      expect(JSON.parse(events.find((e) => e.event === 'changed')?.data ?? '{}')).toEqual({ stalled: true });
      expect((await detail('lapsing-run')).stalled).toBe(true);
    } finally {
      stream.close();
      await own.close();
    }
  });
});
