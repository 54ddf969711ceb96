// Zoom and pan for a drawn diagram, with d3-zoom (d3 is mermaid's own dependency, served from node_modules):
// drag to move, Ctrl + wheel (or a pinch) and the buttons to zoom, and from the keyboard once the diagram
// has the focus: + and − zoom, 0 fits it, 1 shows it at its own size, the arrow keys move it.

import { getMeta } from './api.js';
import { h } from './dom.js';

let d3Loaded;

/** d3, loaded once (its bundle sets `globalThis.d3`); undefined when the viewer does not serve it. */
function loadD3() {
  d3Loaded ??= getMeta().then(async (meta) => {
    if (!meta.ok || !meta.data.zoom) return undefined;
    await import('/vendor/d3/d3.min.js');
    return globalThis.d3;
  });
  return d3Loaded;
}

// A diagram starts no taller than this part of the window; beyond it, it is panned.
const MAX_HEIGHT = 0.75;
// How much smaller than its width allows a diagram may start, to show whole.
const SHRINK = 0.6;
const STEP = 1.25;
const MOVE = 60;

/** The size the SVG Mermaid drew would have at scale 1. */
function naturalSize(svg) {
  const box = svg.viewBox?.baseVal;
  if (box && box.width > 0 && box.height > 0) return { width: box.width, height: box.height };
  const rect = svg.getBoundingClientRect();
  return { width: rect.width || 1, height: rect.height || 1 };
}

/**
 * Wraps `figure` (the element holding Mermaid's SVG) in a viewport that zooms and pans, with its buttons,
 * and returns what to put in the page instead; `figure` as it is when zooming cannot be had. `kept` carries
 * the reader's zoom and the view's height from one drawing of a diagram to the next (a live run redraws it
 * at each step), so that the part the reader looks at stays in sight.
 * @param {HTMLElement} figure
 * @param {string} label
 * @param {{ transform?: unknown, height?: string }} kept
 */
export async function zoomable(figure, label, kept = {}) {
  const d3 = await loadD3().catch(() => undefined);
  const svg = figure.querySelector('svg');
  if (d3 === undefined || svg === null) return figure;
  const size = naturalSize(svg);
  svg.removeAttribute('style');
  svg.setAttribute('width', String(size.width));
  svg.setAttribute('height', String(size.height));
  const stage = h('div', { class: 'diagram-stage' }, figure);
  const viewport = h(
    'div',
    {
      class: 'diagram-view',
      tabindex: '0',
      role: 'group',
      'aria-label': `${label}: drag to move it, Ctrl and the wheel to zoom; from the keyboard, + and − zoom, 0 fits it, the arrow keys move it`,
    },
    stage,
  );
  const zoom = d3
    .zoom()
    // The wheel scrolls the page unless Ctrl (or a pinch, which sends it) asks to zoom.
    .filter((event) => (event.type === 'wheel' ? event.ctrlKey || event.metaKey : !event.button))
    .on('zoom', (event) => {
      const { x, y, k } = event.transform;
      stage.style.transform = `translate(${x}px, ${y}px) scale(${k})`;
      viewport.dataset.scale = k.toFixed(3);
      if (viewport.dataset.ready === 'true') kept.transform = event.transform;
    });
  const view = d3.select(viewport);
  const fitScale = () =>
    Math.min(1, viewport.clientWidth / size.width, viewport.clientHeight / size.height) || 1;
  const fitAll = () => {
    const k = fitScale();
    const x = (viewport.clientWidth - size.width * k) / 2;
    const y = Math.max(0, (viewport.clientHeight - size.height * k) / 2);
    view.call(zoom.transform, d3.zoomIdentity.translate(x, y).scale(k));
  };
  // Its own size, around the middle of the view: the part the reader looks at stays in sight.
  const actual = () => view.call(zoom.scaleTo, 1);
  const button = (text, title, action) =>
    h('button', { type: 'button', title, 'aria-label': title, onclick: action }, text);
  const tools = h(
    'div',
    { class: 'diagram-tools', role: 'toolbar', 'aria-label': 'Zoom' },
    button('+', 'Zoom in', () => view.call(zoom.scaleBy, STEP)),
    button('−', 'Zoom out', () => view.call(zoom.scaleBy, 1 / STEP)),
    button('Fit', 'Fit the diagram in view', fitAll),
    button('1:1', 'Its own size', actual),
  );
  viewport.addEventListener('keydown', (event) => {
    const moves = { ArrowLeft: [MOVE, 0], ArrowRight: [-MOVE, 0], ArrowUp: [0, MOVE], ArrowDown: [0, -MOVE] };
    if (event.key === '+' || event.key === '=') view.call(zoom.scaleBy, STEP);
    else if (event.key === '-' || event.key === '−') view.call(zoom.scaleBy, 1 / STEP);
    else if (event.key === '0') fitAll();
    else if (event.key === '1') actual();
    else if (moves[event.key]) {
      const [dx, dy] = moves[event.key];
      const k = d3.zoomTransform(viewport).k;
      view.call(zoom.translateBy, dx / k, dy / k);
    } else return;
    event.preventDefault();
  });
  const box = h('div', { class: 'diagram-zoom' }, tools, viewport);
  // Sized once in the page: as wide as the page allows, no taller than the diagram needs.
  requestAnimationFrame(() => {
    if (kept.transform !== undefined && kept.height !== undefined) {
      viewport.style.height = kept.height;
      zoom.scaleExtent([Math.min(fitScale(), 1) / 2, 4]);
      view.call(zoom).call(zoom.transform, kept.transform);
      viewport.dataset.ready = 'true';
      return;
    }
    const width = viewport.clientWidth || size.width;
    const maxHeight = window.innerHeight * MAX_HEIGHT;
    const fitWidth = Math.min(1, width / size.width);
    // Shrunk a little more, a diagram a bit taller than the view shows whole; a much taller one is panned.
    const fitBoth = Math.min(fitWidth, maxHeight / size.height);
    const k = fitBoth >= SHRINK * fitWidth ? fitBoth : fitWidth;
    viewport.style.height = `${Math.max(160, Math.min(size.height * k + 2, maxHeight))}px`;
    kept.height = viewport.style.height;
    zoom.scaleExtent([Math.min(fitScale(), 1) / 2, 4]);
    view.call(zoom);
    view.call(
      zoom.transform,
      d3.zoomIdentity.translate(Math.max(0, (width - size.width * k) / 2), 0).scale(k),
    );
    viewport.dataset.ready = 'true';
  });
  return box;
}
