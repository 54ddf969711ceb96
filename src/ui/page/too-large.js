// The note a page shows instead of a diagram too large to draw in it: how large, and how to draw it anyway.

import { h } from './dom.js';

const count = new Intl.NumberFormat();

/**
 * The note for a diagram of `size` (`{ placements, edges, limit }` from the viewer), with the command that
 * draws it outside the page.
 * @param {{ placements: number, edges: number, limit: number }} size
 * @param {string} command
 */
export function tooLargeNote(size, command) {
  return h(
    'div',
    { class: 'message note', role: 'status', id: 'diagram-too-large' },
    h(
      'p',
      {},
      `This diagram has ${count.format(size.placements)} placements and ${count.format(size.edges)} arrows, more than the ${count.format(size.limit)} shapes and arrows this page draws: laying it out here would hold the page for a long time. The tables below list everything it shows.`,
    ),
    h('p', {}, 'Draw it as an image with ', h('code', {}, command), ' and open that.'),
  );
}
