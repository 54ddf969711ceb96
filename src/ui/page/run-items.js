// A run's items (where each is or ended, its wait, retries and budgets) and their timelines, and the gates
// its items waited at.

import { badge, h } from './dom.js';
import { duration } from './format.js';

function where(item) {
  const path = item.position.path.length > 0 ? `${item.position.path.join(' › ')} › ` : '';
  return `${path}${item.position.placement} (visit ${item.position.visit})`;
}

function ending(item) {
  const e = item.ending;
  if (!e) return '';
  if (e.kind === 'terminal') return `${e.placement} (${e.outcome})`;
  if (e.kind === 'failure') return `failed${e.placement ? ` at ${e.placement}` : ''}: ${e.code} ${e.message}`;
  return `aborted: ${e.reason}`;
}

// A page stays quick to draw and read: a run of thousands of items shows its first ones here, and
// `switchyard runs show` lists them all.
const SHOWN = 200;

function more(count, what) {
  return count > SHOWN
    ? h(
        'p',
        { class: 'quiet' },
        `${count - SHOWN} more ${what} not shown: \`switchyard runs show\` lists them all.`,
      )
    : null;
}

// Why an item waits at a gate, after the gate's key.
const GATE_WHY = { closed: 'closed', rate: 'rate', concurrency: 'concurrency' };

/** An item's wait: counting down while it waits, or what it was doing when its run left it there. */
function waitCell(item) {
  if (item.stoppedWhile) return h('span', { class: 'quiet' }, `${item.state} while ${item.stoppedWhile}`);
  if (!item.wait) return '';
  const gate = item.wait.gate;
  const reason = gate ? `${item.wait.reason}, ${GATE_WHY[gate.why] ?? gate.why}` : item.wait.reason;
  // A gate's pace or concurrency has no end to count down to: the gate lets the item through in its turn.
  if (!item.wait.until) return h('span', { class: 'gate-wait' }, reason);
  return h(
    'span',
    { class: 'countdown', 'data-until': Date.parse(item.wait.until), 'data-reason': reason },
    reason,
  );
}

/** The gate keys the run's events name: the closing in force, the items waiting, and each key's timeline. */
export function gatesList(detail) {
  const gates = detail.gates ?? [];
  if (gates.length === 0) return null;
  const running = detail.status === 'running';
  return gates.map((g) => {
    const timeline = detail.gateTimelines?.[g.key] ?? [];
    const cause = g.reason
      ? `${g.reason}${g.hintMs === undefined ? ', back-off' : `, Retry-After ${duration(g.hintMs)}`}`
      : '';
    const state =
      g.state === 'closed'
        ? h(
            'span',
            { class: 'countdown', 'data-until': Date.parse(g.until), 'data-reason': `closed: ${cause}` },
            `closed: ${cause}`,
          )
        : h('span', { class: 'quiet' }, 'open');
    const items = `${g.waiting} item${g.waiting === 1 ? '' : 's'}`;
    // Once the run stopped, only the items it left waiting are worth a word.
    const waiting = running ? ` · ${items} waiting` : g.waiting > 0 ? ` · ${items} left waiting` : '';
    const closings = timeline.filter((e) => e.kind === 'closed').length;
    return h(
      'details',
      { class: 'gate', 'data-gate': g.key, open: g.state === 'closed' },
      h(
        'summary',
        {},
        `Gate ${g.key} · `,
        state,
        `${waiting} · ${closings} closing${closings === 1 ? '' : 's'}`,
      ),
      timeline.length === 0
        ? h('p', { class: 'quiet' }, 'It did not close during the run.')
        : h(
            'ol',
            { class: 'timeline' },
            timeline.map((e) =>
              h(
                'li',
                { class: `entry ${e.kind}`, 'data-kind': e.kind },
                h('span', { class: 'at' }, `+${duration(e.atMs)}`),
                h('span', { class: 'marker', 'aria-hidden': 'true' }),
                e.text,
              ),
            ),
          ),
    );
  });
}

/** The items table. */
export function itemsTable(detail) {
  if (detail.items.length === 0) return h('p', { class: 'quiet' }, 'No item has been checkpointed yet.');
  return [itemRows(detail.items.slice(0, SHOWN)), more(detail.items.length, 'items')];
}

function itemRows(items) {
  return h(
    'table',
    { class: 'list', id: 'items-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'Item'),
        h('th', {}, 'Status'),
        h('th', {}, 'Where'),
        h('th', {}, 'Wait'),
        h('th', { class: 'num' }, 'Retries'),
        h('th', {}, 'Budgets spent'),
        h('th', {}, 'Ended'),
      ),
    ),
    h(
      'tbody',
      {},
      items.map((item) =>
        h(
          'tr',
          { 'data-item': item.id },
          h('td', {}, h('a', { href: `#item-${item.id}` }, item.id)),
          h('td', {}, badge(item.state ?? item.status)),
          h('td', {}, where(item)),
          h('td', {}, waitCell(item)),
          h('td', { class: 'num' }, item.retries),
          h(
            'td',
            {},
            Object.entries(item.budgets)
              .map(([name, n]) => `${name} ${n}`)
              .join(', '),
          ),
          h('td', {}, ending(item)),
        ),
      ),
    ),
  );
}

/** One timeline per item; those the reader opened stay open across updates. */
export function timelines(detail, container) {
  const open = new Set([...container.querySelectorAll('details[open]')].map((d) => d.dataset.item));
  const first = container.childElementCount === 0;
  const all = Object.keys(detail.timelines);
  if (all.length === 0) return h('p', { class: 'quiet' }, 'No events recorded yet.');
  const ids = all.slice(0, SHOWN);
  const shown = ids.map((id) => {
    const entries = detail.timelines[id];
    return h(
      'details',
      { id: `item-${id}`, 'data-item': id, open: open.has(id) || (first && ids.length <= 5) },
      h('summary', {}, `Item ${id} · ${entries.length} event${entries.length === 1 ? '' : 's'}`),
      h(
        'ol',
        { class: 'timeline' },
        entries.map((e) =>
          h(
            'li',
            { class: `entry ${e.kind}`, 'data-kind': e.kind },
            h('span', { class: 'at' }, `+${duration(e.atMs)}`),
            h('span', { class: 'marker', 'aria-hidden': 'true' }),
            e.text,
          ),
        ),
      ),
    );
  });
  return [...shown, more(all.length, 'timelines')];
}
