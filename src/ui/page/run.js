// One run's page: its path drawn over its DAG, its items with where each is or ended, and each item's
// timeline. While the run goes on, the viewer pushes its new events (server-sent events) and the page
// updates in place; a wait counts down on the server's clock.

import { encodePath, getJson, getMeta } from './api.js';
import { drawDiagram, loadMermaid } from './diagram.js';
import { badge, fill, h, link, message } from './dom.js';
import { duration, stamp, when } from './format.js';
import { parkedList } from './parked.js';
import { gatesList, itemsTable, timelines } from './run-items.js';
import { tooLargeNote } from './too-large.js';

// `switchyard run` prints a run's URL a moment before it commits the run: a page that finds no such run
// says so at once, and looks again this many times (every 250 ms) in case it is being recorded.
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

/** Whether the page still shows run `id` (the reader may have gone elsewhere meanwhile). */
function stillOn(main, id) {
  return main.isConnected && window.location.pathname === `/runs/${encodeURIComponent(id)}`;
}

/** Looks for run `id` a few more times, and draws its page if it turns up while the reader stays. */
async function lookAgain(main, id) {
  for (let tries = 0; tries < RECORD_TRIES; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    if (!stillOn(main, id)) return;
    const answer = await getJson(`/api/runs/${encodeURIComponent(id)}`);
    if (answer.ok && stillOn(main, id)) return drawRun(main, id, answer.data);
    if (answer.status !== 404) return;
  }
}

/** The run page for run `id`. Resolves once first drawn; keeps itself up to date while the run goes on. */
export async function runPage(main, id) {
  // Mermaid is a few megabytes of modules: fetched while the run is read, not after.
  void loadMermaid().catch(() => undefined);
  const answer = await getJson(`/api/runs/${encodeURIComponent(id)}`);
  if (answer.ok) return drawRun(main, id, answer.data);
  fill(
    main,
    h('p', { class: 'crumbs' }, link('/runs', 'Runs')),
    h('h1', {}, `Run ${id}`),
    message('error', answer.message),
  );
  if (answer.status === 404) void lookAgain(main, id);
}

/** The live line of a run that is not moving on: aborted (resumable), or stalled with its lease expired. */
function stillLine(detail) {
  if (detail.stalled) {
    return `No process is moving this run on: its lease expired at ${stamp(detail.lease?.expiresAt)}. \`switchyard resume ${detail.id}\` goes on from its checkpoints.`;
  }
  if (detail.status === 'waiting') {
    return 'Waiting for answers: no process holds the run until one is given with the command shown for each item below. This page updates when it moves on.';
  }
  if (detail.status === 'aborted') {
    return `The run was aborted. \`switchyard resume ${detail.id}\` goes on from where each item stood.`;
  }
  return '';
}

/** The `switchyard render --run` command line that draws the path of a run over its document. */
async function runRenderCommand(detail, byIri) {
  const meta = await getMeta();
  const path = byIri.get(detail.dag.iri);
  const folder = meta.ok ? meta.data.folder : '.';
  const file = path === undefined ? '<document>' : folder === '.' ? path : `${folder}/${path}`;
  const store = meta.ok ? ` --store ${meta.data.store}` : '';
  return `switchyard render ${file} --run ${detail.id}${store} -o run.svg`;
}

/** Draws run `id` from its first answer, and keeps it up to date while the run goes on. */
async function drawRun(main, id, first) {
  const docs = await getJson('/api/documents');
  const byIri = new Map(docs.ok ? docs.data.documents.filter((d) => d.id).map((d) => [d.id, d.path]) : []);

  const title = h('h1', { id: 'run-title' });
  const live = h('p', { id: 'live', class: 'live', role: 'status' });
  const factList = h('div');
  const diagram = h('div', { class: 'diagram', id: 'diagram' });
  const items = h('div', { id: 'items' });
  const gates = h('div', { id: 'gates' });
  const gateSection = h(
    'section',
    { 'aria-labelledby': 'gates-title', hidden: true },
    h('h2', { id: 'gates-title' }, 'Gates'),
    gates,
  );
  const parked = h('div', { id: 'parked' });
  const parkedSection = h(
    'section',
    { 'aria-labelledby': 'parked-title', hidden: true },
    h('h2', { id: 'parked-title' }, 'Waiting for an answer'),
    parked,
  );
  const timeline = h('div', { id: 'timelines' });
  fill(
    main,
    h('p', { class: 'crumbs' }, link('/runs', 'Runs'), ' / ', h('code', {}, id)),
    title,
    live,
    factList,
    h('section', { 'aria-labelledby': 'path-title' }, h('h2', { id: 'path-title' }, 'Path taken'), diagram),
    parkedSection,
    h('section', { 'aria-labelledby': 'items-title' }, h('h2', { id: 'items-title' }, 'Items'), items),
    gateSection,
    h(
      'section',
      { 'aria-labelledby': 'timeline-title' },
      h('h2', { id: 'timeline-title' }, 'Timelines'),
      timeline,
    ),
  );

  let drawn = '';
  let clockOffset = 0;
  let state = first.status;
  const show = async (detail) => {
    clockOffset = detail.serverNow - Date.now();
    state = detail.stalled ? 'stalled' : detail.status;
    fill(title, `Run ${detail.dagName ? `of ${detail.dagName}` : ''} `, badge(state));
    if (state === 'running') fill(live, 'Live: this page updates as the run goes on.');
    else if (live.dataset.ended !== 'true') fill(live, stillLine(detail));
    main.dataset.status = detail.status;
    fill(factList, facts(detail, byIri.get(detail.dag.iri)));
    const parkedItems = parkedList(detail);
    parkedSection.hidden = parkedItems === null;
    fill(parked, parkedItems);
    fill(items, itemsTable(detail));
    // Open gates stay open across updates, like timelines.
    const gateList = gatesList(detail);
    gateSection.hidden = gateList === null;
    if (gateList !== null) {
      const open = new Set([...gates.querySelectorAll('details[open]')].map((d) => d.dataset.gate));
      fill(gates, gateList);
      for (const d of gates.querySelectorAll('details')) if (open.has(d.dataset.gate)) d.open = true;
    }
    fill(timeline, timelines(detail, timeline));
    if (detail.diagramTooLarge) {
      if (drawn !== 'too large') {
        drawn = 'too large';
        fill(diagram, tooLargeNote(detail.diagramTooLarge, await runRenderCommand(detail, byIri)));
      }
    } else if (!detail.mermaid) fill(diagram, message('note', 'This run recorded no document to draw.'));
    else if (detail.mermaid.light !== drawn) {
      drawn = detail.mermaid.light;
      await drawDiagram(diagram, detail.mermaid, `Path of run ${detail.id}`);
    }
  };
  await show(first);

  // Waits count down between updates.
  const ticker = setInterval(() => {
    if (!main.isConnected || !document.body.contains(items)) return clearInterval(ticker);
    for (const el of [...items.querySelectorAll('[data-until]'), ...gates.querySelectorAll('[data-until]')]) {
      const left = Number(el.dataset.until) - (Date.now() + clockOffset);
      el.textContent =
        left > 0 ? `${duration(left)} left (${el.dataset.reason})` : `ending (${el.dataset.reason})`;
    }
  }, 200);

  // A stalled run is followed too: `switchyard resume` may move it on while the page is open.
  // So is a run waiting for answers: an answer given elsewhere moves it on.
  if (first.status !== 'running' && first.status !== 'waiting') return;
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
  const after = first.lastSeq ?? -1;
  const source = new EventSource(`/api/runs/${encodeURIComponent(id)}/live?after=${after}`);
  main.closeLive = () => source.close();
  source.addEventListener('events', () => void refresh());
  source.addEventListener('changed', () => void refresh());
  source.addEventListener('end', async (e) => {
    source.close();
    await refresh();
    const { status, message: why } = JSON.parse(e.data);
    // An aborted run keeps the line that says how to resume it.
    if (why || status !== 'aborted') {
      live.dataset.ended = 'true';
      fill(live, why ?? `The run ended: ${status}.`);
    }
  });
  source.addEventListener('error', () => {
    if (source.readyState === EventSource.CLOSED) fill(live, 'Live updates stopped: reload to try again.');
    else fill(live, 'Live updates paused: the viewer is not answering. They go on once it is back.');
  });
  // Each connection starts with `ready`: after a pause, what the run did meanwhile is read again.
  let connected = false;
  source.addEventListener('ready', () => {
    if (connected) void refresh();
    connected = true;
    if (state === 'running') fill(live, 'Live: this page updates as the run goes on.');
  });
}
