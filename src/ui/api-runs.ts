/**
 * The run endpoints: a page of runs (newest first, filtered by status and document, one cursor at a time),
 * one run as its page shows it, and a server-sent event stream that pushes a run's new events while it goes on.
 */
import { stream, streamSSE } from 'hono/streaming';
import type { AnswerCommandContext } from '../cli/parked.ts';
import { runRow } from '../cli/runs/views.ts';
import { isSwitchyardError } from '../errors.ts';
import type { RunStatus, RunStore } from '../store/types.ts';
import type { ViewerContext, ViewerHono } from './env.ts';
import { followRun } from './live-run.ts';
import { runDetail } from './run-detail.ts';
import { endQuietly } from './sse.ts';
import type { StoreAccess } from './store-access.ts';

const STATUSES: readonly RunStatus[] = ['running', 'waiting', 'completed', 'failed', 'aborted'];

/** Runs per page when the request does not say. */
export const DEFAULT_RUNS_PAGE = 50;
const MAX_RUNS_PAGE = 200;

/** How the run endpoints read the clock and how often a live stream polls the store. */
export interface RunApiOptions {
  /** Wall time in ms; default `Date.now`. */
  readonly now?: () => number;
  /** How often a live stream looks for new events; default 250 ms. */
  readonly pollMs?: number;
  /** Where the commands that answer parked items find the store; default the current folder's. */
  readonly answering?: AnswerCommandContext;
}

/** A JSON error the page shows as one line. */
function problem(c: ViewerContext, status: 400 | 404 | 503, code: string, message: string): Response {
  return c.json({ error: { code, message } }, status);
}

/**
 * Runs `use` on the store as it is on disk now, or answers 503 with why the store cannot be read. A
 * streamed answer holds the store again for as long as it streams.
 */
async function withStore(
  c: ViewerContext,
  access: StoreAccess,
  use: (store: RunStore) => Promise<Response>,
): Promise<Response> {
  const state = await access.hold();
  if (!state.ok) return problem(c, 503, state.code, state.message);
  try {
    return await use(state.store);
  } catch (error) {
    if (!isSwitchyardError(error)) throw error;
    return problem(c, error.code === 'E_USAGE' ? 400 : 503, error.code, error.message);
  } finally {
    state.release();
  }
}

function statusesOf(text: string | undefined): RunStatus[] | string {
  if (text === undefined || text === '') return [...STATUSES];
  const wanted: RunStatus[] = [];
  for (const part of text.split(',')) {
    const found = STATUSES.find((s) => s === part);
    if (found === undefined) return `status '${part}' is not one of ${STATUSES.join(', ')}`;
    wanted.push(found);
  }
  return wanted;
}

function limitOf(text: string | undefined): number | string {
  if (text === undefined || text === '') return DEFAULT_RUNS_PAGE;
  const n = Number(text);
  if (!/^\d+$/u.test(text) || n < 1 || n > MAX_RUNS_PAGE)
    return `limit must be a whole number from 1 to ${MAX_RUNS_PAGE}`;
  return n;
}

/**
 * Adds `GET /api/runs`, `GET /api/runs/:id` and `GET /api/runs/:id/live` to `app`.
 * @example
 * addRunRoutes(app, storeAccess(path, shown));
 */
export function addRunRoutes(app: ViewerHono, access: StoreAccess, options: RunApiOptions = {}): void {
  const now = options.now ?? Date.now;
  const pollMs = options.pollMs ?? 250;

  app.get('/api/runs', (c) =>
    withStore(c, access, async (store) => {
      const status = statusesOf(c.req.query('status'));
      if (typeof status === 'string') return problem(c, 400, 'E_USAGE', status);
      const limit = limitOf(c.req.query('limit'));
      if (typeof limit === 'string') return problem(c, 400, 'E_USAGE', limit);
      const dag = c.req.query('dag');
      const cursor = c.req.query('cursor');
      const page = await store.listRuns({
        status,
        limit,
        ...(dag === undefined || dag === '' ? {} : { dag }),
        ...(cursor === undefined || cursor === '' ? {} : { cursor }),
      });
      return c.json({
        store: access.shown,
        runs: page.runs.map(runRow),
        ...(page.next === undefined ? {} : { next: page.next }),
      });
    }),
  );

  app.get('/api/runs/:id', (c) =>
    withStore(c, access, async (store) => {
      const id = c.req.param('id');
      const run = await store.getRun(id);
      if (run === undefined) {
        return problem(c, 404, 'E_RESUME_UNKNOWN_RUN', `no run '${id}' in ${access.shown}`);
      }
      return c.json(await runDetail(store, run, now(), options.answering));
    }),
  );

  app.get('/api/runs/:id/events', (c) =>
    withStore(c, access, async (store) => {
      const id = c.req.param('id');
      if ((await store.getRun(id)) === undefined) {
        return problem(c, 404, 'E_RESUME_UNKNOWN_RUN', `no run '${id}' in ${access.shown}`);
      }
      // The lines `switchyard runs events` prints, page by page from the store; plain text, so a browser shows it.
      c.header('Content-Type', 'text/plain; charset=utf-8');
      return stream(c, async (out) => {
        const held = await access.hold();
        if (!held.ok) return;
        try {
          for await (const event of held.store.streamEvents(id)) {
            await out.write(`${JSON.stringify(event.body)}\n`);
          }
        } finally {
          held.release();
        }
      });
    }),
  );

  app.get('/api/runs/:id/live', (c) =>
    withStore(c, access, async (store) => {
      const id = c.req.param('id');
      if ((await store.getRun(id)) === undefined) {
        return problem(c, 404, 'E_RESUME_UNKNOWN_RUN', `no run '${id}' in ${access.shown}`);
      }
      const given = Number(c.req.query('after'));
      const after = Number.isSafeInteger(given) ? given : undefined;
      return streamSSE(
        c,
        (stream) => followRun(stream, { access, runId: id, after, now, pollMs }),
        endQuietly,
      );
    }),
  );
}
