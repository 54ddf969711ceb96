// The page's router: plain links, history, and the live re-check of documents changed on disk.

import { getJson, getMeta } from './api.js';
import { fill, message } from './dom.js';

// Each page's module is fetched when first shown, so a first load fetches only what its page needs.
const documents = () => import('./documents.js');
const runs = () => import('./runs.js');
const run = () => import('./run.js');

const main = document.getElementById('main');
let current = { section: '', key: '' };

/** The query of the first page of runs: the filters of the page's URL. */
function runsQuery(params) {
  const query = new URLSearchParams();
  for (const key of ['status', 'dag']) if (params.get(key)) query.set(key, params.get(key));
  return query.toString();
}

/** Which page a path shows. */
function routeOf(url) {
  const path = url.pathname;
  if (path === '/')
    return {
      section: 'documents',
      key: '/',
      show: async () => {
        // Asked for while the page's module loads, not after.
        const list = getJson('/api/documents');
        return (await documents()).documentsPage(main, list);
      },
    };
  if (path.startsWith('/documents/')) {
    const doc = path.slice('/documents/'.length).split('/').map(decodeURIComponent).join('/');
    return {
      section: 'documents',
      key: path,
      title: doc,
      show: async () => (await documents()).documentPage(main, doc),
    };
  }
  if (path === '/runs')
    return {
      section: 'runs',
      key: path + url.search,
      title: 'Runs',
      show: async () => {
        // Asked for while the page's module loads, not after.
        const first = getJson(`/api/runs?${runsQuery(url.searchParams)}`);
        const list = getJson('/api/documents');
        return (await runs()).runsPage(main, url.searchParams, navigate, { first, list });
      },
    };
  if (path.startsWith('/runs/')) {
    const id = decodeURIComponent(path.slice('/runs/'.length));
    return {
      section: 'runs',
      key: path,
      title: `Run ${id.slice(0, 8)}`,
      show: async () => (await run()).runPage(main, id),
    };
  }
  return { section: '', key: path, show: () => fill(main, message('error', 'No such page.')) };
}

/** Shows the page of the current URL; `focus` moves the focus to it, as a page load would. */
async function render({ focus = true } = {}) {
  main.closeLive?.();
  main.closeLive = undefined;
  const route = routeOf(new URL(window.location.href));
  current = route;
  document.title = route.title ? `${route.title} · Switchyard` : 'Switchyard';
  for (const a of document.querySelectorAll('nav a')) {
    if (a.dataset.section === route.section) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  main.dataset.ready = 'false';
  await route.show();
  main.dataset.ready = 'true';
  // The time the first page was ready, for the load benchmark (Navigation Timing's clock).
  if (performance.getEntriesByName('switchyard:ready').length === 0) performance.mark('switchyard:ready');
  if (focus) main.focus({ preventScroll: true });
}

/** Goes to `href` inside the page. */
export function navigate(href, options) {
  window.history.pushState({}, '', href);
  void render(options);
}

document.addEventListener('click', (event) => {
  const a = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (
    !a ||
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey
  )
    return;
  const url = new URL(a.href, window.location.href);
  if (
    url.origin !== window.location.origin ||
    a.target ||
    url.pathname.startsWith('/api/') ||
    url.pathname.startsWith('/assets/')
  )
    return;
  if (url.pathname === window.location.pathname && url.hash) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
});
window.addEventListener('popstate', () => void render());

// A document changed on disk: the documents pages check and draw it again, keeping the reader's place.
// The same stream tells whether the viewer is still there: it drops when `switchyard ui` stops.
const changes = new EventSource('/api/documents-live');
const viewerState = document.getElementById('viewer-state');
changes.addEventListener('changed', () => {
  if (current.section === 'documents') void render({ focus: false });
});
changes.addEventListener('error', () => {
  if (!viewerState.hidden) return;
  viewerState.textContent =
    'The viewer has stopped: this page no longer updates. Start `switchyard ui` again and it picks up where it was.';
  viewerState.hidden = false;
  document.body.dataset.viewer = 'stopped';
});
changes.addEventListener('ready', () => {
  if (viewerState.hidden) return;
  viewerState.hidden = true;
  document.body.dataset.viewer = 'running';
  // Back after a stop: what the page shows may have changed meanwhile.
  void render({ focus: false });
});

void getMeta().then((meta) => {
  if (!meta.ok) return;
  const m = meta.data;
  document.getElementById('where').textContent = `${m.folder} · ${m.store} · read-only · v${m.version}`;
});
await render({ focus: false });
