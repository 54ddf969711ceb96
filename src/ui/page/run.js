// One run's page: its path drawn over its DAG, its items with where each is or ended, and each item's
// timeline. While the run goes on, the viewer pushes its new events (server-sent events) and the page
// updates in place; a wait counts down on the server's clock.

import { encodePath, getJson } from './api.js';
import { drawDiagram, loadMermaid } from './diagram.js';
import { badge, fill, h, link, message } from './dom.js';
import { duration, when } from './format.js';
import { itemsTable, timelines } from './run-items.js';

// How many times (every 250 ms) a run not found yet is asked for again before the page says so.
const RECORD_TRIES = 20;

/** Fills the facts list of a run. */
function facts(detail, documentPath) {
  const row = (term, ...value) => [h('dt', {}, term), h('dd', {}, ...value)];
  return h(
    'dl',
    { class: 'facts' },
    row(
      'Document',
      documentPath
        ? link(`/documents/${encodePath(documentPath)}`, detail.dagName ?? detail.dag.iri)
        : (detail.dagName ?? ''),
      ' ',
      h('code', {}, detail.dag.iri),
    ),
    row('Hash', h('code', {}, detail.dag.hash.slice(0, 12))),
    row('Started', when(detail.createdAt)),
    detail.finishedAt
      ? row('Ended', when(detail.finishedAt), ` after ${duration(detail.durationMs)}`)
      : row('Last change', when(detail.updatedAt)),
    detail.lease
      ? row(
          'Lease',
          `pid ${detail.lease.pid} on ${detail.lease.host}, ${detail.lease.live ? 'live' : 'expired'}`,
        )
      : [],
    row('Engine', detail.engineVersion),
    row(
      'Events',
      h('a', { href: `/api/runs/${encodeURIComponent(detail.id)}/events` }, 'as JSONL'),
      ' (what `switchyard runs events` prints)',
    ),
    row('Input', h('details', {}, h('summary', {}, 'show'), h('pre', { class: 'input' }, detail.input))),
  );
}

/** The run page for run `id`. Resolves once first drawn; keeps itself up to date while the run goes on. */
export async function runPage(main, id) {
  // Mermaid is a few megabytes of modules: fetched while the run is read, not after.
  void loadMermaid().catch(() => undefined);
  let answer = await getJson(`/api/runs/${encodeURIComponent(id)}`);
  // `switchyard run` prints the page's URL as the run starts, a moment before its record is committed.
  for (let tries = 0; !answer.ok && answer.status === 404 && tries < RECORD_TRIES; tries++) {
    fill(main, h('h1', {}, `Run ${id}`), message('note', 'Waiting for the run to be recorded…'));
    await new Promise((resolve) => setTimeout(resolve, 250));
    if (window.location.pathname !== `/runs/${encodeURIComponent(id)}`) return;
    answer = await getJson(`/api/runs/${encodeURIComponent(id)}`);
  }
  if (!answer.ok) {
    return fill(
      main,
      h('p', { class: 'crumbs' }, link('/runs', 'Runs')),
      h('h1', {}, `Run ${id}`),
      message('error', answer.message),
    );
  }
  const docs = await getJson('/api/documents');
  const byIri = new Map(docs.ok ? docs.data.documents.filter((d) => d.id).map((d) => [d.id, d.path]) : []);

  const title = h('h1', { id: 'run-title' });
  const live = h('p', { id: 'live', class: 'live', role: 'status' });
  const factList = h('div');
  const diagram = h('div', { class: 'diagram', id: 'diagram' });
  const items = h('div', { id: 'items' });
  const timeline = h('div', { id: 'timelines' });
  fill(
    main,
    h('p', { class: 'crumbs' }, link('/runs', 'Runs'), ' / ', h('code', {}, id)),
    title,
    live,
    factList,
    h('section', { 'aria-labelledby': 'path-title' }, h('h2', { id: 'path-title' }, 'Path taken'), diagram),
    h('section', { 'aria-labelledby': 'items-title' }, h('h2', { id: 'items-title' }, 'Items'), items),
    h(
      'section',
      { 'aria-labelledby': 'timeline-title' },
      h('h2', { id: 'timeline-title' }, 'Timelines'),
      timeline,
    ),
  );

  let drawn = '';
  let clockOffset = 0;
  const show = async (detail) => {
    clockOffset = detail.serverNow - Date.now();
    fill(title, `Run ${detail.dagName ? `of ${detail.dagName}` : ''} `, badge(detail.status));
    main.dataset.status = detail.status;
    fill(factList, facts(detail, byIri.get(detail.dag.iri)));
    fill(items, itemsTable(detail));
    fill(timeline, timelines(detail, timeline));
    if (!detail.mermaid) fill(diagram, message('note', 'This run recorded no document to draw.'));
    else if (detail.mermaid.light !== drawn) {
      drawn = detail.mermaid.light;
      await drawDiagram(diagram, detail.mermaid, `Path of run ${detail.id}`);
    }
  };
  await show(answer.data);

  // Waits count down between updates.
  const ticker = setInterval(() => {
    if (!main.isConnected || !document.body.contains(items)) return clearInterval(ticker);
    for (const el of items.querySelectorAll('[data-until]')) {
      const left = Number(el.dataset.until) - (Date.now() + clockOffset);
      el.textContent =
        left > 0 ? `${duration(left)} left (${el.dataset.reason})` : `ending (${el.dataset.reason})`;
    }
  }, 200);

  if (answer.data.status !== 'running') return;
  fill(live, 'Live: this page updates as the run goes on.');
  let refreshing = false;
  let again = false;
  const refresh = async () => {
    if (refreshing) {
      again = true;
      return;
    }
    refreshing = true;
    do {
      again = false;
      const next = await getJson(`/api/runs/${encodeURIComponent(id)}`);
      if (next.ok && document.body.contains(items)) await show(next.data);
    } while (again);
    refreshing = false;
  };
  const after = answer.data.lastSeq ?? -1;
  const source = new EventSource(`/api/runs/${encodeURIComponent(id)}/live?after=${after}`);
  main.closeLive = () => source.close();
  source.addEventListener('events', () => void refresh());
  source.addEventListener('end', async (e) => {
    source.close();
    await refresh();
    const { status } = JSON.parse(e.data);
    fill(live, `The run ended: ${status}.`);
  });
  source.addEventListener('error', () => {
    if (source.readyState === EventSource.CLOSED) fill(live, 'Live updates stopped: reload to try again.');
  });
}
