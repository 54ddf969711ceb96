// The items of a run parked at await placements: each one's token, the answers it expects, its deadline and
// the command that answers it. The viewer is read-only: it shows the command, it does not answer.

import { h } from './dom.js';

/** The list of parked items and of answers recorded but not yet taken, or null when there are none. */
export function parkedList(detail) {
  const parked = detail.parked ?? [];
  const answers = detail.answers ?? [];
  if (parked.length === 0 && answers.length === 0) return null;
  const rows = parked.map((p) =>
    h(
      'tr',
      { 'data-token': p.token },
      h('td', {}, p.item),
      h('td', {}, p.placement),
      h('td', {}, p.answers.join(' | ')),
      h('td', {}, h('time', { datetime: p.deadline }, p.deadline), ` (${p.deadlineIn})`),
      h('td', {}, h('code', {}, p.token)),
      h('td', {}, h('code', { class: 'command' }, p.command)),
    ),
  );
  const table =
    parked.length === 0
      ? null
      : h(
          'table',
          { id: 'parked-table' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['Item', 'Await', 'Expects', 'Deadline', 'Token', 'Answer with'].map((t) => h('th', {}, t)),
            ),
          ),
          h('tbody', {}, rows),
        );
  const taken =
    answers.length === 0
      ? null
      : h(
          'ul',
          { id: 'pending-answers' },
          answers.map((a) =>
            h(
              'li',
              {},
              'answered ',
              h('code', {}, a.token),
              ` with ${a.output} at ${a.answeredAt}, not taken yet`,
            ),
          ),
        );
  return [table, taken];
}
