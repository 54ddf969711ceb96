/**
 * The viewer and a run waiting for answers: the default listing shows it, its page lists each parked item
 * with its token, the answers it expects and the command that answers it (read-only), its timelines say the
 * waits, and its live stream stays open while it waits and follows it when an answer moves it on. Real runs
 * in a real SQLite store on the virtual clock.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { RunStore } from '../../src/store/types.ts';
import { startViewer, type Viewer } from '../../src/ui/server.ts';
import { draft, reviewDag, reviewPolicy } from '../awaits/fixtures.ts';
import { DAGS, tempFolder } from './helpers.ts';
import { getJson, openEvents } from './http.ts';

interface Detail {
  status: string;
  parked: { item: string; token: string; answers: string[]; command: string; deadline: string }[];
  answers: unknown[];
  items: { id: string; state: string }[];
  timelines: Record<string, { kind: string; text: string }[]>;
}

const temp = tempFolder();
const storePath = join(temp.path, 'runs.db');
let store: RunStore;
let viewer: Viewer;
const clock = createVirtualClock({ auto: true, wallStart: Date.UTC(2026, 0, 1, 12) });
const dispatcher = () => createDispatcher({ nodes: [draft], clock, store, policy: reviewPolicy(3_600_000) });

beforeAll(async () => {
  store = await openSqliteStore(storePath);
  viewer = await startViewer({
    dags: DAGS,
    store: storePath,
    port: 0,
    announce: false,
    runs: { pollMs: 20 },
  });
  const result = await dispatcher().run(
    reviewDag(),
    {},
    { runId: 'waits', items: [{}, {}], whenParked: 'stop' },
  );
  expect(result.status).toBe('waiting');
});

afterAll(async () => {
  await viewer?.close();
  await store?.close();
  temp.remove();
});

describe('a run waiting for answers in the viewer', () => {
  it('is in the default listing, and under ?status=waiting', async () => {
    const all = await getJson<{ runs: { id: string; status: string }[] }>(viewer.url, '/api/runs');
    expect(all.json.runs).toContainEqual(expect.objectContaining({ id: 'waits', status: 'waiting' }));
    const waiting = await getJson<{ runs: { id: string }[] }>(viewer.url, '/api/runs?status=waiting');
    expect(waiting.json.runs.map((r) => r.id)).toEqual(['waits']);
  });

  it('lists its parked items with token, expected answers and the command that answers each', async () => {
    const { status, json } = await getJson<Detail>(viewer.url, '/api/runs/waits');
    expect(status).toBe(200);
    expect(json.status).toBe('waiting');
    expect(json.parked.map((p) => [p.item, p.answers])).toEqual([
      ['1', ['approved', 'rejected']],
      ['2', ['approved', 'rejected']],
    ]);
    const first = json.parked[0];
    expect(first?.command).toBe(
      `switchyard answer waits ${first?.token} <approved|rejected> --store ${join(temp.path, 'runs.db')}`,
    );
    expect(json.items.map((i) => i.state)).toEqual(['waiting', 'waiting']);
    expect(json.timelines['1']?.at(-1)).toMatchObject({ kind: 'await' });
    expect(json.timelines['1']?.at(-1)?.text).toContain(
      `waits for an answer at review (approved | rejected, token ${first?.token})`,
    );
  });

  it('keeps its live stream open while it waits, and follows it to its end once answered', async () => {
    const stream = openEvents(viewer.url, '/api/runs/waits/live');
    try {
      const ready = await stream.until((events) => events.some((e) => e.event === 'ready'));
      expect(ready.some((e) => e.event === 'end')).toBe(false);
      const { json } = await getJson<Detail>(viewer.url, '/api/runs/waits');
      const d = dispatcher();
      for (const p of json.parked) await d.answer({ runId: 'waits', token: p.token, output: 'approved' });
      const result = await d.resume('waits', { whenParked: 'stop' });
      expect(result.status).toBe('completed');
      const events = await stream.until((all) => all.some((e) => e.event === 'end'), 60_000);
      const bodies = events.filter((e) => e.event === 'events').flatMap((e) => JSON.parse(e.data).events);
      expect(bodies.filter((b: { type: string }) => b.type === 'await.answered')).toHaveLength(2);
      expect(JSON.parse(events.find((e) => e.event === 'end')?.data ?? '{}')).toEqual({
        status: 'completed',
      });
      const after = await getJson<Detail>(viewer.url, '/api/runs/waits');
      expect(after.json.parked).toEqual([]);
      expect(after.json.timelines['1']?.map((e) => e.text)).toContainEqual(
        expect.stringMatching(/^answered approved at review after /u),
      );
    } finally {
      stream.close();
    }
  });
});
