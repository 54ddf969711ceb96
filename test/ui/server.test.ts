/**
 * The viewer's HTTP server, over real HTTP on 127.0.0.1: the document and run endpoints, paging, live
 * streams, the refusals of paths outside the served folder, a missing or bad store, and discovery.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { RunRecord } from '../../src/store/types.ts';
import { startViewer, type Viewer } from '../../src/ui/server.ts';
import { DAGS, ROOT, recordRuns, tempFolder } from './helpers.ts';
import { get, getJson, openEvents, readEvents } from './http.ts';

type Json = Record<string, unknown> & { error?: { code: string; message: string } };

function jsonldUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.jsonld'))
    .map((f) => f.split('\\').join('/'))
    .sort();
}

const temp = tempFolder();
const served = join(temp.path, 'dags');
const storePath = join(temp.path, 'store', 'runs.db');
let viewer: Viewer;
let runIds: string[];

beforeAll(async () => {
  cpSync(DAGS, served, { recursive: true });
  cpSync(join(ROOT, 'test/fixtures/invalid/E_UNBOUNDED_LOOP.jsonld'), join(served, 'broken/loop.jsonld'));
  writeFileSync(join(served, 'broken/not-json.jsonld'), '{ "@context": ');
  writeFileSync(join(temp.path, 'secret.jsonld'), '{"secret": true}');
  for (const skipped of ['node_modules/pkg', '.cache']) {
    mkdirSync(join(served, skipped), { recursive: true });
    cpSync(join(DAGS, 'review.jsonld'), join(served, skipped, 'hidden.jsonld'));
  }
  symlinkSync(join(temp.path, 'secret.jsonld'), join(served, 'leak.jsonld'));
  symlinkSync(join(served, 'review.jsonld'), join(served, 'broken/alias.jsonld'));
  runIds = await recordRuns(storePath, 120);
  viewer = await startViewer({
    dags: served,
    store: storePath,
    port: 0,
    cwd: temp.path,
    runs: { pollMs: 50 },
  });
}, 60_000);

afterAll(async () => {
  await viewer?.close();
  temp.remove();
});

describe('documents', () => {
  it('lists every document of the folder, valid or not, with its verdict', async () => {
    const { status, json } = await getJson<{ documents: { path: string; valid: boolean; errors: number }[] }>(
      viewer.url,
      '/api/documents',
    );
    expect(status).toBe(200);
    const paths = json.documents.map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(jsonldUnder(DAGS)));
    const broken = json.documents.filter((d) => !d.valid).map((d) => d.path);
    expect(broken).toEqual(expect.arrayContaining(['broken/loop.jsonld', 'broken/not-json.jsonld']));
    expect(json.documents.find((d) => d.path === 'compose-validate.jsonld')?.valid).toBe(true);
    expect(paths.filter((p) => p.includes('hidden'))).toEqual([]);
  });

  it("gives a document's placements and loops as `inspect --json` computes them, and its diagram", async () => {
    const { json } = await getJson<{
      placements: { key: string; worstCase: string }[];
      loops: { budget: string; max: number }[];
      worstCasePerItem: string;
      mermaid: { light: string; dark: string };
    }>(viewer.url, '/api/documents/compose-validate.jsonld');
    const out: string[] = [];
    const io = { out: (s: string) => out.push(s), err: () => {}, cwd: served, isTTY: false };
    expect(await main(['node', 'switchyard', 'inspect', 'compose-validate.jsonld', '--json'], io)).toBe(0);
    const inspected = JSON.parse(out.join('')) as {
      placements: { key: string; worstCaseExecutions: number }[];
      worstCaseExecutionsPerItem: number;
      loops: { budget: string; max: number; routes: unknown[] }[];
    };
    expect(json.placements.map((p) => [p.key, p.worstCase])).toEqual(
      inspected.placements.map((p) => [p.key, String(p.worstCaseExecutions)]),
    );
    expect(json.worstCasePerItem).toBe(String(inspected.worstCaseExecutionsPerItem));
    expect(json.loops.map((l) => [l.budget, l.max])).toEqual(
      inspected.loops.filter((l) => l.routes.length > 0).map((l) => [l.budget, l.max]),
    );
    // The very text `switchyard render` draws, in each theme.
    for (const theme of ['light', 'dark'] as const) {
      const file = join(temp.path, `render-${theme}.mmd`);
      const args = ['render', 'compose-validate.jsonld', '-o', file, '--theme', theme];
      expect(await main(['node', 'switchyard', ...args], io)).toBe(0);
      expect(json.mermaid[theme]).toBe(readFileSync(file, 'utf8'));
    }
  });

  it('shows the problems of a document that fails, at their line and column, with the cycle named', async () => {
    const { status, json } = await getJson<{
      valid: boolean;
      problems: { code: string; line?: number; cycle?: string[] }[];
    }>(viewer.url, '/api/documents/broken/loop.jsonld');
    expect(status).toBe(200);
    expect(json.valid).toBe(false);
    const loop = json.problems.find((p) => p.code === 'E_UNBOUNDED_LOOP');
    expect(loop?.cycle).toEqual(['check', 'start']);
    expect(loop?.line).toBeGreaterThan(0);
    const bad = await getJson<{ valid: boolean; problems: { code: string; line?: number }[] }>(
      viewer.url,
      '/api/documents/broken/not-json.jsonld',
    );
    expect(bad.json.valid).toBe(false);
    expect(bad.json.problems[0]?.line).toBeGreaterThan(0);
  });

  it('follows a symlink that stays inside the folder, and never reads one that leads out', async () => {
    const { status, json } = await getJson<{ id: string }>(viewer.url, '/api/documents/broken/alias.jsonld');
    expect(status).toBe(200);
    expect(json.id).toBe('urn:switchyard:dag:review');
    const list = await get(viewer.url, '/api/documents');
    expect(list.body).not.toContain('leak.jsonld');
  });

  it('tells live listeners when a document changes on disk, and checks it again', async () => {
    const file = join(served, 'checkout.jsonld');
    const stream = openEvents(viewer.url, '/api/documents-live');
    // Written once the stream is open, so the change cannot come before the listener.
    await stream.until((events) => events.some((e) => e.event === 'ready'));
    writeFileSync(file, '{ "@context": "https://w3id.org/switchyard/context/v1", "placements": [ }');
    const events = await stream.until((all) => all.some((e) => e.event === 'changed')).finally(stream.close);
    const changed = events.find((e) => e.event === 'changed');
    expect(JSON.parse(changed?.data ?? '{}').paths).toContain('checkout.jsonld');
    const { json } = await getJson<{ valid: boolean }>(viewer.url, '/api/documents/checkout.jsonld');
    expect(json.valid).toBe(false);
  });
});

describe('folders created while the viewer runs', () => {
  it('lists a document in a new folder, and watches that folder too', async () => {
    mkdirSync(join(served, 'later'));
    cpSync(join(DAGS, 'review.jsonld'), join(served, 'later', 'review-copy.jsonld'));
    const listed = async () =>
      (await getJson<{ documents: { path: string }[] }>(viewer.url, '/api/documents')).json.documents.map(
        (d) => d.path,
      );
    await expect.poll(listed, { timeout: 20_000, interval: 100 }).toContain('later/review-copy.jsonld');
    const stream = openEvents(viewer.url, '/api/documents-live');
    await stream.until((events) => events.some((e) => e.event === 'ready'));
    writeFileSync(join(served, 'later', 'review-copy.jsonld'), '{}');
    await stream
      .until((events) =>
        events.some((e) => e.event === 'changed' && e.data.includes('later/review-copy.jsonld')),
      )
      .finally(stream.close);
    const { json } = await getJson<{ valid: boolean }>(viewer.url, '/api/documents/later/review-copy.jsonld');
    expect(json.valid).toBe(false);
  });
});

describe('runs', () => {
  it('pages the runs newest first with a cursor, never sending them all', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    const sizes: number[] = [];
    do {
      const { status, json } = await getJson<{ runs: { id: string }[]; next?: string }>(
        viewer.url,
        `/api/runs?limit=50${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
      );
      expect(status).toBe(200);
      sizes.push(json.runs.length);
      seen.push(...json.runs.map((r) => r.id));
      cursor = json.next;
    } while (cursor !== undefined);
    expect(sizes).toEqual([50, 50, 20]);
    expect(seen).toEqual([...runIds].reverse());
    const first = await getJson<{ runs: unknown[] }>(viewer.url, '/api/runs');
    expect(first.json.runs).toHaveLength(50);
  });

  it('filters by status and by document, and refuses a bad filter or cursor with one line', async () => {
    const done = await getJson<{ runs: { status: string }[] }>(
      viewer.url,
      '/api/runs?status=completed&limit=200',
    );
    expect(done.json.runs).toHaveLength(120);
    const failed = await getJson<{ runs: unknown[] }>(viewer.url, '/api/runs?status=failed,aborted');
    expect(failed.json.runs).toHaveLength(0);
    const other = await getJson<{ runs: unknown[] }>(viewer.url, '/api/runs?dag=urn:switchyard:dag:review');
    expect(other.json.runs).toHaveLength(0);
    const mine = await getJson<{ runs: unknown[] }>(
      viewer.url,
      `/api/runs?dag=${encodeURIComponent('urn:switchyard:dag:compose-validate')}&limit=7`,
    );
    expect(mine.json.runs).toHaveLength(7);
    for (const path of ['/api/runs?status=sleeping', '/api/runs?limit=0', '/api/runs?cursor=nonsense']) {
      const { status, json } = await getJson<Json>(viewer.url, path);
      expect(status).toBe(400);
      expect(json.error?.message).toMatch(/^[^\n]+$/u);
    }
  });

  it("gives a run's items, timelines and the path drawn over its diagram", async () => {
    const id = runIds[2] as string;
    const { json } = await getJson<{
      status: string;
      items: { id: string; status: string; retries: number }[];
      timelines: Record<string, { kind: string; text: string }[]>;
      mermaid: { light: string };
    }>(viewer.url, `/api/runs/${id}`);
    expect(json.status).toBe('completed');
    expect(json.items[0]?.retries).toBe(2);
    expect(json.timelines['1']?.filter((e) => e.kind === 'retry')).toHaveLength(2);
    expect(json.timelines['1']?.at(-1)?.text).toBe('ended at done (completed)');
    expect(json.mermaid.light).toMatch(/invalid · retry · compose ≤ 3 · ×2/u);
    // The overlay `switchyard render --run` draws.
    const file = join(temp.path, 'run.mmd');
    const io = { out: () => {}, err: () => {}, cwd: served, isTTY: false };
    const args = ['render', 'compose-validate.jsonld', '--run', id, '--store', storePath, '-o', file];
    expect(await main(['node', 'switchyard', ...args], io)).toBe(0);
    expect(json.mermaid.light).toBe(readFileSync(file, 'utf8'));
    // Its events, as `switchyard runs events` prints them.
    const lines: string[] = [];
    const eventsIo = { out: (line: string) => lines.push(line), err: () => {}, cwd: served, isTTY: false };
    expect(await main(['node', 'switchyard', 'runs', 'events', id, '--store', storePath], eventsIo)).toBe(0);
    const events = await get(viewer.url, `/api/runs/${id}/events`);
    expect(events.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(events.body).toBe(`${lines.join('\n')}\n`);
    expect(JSON.parse((await getJson<{ input: string }>(viewer.url, `/api/runs/${id}`)).json.input)).toEqual([
      { topic: 'topic 2', rejections: 2 },
    ]);
    const missing = await getJson<Json>(viewer.url, '/api/runs/no-such-run');
    expect(missing.status).toBe(404);
  });

  it('streams the events of a run in progress until it ends', async () => {
    const live = tempFolder();
    const path = join(live.path, 'runs.db');
    await recordRuns(path, 1);
    const second = await startViewer({
      dags: served,
      store: path,
      port: 0,
      announce: false,
      runs: { pollMs: 50 },
    });
    try {
      // A run that waits 2 s on a Retry-After, recorded by this process while the viewer reads the file.
      const { createDispatcher } = await import('../../src/runtime/dispatcher.ts');
      const { openSqliteStore } = await import('../../src/store/sqlite.ts');
      const { nodes } = await import('../../examples/compose-validate/nodes.ts');
      const { composeValidate } = await import('./helpers.ts');
      const store = await openSqliteStore(path);
      const runId = 'live-run';
      const running = createDispatcher({ nodes, store }).run(
        await composeValidate(),
        {},
        { items: [{ topic: 'whales', fail: '429', rejections: 0 }], runId },
      );
      // Recorded (running, or already ended on a slow machine): its stream sends every event and the end.
      await expect
        .poll(async () => (await getJson(second.url, `/api/runs/${runId}`)).status, { timeout: 20_000 })
        .toBe(200);
      const events = await readEvents(second.url, `/api/runs/${runId}/live`, (e) =>
        e.some((x) => x.event === 'end'),
      );
      await running;
      await store.close();
      const bodies = events
        .filter((e) => e.event === 'events')
        .flatMap((e) => (JSON.parse(e.data) as { events: { type: string; delaySource?: string }[] }).events);
      expect(bodies.some((b) => b.type === 'retry.scheduled' && b.delaySource === 'retry-after')).toBe(true);
      expect(bodies.at(-1)?.type).toBe('run.end');
      expect(JSON.parse(events.at(-1)?.data ?? '{}').status).toBe('completed');
    } finally {
      await second.close();
      live.remove();
    }
  }, 20_000);
});

describe('refusals', () => {
  it.each([
    '/api/documents/../../secret.jsonld',
    '/api/documents/%2e%2e/secret.jsonld',
    '/api/documents/%2E%2E%2Fsecret.jsonld',
    '/api/documents/..%2fsecret.jsonld',
    '/api/documents/%252e%252e/secret.jsonld',
    '/api/documents/..%5csecret.jsonld',
    '/documents/%2e%2e/secret.jsonld',
    '/documents/../secret.jsonld',
    '/assets/../../server.ts',
    '/assets/%2e%2e/server.ts',
    '/vendor/mermaid/%2e%2e/package.json',
  ])('refuses %s with a 400 and one line', async (path) => {
    const answer = await get(viewer.url, path);
    expect(answer.status).toBe(400);
    expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
    expect(answer.body).toContain('climbs out of the served folder');
    expect(answer.body).not.toContain('secret": true');
  });

  it.each([
    ['/api/documents/../../secret.jsonld', 400, {}],
    ['/api/../secret.jsonld', 400, {}],
    ['/api/%2e%2e/assets/app.js', 400, {}],
    ['/%61pi/documents/%2e%2e/secret.jsonld', 400, {}],
    ['/api/runs/..%2f..%2fsecret', 400, {}],
    ['/api/meta', 403, { host: 'attacker.example' }],
    ['/api/documents/leak.jsonld', 403, {}],
    ['/api/no-such-endpoint', 404, {}],
  ])('answers a refused API request %s with JSON and a code', async (path, status, headers) => {
    const answer = await get(viewer.url, path, headers);
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toMatch(/^application\/json/u);
    const body = JSON.parse(answer.body) as Json;
    expect(body.error?.code).toMatch(/^E_(REFUSED|NOT_FOUND)$/u);
    expect(body.error?.message).toMatch(/^[^\n]+$/u);
  });

  it('refuses a page path with a page, or with JSON when the request asks for JSON', async () => {
    const page = await get(viewer.url, '/documents/%2e%2e/secret.jsonld');
    expect(page.headers['content-type']).toMatch(/^text\/html/u);
    const asked = await get(viewer.url, '/documents/%2e%2e/secret.jsonld', { accept: 'application/json' });
    expect(asked.status).toBe(400);
    expect((JSON.parse(asked.body) as Json).error?.code).toBe('E_REFUSED');
  });

  it('refuses a symlink that leads out of the folder with a 403', async () => {
    for (const path of ['/api/documents/leak.jsonld', '/documents/leak.jsonld']) {
      const answer = await get(viewer.url, path);
      expect(answer.status).toBe(403);
      expect(answer.body).not.toContain('secret": true');
    }
  });

  it('answers only requests addressed to the host it listens on', async () => {
    const answer = await get(viewer.url, '/api/meta', { host: 'attacker.example' });
    expect(answer.status).toBe(403);
  });

  it('serves the page with a content security policy and nothing from outside', async () => {
    const page = await get(viewer.url, '/runs');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).not.toMatch(/https?:\/\//u);
    expect((await get(viewer.url, '/vendor/mermaid/mermaid.esm.min.mjs')).status).toBe(200);
    expect((await get(viewer.url, '/assets/app.js')).status).toBe(200);
  });
});

describe('the store', () => {
  it('says in one line that no runs are recorded when the store is missing, and finds it once created', async () => {
    const empty = tempFolder();
    const path = join(empty.path, 'runs.db');
    const alone = await startViewer({ dags: served, store: path, port: 0, cwd: empty.path, announce: false });
    try {
      const { status, json } = await getJson<Json>(alone.url, '/api/runs');
      expect(status).toBe(503);
      expect(json.error?.code).toBe('E_NO_RUNS');
      expect(json.error?.message).toContain('runs.db');
      const meta = await getJson<{ storeProblem?: { code: string } }>(alone.url, '/api/meta');
      expect(meta.json.storeProblem?.code).toBe('E_NO_RUNS');
      expect(existsSync(path)).toBe(false);
      await recordRuns(path, 1);
      const after = await getJson<{ runs: unknown[] }>(alone.url, '/api/runs');
      expect(after.status).toBe(200);
      expect(after.json.runs).toHaveLength(1);
    } finally {
      await alone.close();
      empty.remove();
    }
  });

  it('says what is wrong with a file that is not a store, and leaves it unchanged', async () => {
    const bad = tempFolder();
    const path = join(bad.path, 'runs.db');
    writeFileSync(path, 'not a database at all, just some text that is long enough to look like a file');
    const alone = await startViewer({ dags: served, store: path, port: 0, announce: false });
    try {
      const { status, json } = await getJson<Json>(alone.url, '/api/runs');
      expect(status).toBe(503);
      expect(json.error?.code).toMatch(/^E_STORE_/u);
      expect(json.error?.message).toMatch(/^[^\n]+$/u);
    } finally {
      await alone.close();
      bad.remove();
    }
  });
});

describe('a store file deleted or replaced while the viewer runs', () => {
  it('lets the old file go and reads the one now at the path', async () => {
    const folder = tempFolder();
    const path = join(folder.path, 'runs.db');
    const old = await recordRuns(path, 2);
    const alone = await startViewer({ dags: served, store: path, port: 0, announce: false });
    const listed = async () => {
      const { status, json } = await getJson<Json & { runs?: { id: string }[] }>(alone.url, '/api/runs');
      return status === 200 ? (json.runs ?? []).map((r) => r.id) : (json.error?.code ?? String(status));
    };
    try {
      expect(await listed()).toEqual([...old].reverse());
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
      expect(await listed()).toBe('E_NO_RUNS');
      expect((await getJson<Json>(alone.url, `/api/runs/${old[0]}`)).status).toBe(503);
      // A new store of that name: its runs, and none of the old ones.
      const fresh = await recordRuns(path, 1);
      expect(await listed()).toEqual(fresh);
      expect((await getJson<Json>(alone.url, `/api/runs/${old[0]}`)).status).toBe(404);
      // Another store renamed over it.
      const other = join(folder.path, 'other.db');
      const moved = await recordRuns(other, 3);
      renameSync(other, path);
      expect(await listed()).toEqual([...moved].reverse());
    } finally {
      await alone.close();
      folder.remove();
    }
  }, 30_000);

  it('ends the live stream of a run whose store file is replaced', async () => {
    const folder = tempFolder();
    const path = join(folder.path, 'runs.db');
    const [id] = await recordRuns(path, 1);
    const { openSqliteStore } = await import('../../src/store/sqlite.ts');
    const writer = await openSqliteStore(path);
    const run = await writer.getRun(id as string);
    await writer.commit([{ kind: 'run', run: { ...(run as RunRecord), id: 'open-run', status: 'running' } }]);
    await writer.close();
    const alone = await startViewer({
      dags: served,
      store: path,
      port: 0,
      announce: false,
      runs: { pollMs: 20 },
    });
    try {
      const stream = openEvents(alone.url, '/api/runs/open-run/live?after=-1');
      await stream.until((events) => events.some((e) => e.event === 'ready'));
      const other = join(folder.path, 'other.db');
      await recordRuns(other, 1);
      renameSync(other, path);
      const events = await stream.until((all) => all.some((e) => e.event === 'end'));
      const end = JSON.parse(events.find((e) => e.event === 'end')?.data ?? '{}') as Json;
      expect(end.status).toBe('unknown');
      expect(end.message).toMatch(/no longer in .*runs\.db/u);
    } finally {
      await alone.close();
      folder.remove();
    }
  }, 30_000);
});

describe('a locked store', () => {
  it('says in one line that another process holds the store locked', async () => {
    const locked = tempFolder();
    const path = join(locked.path, 'runs.db');
    await recordRuns(path, 1);
    const { default: Database } = await import('better-sqlite3');
    const holder = new Database(path);
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE');
    holder.exec('CREATE TABLE IF NOT EXISTS held (a)');
    const alone = await startViewer({ dags: served, store: path, port: 0, announce: false });
    try {
      const { status, json } = await getJson<Json>(alone.url, '/api/runs');
      expect(status).toBe(503);
      expect(json.error?.code).toBe('E_STORE_LOCKED');
      expect(json.error?.message).toMatch(/^[^\n]*is locked by another process[^\n]*$/u);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
      await alone.close();
      locked.remove();
    }
  });
});

describe('discovery', () => {
  it("writes the store's link beside it while it runs, so the command line can print run URLs", async () => {
    const { viewerFile, viewerUrl } = await import('../../src/ui/discovery.ts');
    const id = runIds[0] as string;
    expect(viewerUrl(storePath, id)).toBe(`${viewer.url}/runs/${id}`);
    expect(viewerUrl(join(temp.path, 'other.db'), id)).toBeUndefined();
    expect(relative(temp.path, viewerFile(storePath))).toBe(join('store', 'runs.db.ui.json'));
    const stale = tempFolder();
    try {
      const store = join(stale.path, 'runs.db');
      writeFileSync(
        viewerFile(store),
        JSON.stringify({ url: 'http://127.0.0.1:1', pid: 2 ** 22 + 1, store }),
      );
      expect(viewerUrl(store, id)).toBeUndefined();
      // The next viewer of that store replaces the stale link.
      const next = await startViewer({ dags: served, store, port: 0 });
      try {
        expect(viewerUrl(store, id)).toBe(`${next.url}/runs/${id}`);
      } finally {
        await next.close();
      }
      expect(existsSync(viewerFile(store))).toBe(false);
    } finally {
      stale.remove();
    }
  });

  it('keeps one link per store: two stores of one folder each link to their own viewer', async () => {
    const { viewerUrl } = await import('../../src/ui/discovery.ts');
    const folder = tempFolder();
    const [a, b] = [join(folder.path, 'a.db'), join(folder.path, 'b.db')];
    const first = await startViewer({ dags: served, store: a, port: 0 });
    const second = await startViewer({ dags: served, store: b, port: 0 });
    try {
      expect(viewerUrl(a, 'x')).toBe(`${first.url}/runs/x`);
      expect(viewerUrl(b, 'x')).toBe(`${second.url}/runs/x`);
      await second.close();
      expect(viewerUrl(a, 'x')).toBe(`${first.url}/runs/x`);
      expect(viewerUrl(b, 'x')).toBeUndefined();
    } finally {
      await first.close();
      await second.close();
      folder.remove();
    }
  });

  it('leaves the link to the viewer that served the store first; only that viewer removes it', async () => {
    const { viewerFile, viewerUrl } = await import('../../src/ui/discovery.ts');
    const folder = tempFolder();
    const store = join(folder.path, 'runs.db');
    const first = await startViewer({ dags: served, store, port: 0 });
    const second = await startViewer({ dags: served, store, port: 0 });
    try {
      expect(first.linkedTo).toBe(first.url);
      expect(second.linkedTo).toBe(first.url);
      expect(viewerUrl(store, 'x')).toBe(`${first.url}/runs/x`);
      // `switchyard ui` says so in one line.
      const { uiAction } = await import('../../src/ui/command.ts');
      const said: string[] = [];
      const io = { out: () => {}, err: (line: string) => said.push(line), cwd: folder.path, isTTY: false };
      await uiAction({ store, dags: served, port: '0' }, io, async () => {});
      expect(said).toEqual([
        `switchyard ui: the viewer at ${first.url}/ served this store first: \`switchyard run\` links its runs there`,
      ]);
      await second.close();
      expect(viewerUrl(store, 'x')).toBe(`${first.url}/runs/x`);
      await first.close();
      expect(existsSync(viewerFile(store))).toBe(false);
    } finally {
      await first.close();
      await second.close();
      folder.remove();
    }
  });
});
