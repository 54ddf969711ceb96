// The runs list: newest first, filtered by status and document, one page at a time (the next page is
// fetched with the cursor the last one gave, so a store of many runs never arrives whole).

import { getJson, getMeta } from './api.js';
import { badge, fill, h, link, message } from './dom.js';
import { duration, tail, when } from './format.js';

const STATUSES = ['running', 'waiting', 'completed', 'failed', 'aborted'];
// How often the first page of runs is read again.
const REFRESH_MS = 3000;

function runRow(run, names) {
  return h(
    'tr',
    {},
    h('td', {}, link(`/runs/${encodeURIComponent(run.id)}`, h('code', {}, run.id.slice(0, 8)))),
    h('td', {}, badge(run.status)),
    h('td', { title: run.dag }, names.get(run.dag) ?? tail(run.dag)),
    h('td', {}, when(run.createdAt)),
    h('td', { class: 'num' }, run.durationMs === undefined ? '' : duration(run.durationMs)),
    h('td', { class: 'num' }, run.items ?? ''),
  );
}

function filterForm(params, documents, onChange) {
  const status = h(
    'select',
    { id: 'filter-status', name: 'status', onchange: onChange },
    h('option', { value: '' }, 'any status'),
    STATUSES.map((s) => h('option', { value: s, selected: params.get('status') === s }, s)),
  );
  const dag = h(
    'select',
    { id: 'filter-dag', name: 'dag', onchange: onChange },
    h('option', { value: '' }, 'any document'),
    documents
      .filter((d) => d.id)
      .map((d) =>
        h('option', { value: d.id, selected: params.get('dag') === d.id }, `${d.name} (${d.path})`),
      ),
  );
  return h(
    'form',
    { class: 'filters', role: 'search', onsubmit: (e) => e.preventDefault() },
    h('label', { for: 'filter-status' }, 'Status '),
    status,
    h('label', { for: 'filter-dag' }, 'Document '),
    dag,
  );
}

/** The query of a page of runs: the filters of the page's URL, and the cursor of the page before. */
function pageQuery(params, cursor) {
  const query = new URLSearchParams();
  for (const key of ['status', 'dag']) if (params.get(key)) query.set(key, params.get(key));
  if (cursor) query.set('cursor', cursor);
  return query.toString();
}

/**
 * The runs page; `navigate` changes the URL through the router; `asked` holds the answers of the first page
 * of runs (`first`) and of the documents (`list`) when already asked for.
 */
export async function runsPage(main, params, navigate, asked = {}) {
  const firstPage = asked.first ?? getJson(`/api/runs?${pageQuery(params, undefined)}`);
  const [docs, meta] = await Promise.all([asked.list ?? getJson('/api/documents'), getMeta()]);
  const documents = docs.ok ? docs.data.documents : [];
  const names = new Map(documents.filter((d) => d.id).map((d) => [d.id, d.name]));
  const onChange = () => {
    const next = new URLSearchParams();
    const status = document.getElementById('filter-status').value;
    const dag = document.getElementById('filter-dag').value;
    if (status) next.set('status', status);
    if (dag) next.set('dag', dag);
    const query = next.toString();
    navigate(query === '' ? '/runs' : `/runs?${query}`, { focus: false });
  };
  const body = h('tbody', {});
  const more = h('button', { type: 'button', id: 'more', hidden: true }, 'Load more runs');
  const status = h('div', { id: 'runs-status' });
  const store = meta.ok ? meta.data.store : 'the store';
  fill(
    main,
    h('h1', {}, 'Runs'),
    h('p', { class: 'quiet' }, `Recorded in ${store}, newest first.`),
    filterForm(params, documents, onChange),
    status,
    h(
      'table',
      { class: 'list', id: 'runs' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'Run'),
          h('th', {}, 'Status'),
          h('th', {}, 'Document'),
          h('th', {}, 'Started'),
          h('th', { class: 'num' }, 'Took'),
          h('th', { class: 'num' }, 'Items'),
        ),
      ),
      body,
    ),
    more,
  );
  let cursor;
  let pending = firstPage;
  const load = async () => {
    more.disabled = true;
    const answer = await (pending ?? getJson(`/api/runs?${pageQuery(params, cursor)}`));
    pending = undefined;
    more.disabled = false;
    if (!answer.ok) {
      fill(status, message(answer.code === 'E_NO_RUNS' ? 'note' : 'error', answer.message));
      more.hidden = true;
      return;
    }
    body.append(...answer.data.runs.map((r) => runRow(r, names)));
    if (body.children.length === 0) fill(status, message('note', 'No runs match.'));
    cursor = answer.data.next;
    more.hidden = cursor === undefined;
  };
  let pages = 0;
  more.addEventListener('click', () => {
    pages += 1;
    void load();
  });
  await load();

  // New runs and status changes show up while the reader stays on the first page.
  const shownRows = () => [...body.querySelectorAll('tr')].map((tr) => tr.textContent).join('\n');
  const timer = setInterval(async () => {
    if (!body.isConnected) return clearInterval(timer);
    if (pages > 0 || document.activeElement === more) return;
    const answer = await getJson(`/api/runs?${pageQuery(params, undefined)}`);
    if (!body.isConnected) return;
    // The store was removed, replaced by a file that is not one, or locked: its old rows are not shown as if
    // they were still there. (A viewer that stopped is said once, above every page.)
    if (!answer.ok) {
      if (answer.code === 'E_OFFLINE') return;
      body.replaceChildren();
      fill(status, message(answer.code === 'E_NO_RUNS' ? 'note' : 'error', answer.message));
      cursor = undefined;
      more.hidden = true;
      return;
    }
    const rows = answer.data.runs.map((r) => runRow(r, names));
    const fresh = rows.map((tr) => tr.textContent).join('\n');
    if (fresh === shownRows() && status.childElementCount === 0) return;
    body.replaceChildren(...rows);
    fill(status, rows.length === 0 ? message('note', 'No runs match.') : null);
    cursor = answer.data.next;
    more.hidden = cursor === undefined;
  }, REFRESH_MS);
  main.closeLive = () => clearInterval(timer);
}
