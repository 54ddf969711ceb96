// The documents pages: every document of the served folder with its verdict, and one document with its
// problems (line and column), placements, loops and diagram. Both redraw when the files change on disk.

import { encodePath, getJson, getMeta } from './api.js';
import { badge, fill, h, link, message } from './dom.js';
import { duration } from './format.js';
import { tooLargeNote } from './too-large.js';

/** The list of documents; `list` is the answer of `/api/documents` when already asked for. */
export async function documentsPage(main, list = getJson('/api/documents')) {
  const answer = await list;
  if (!answer.ok) return fill(main, h('h1', {}, 'Documents'), message('error', answer.message));
  const { folder, documents } = answer.data;
  const rows = documents.map((d) =>
    h(
      'tr',
      {},
      h('td', {}, link(`/documents/${encodePath(d.path)}`, d.path)),
      h('td', {}, d.name ?? ''),
      h('td', {}, d.valid ? badge('valid') : badge('invalid')),
      h(
        'td',
        { class: 'num' },
        d.errors > 0
          ? `${d.errors} error${d.errors === 1 ? '' : 's'}`
          : d.warnings > 0
            ? `${d.warnings} warning${d.warnings === 1 ? '' : 's'}`
            : '',
      ),
    ),
  );
  fill(
    main,
    h('h1', {}, 'Documents'),
    h(
      'p',
      { class: 'quiet' },
      `${documents.length} document${documents.length === 1 ? '' : 's'} in ${folder}, checked as \`switchyard validate\` checks them.`,
    ),
    documents.length === 0
      ? message('note', `no .jsonld documents in ${folder}`)
      : h(
          'table',
          { class: 'list', id: 'documents' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', {}, 'File'),
              h('th', {}, 'Name'),
              h('th', {}, 'Verdict'),
              h('th', {}, 'Problems'),
            ),
          ),
          h('tbody', {}, rows),
        ),
  );
}

function problemList(problems) {
  if (problems.length === 0) return null;
  return h(
    'section',
    { 'aria-labelledby': 'problems-title' },
    h('h2', { id: 'problems-title' }, 'Problems'),
    h(
      'ul',
      { class: 'problems', id: 'problems' },
      problems.map((p) =>
        h(
          'li',
          { class: p.severity },
          h(
            'span',
            { class: 'where' },
            p.line === undefined ? '' : `line ${p.line}, column ${p.column ?? 1}`,
          ),
          h('code', {}, p.code),
          ' ',
          p.message,
          p.cycle ? h('p', { class: 'cycle' }, `Cycle: ${[...p.cycle, p.cycle[0]].join(' → ')}`) : null,
        ),
      ),
    ),
  );
}

function placementTable(view) {
  return h(
    'section',
    { 'aria-labelledby': 'placements-title' },
    h('h2', { id: 'placements-title' }, 'Placements'),
    h(
      'table',
      { class: 'list', id: 'placements' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'Key'),
          h('th', {}, 'Kind'),
          h('th', {}, 'Label'),
          h('th', {}, 'Runs'),
          h('th', { class: 'num' }, 'Worst-case executions per item'),
        ),
      ),
      h(
        'tbody',
        {},
        view.placements.map((p) =>
          h(
            'tr',
            {},
            h('td', {}, h('code', {}, p.key)),
            h('td', {}, p.kind),
            h('td', {}, p.label ?? ''),
            h('td', {}, h('code', {}, p.runs ?? '')),
            h('td', { class: 'num' }, p.worstCase),
          ),
        ),
      ),
    ),
    h('p', {}, `Worst case per item: ${view.worstCasePerItem} placement executions.`),
    view.worstCaseTime
      ? h(
          'p',
          {},
          view.worstCaseTime.ms === undefined
            ? `Worst-case time per item with ${view.worstCaseTime.policy}: unbounded — ${view.worstCaseTime.unboundedBecause ?? ''}`
            : `Worst-case time per item with ${view.worstCaseTime.policy}: ${duration(view.worstCaseTime.ms)}.`,
        )
      : null,
  );
}

function loopList(loops) {
  return h(
    'section',
    { 'aria-labelledby': 'loops-title' },
    h('h2', { id: 'loops-title' }, `Loops (${loops.length}), each closed by a budgeted retry route`),
    loops.length === 0
      ? h('p', { class: 'quiet' }, 'No loops.')
      : h(
          'ul',
          { id: 'loops' },
          loops.map((l) =>
            h(
              'li',
              {},
              h('strong', {}, `budget ${l.budget} ≤ ${l.max}`),
              `: ${l.placements.join(', ')}`,
              h(
                'ul',
                {},
                l.routes.map((r) =>
                  h('li', {}, `${r.from} —${r.output}→ ${r.to}, exhausted → ${r.exhausted ?? '?'}`),
                ),
              ),
            ),
          ),
        ),
  );
}

/** The `switchyard render` command line that draws the document at `path` of the served folder. */
async function renderCommand(path) {
  const meta = await getMeta();
  const folder = meta.ok ? meta.data.folder : '.';
  const file = folder === '.' ? path : `${folder}/${path}`;
  const stem = path
    .split('/')
    .pop()
    .replace(/\.jsonld$/u, '');
  return `switchyard render ${file} -o ${stem}.svg`;
}

/** One document's page. */
export async function documentPage(main, path) {
  // Mermaid is a few megabytes of modules: fetched while the document is checked, not after.
  const mermaid = import('./diagram.js').then((m) => {
    void m.loadMermaid().catch(() => undefined);
    return m;
  });
  const answer = await getJson(`/api/documents/${encodePath(path)}`);
  if (!answer.ok) return fill(main, h('h1', {}, path), message('error', answer.message));
  const view = answer.data;
  const diagram = h('div', { class: 'diagram', id: 'diagram' }, h('p', { class: 'quiet' }, 'Drawing…'));
  fill(
    main,
    h('p', { class: 'crumbs' }, link('/', 'Documents'), ' / ', path),
    h('h1', {}, view.name ?? path, ' ', view.valid ? badge('valid') : badge('invalid')),
    view.id
      ? h('p', { class: 'quiet' }, h('code', {}, view.id), view.version ? ` · v${view.version}` : '')
      : null,
    view.description ? h('p', {}, view.description) : null,
    view.valid ? null : message('error', `${path} does not load as a valid DAG: fix the problems below.`),
    problemList(view.problems),
    view.valid && view.id
      ? h('p', {}, link(`/runs?dag=${encodeURIComponent(view.id)}`, 'Runs of this document'))
      : null,
    !view.valid && view.mermaid && view.problems.some((p) => p.cycle)
      ? h(
          'p',
          { class: 'quiet', id: 'cycle-note' },
          'The placements of the loop no budget bounds are outlined in red.',
        )
      : null,
    view.mermaid || view.diagramTooLarge
      ? h(
          'section',
          { 'aria-labelledby': 'diagram-title' },
          h('h2', { id: 'diagram-title' }, 'Diagram'),
          view.mermaid ? diagram : tooLargeNote(view.diagramTooLarge, await renderCommand(path)),
        )
      : null,
    view.placements ? placementTable(view) : null,
    view.loops ? loopList(view.loops) : null,
  );
  if (view.mermaid) {
    const { drawDiagram } = await mermaid;
    await drawDiagram(diagram, view.mermaid, `Diagram of ${view.name ?? path}`);
  }
}
