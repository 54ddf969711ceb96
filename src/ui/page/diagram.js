// Draws a diagram in the page with the mermaid package the viewer serves from node_modules (the version
// `switchyard render` uses), with the same configuration, in the colour scheme the reader's system prefers.

import { getMeta } from './api.js';
import { h, message } from './dom.js';
import { zoomable } from './zoom.js';

const dark = window.matchMedia('(prefers-color-scheme: dark)');
let loaded;
let counter = 0;

/** Loads Mermaid (and the ELK layout the diagrams ask for) once; a page with a diagram starts it early. */
export function loadMermaid() {
  loaded ??= (async () => {
    const [{ default: mermaid }, meta] = await Promise.all([
      import('/vendor/mermaid/mermaid.esm.min.mjs'),
      getMeta(),
    ]);
    if (meta.ok && meta.data.elk) {
      const { default: elkLayouts } = await import('/vendor/elk/mermaid-layout-elk.esm.min.mjs');
      mermaid.registerLayoutLoaders(elkLayouts);
    }
    // The configuration of src/render/renderer.ts: plain SVG text, ELK keeping the written order.
    mermaid.initialize({
      startOnLoad: false,
      htmlLabels: false,
      flowchart: { htmlLabels: false, useMaxWidth: true },
      maxEdges: 20_000,
      elk: { cycleBreakingStrategy: 'MODEL_ORDER', considerModelOrder: 'NODES_AND_EDGES' },
      maxTextSize: 10_000_000,
      securityLevel: 'strict',
      logLevel: 5,
    });
    return mermaid;
  })();
  return loaded;
}

/**
 * Draws `texts.light` or `texts.dark` (Mermaid text) into `container`, and again when the colour scheme
 * changes. Resolves once drawn. `label` names the diagram for screen readers.
 * @param {HTMLElement} container
 * @param {{ light: string, dark: string }} texts
 * @param {string} label
 */
export async function drawDiagram(container, texts, label) {
  const draw = async () => {
    const text = dark.matches ? texts.dark : texts.light;
    try {
      const mermaid = await loadMermaid();
      counter += 1;
      const { svg } = await mermaid.render(`sy-diagram-${counter}`, text);
      const figure = h('div', { class: 'diagram-svg', role: 'img', 'aria-label': label });
      figure.innerHTML = svg;
      container.zoomKept ??= {};
      container.replaceChildren(await zoomable(figure, label, container.zoomKept));
      container.dataset.drawn = 'true';
    } catch (error) {
      container.replaceChildren(
        message('error', `the diagram could not be drawn: ${error?.message ?? error}`),
      );
    }
  };
  container.drawScheme?.();
  const onScheme = () => {
    if (container.isConnected) void draw();
    else dark.removeEventListener('change', onScheme);
  };
  container.drawScheme = () => dark.removeEventListener('change', onScheme);
  dark.addEventListener('change', onScheme);
  await draw();
}
