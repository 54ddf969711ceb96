import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDagFolder } from '../../src/document/load.ts';
import type { Dag, DagLibrary, Placement } from '../../src/document/model.ts';
import { isSwitchyardError } from '../../src/errors.ts';
import { toMermaid } from '../../src/render/mermaid.ts';
import { createRenderer, type Renderer } from '../../src/render/renderer.ts';
import { summariseTrace } from '../../src/render/trace.ts';
import { DAGS, files, stem } from './shipped.ts';
import { composeValidateTrace } from './trace-fixture.ts';

let renderer: Renderer;
let dags: Map<string, Dag>;
let library: DagLibrary;

beforeAll(async () => {
  renderer = await createRenderer();
  const loaded = await loadDagFolder(files.map((f) => join(DAGS, f)));
  library = loaded.library;
  dags = new Map([...loaded.results].flatMap(([file, r]) => (r.dag ? [[stem(file), r.dag]] : [])));
});

afterAll(async () => {
  await renderer?.close();
});

/** The text a reader sees: the SVG's text content, tags dropped and XML entities decoded. */
function svgText(svg: string): string {
  return svg
    .replace(/<style[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\u200B/g, '');
}

/** The full label of each retry route: output, route label, kind word, budget bound. */
function retryLabels(dag: Dag): string[] {
  return dag.placements.flatMap((p) =>
    p.routes
      .filter((r) => r.kind === 'retry')
      .map((r) => {
        const bound = `${r.budget} ≤ ${dag.budgets.find((b) => b.name === r.budget)?.max}`;
        const words = [r.output, ...(r.label === undefined ? [] : [r.label])];
        return [...words, ...(r.output === 'retry' ? [] : ['retry']), bound].join(' · ');
      }),
  );
}

describe('rendering every document of dags/ with one browser', () => {
  it.each(files.map((f) => stem(join(DAGS, f))))('%s as SVG and PNG', async (name) => {
    const dag = dags.get(name);
    if (!dag) throw new Error(`${name} did not load`);
    const text = toMermaid(dag);
    const svg = new TextDecoder().decode(await renderer.render(text, 'svg'));
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).not.toContain('<foreignObject');
    const visible = svgText(svg).replace(/ /g, '');
    for (const p of dag.placements) expect(visible).toContain((p.label ?? p.key).replace(/ /g, ''));
    for (const label of retryLabels(dag)) expect(visible).toContain(label.replace(/ /g, ''));

    const png = PNG.sync.read(Buffer.from(await renderer.render(text, 'png')));
    expect(png.width).toBeGreaterThan(200);
    expect(png.height).toBeGreaterThan(200);
  });

  it('renders the dark theme and an expanded embed', async () => {
    const review = dags.get('review') as Dag;
    const svg = new TextDecoder().decode(
      await renderer.render(toMermaid(review, { theme: 'dark', library, expandEmbedded: true }), 'svg', {
        theme: 'dark',
      }),
    );
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svgText(svg).replace(/ /g, '')).toContain('Validatedraft');
    expect(svg).toContain('#0f172a');
  });

  it('draws an await as a hexagon with its answers, its deadline edge dotted in its colour', async () => {
    const approval = dags.get('approval') as Dag;
    const svg = new TextDecoder().decode(await renderer.render(toMermaid(approval), 'svg'));
    expect(XMLValidator.validate(svg)).toBe(true);
    const visible = svgText(svg).replace(/ /g, '');
    expect(visible).toContain('await·approved|rejected|revise');
    expect(visible).toContain('deadline');
    expect(svg).toMatch(/<polygon[^>]*class="label-container"/);
    expect(svg).toMatch(/stroke:#b45309[^"]*stroke-dasharray:2 4/);
  });
});

describe('trace overlay in SVG', () => {
  it('shows the two retries with their wait and the salvage', async () => {
    const dag = dags.get('compose-validate') as Dag;
    const text = toMermaid(dag, { trace: summariseTrace(composeValidateTrace()) });
    const visible = svgText(new TextDecoder().decode(await renderer.render(text, 'svg'))).replace(/ /g, '');
    expect(visible).toContain('×2·waited300ms');
    expect(visible).toContain('salvaged×1');
  });
});

describe('labels and errors', () => {
  it('shows hostile label text as written', async () => {
    const nasty = 'Say "hi" <b>bold</b> #1; a|b [x] {y} (z) & end';
    const dag: Dag = {
      id: 'urn:test:nasty',
      name: 'nasty',
      version: '1',
      entrypoints: ['end'],
      budgets: [],
      placements: [
        {
          key: 'end',
          kind: 'task',
          node: 'urn:x',
          label: nasty,
          routes: [{ output: 'o;#x;"q"', to: 'graph', kind: 'next' }],
        },
        { key: 'graph', kind: 'terminal', outcome: 'completed', routes: [] },
      ],
    };
    const svg = new TextDecoder().decode(await renderer.render(toMermaid(dag), 'svg'));
    expect(XMLValidator.validate(svg)).toBe(true);
    const visible = svgText(svg).replace(/ /g, '');
    expect(visible).toContain(nasty.replace(/ /g, ''));
    expect(visible).toContain("o;#x;'q'");
  });

  it('reports a Mermaid syntax error with its line', async () => {
    const error = await renderer
      .render('flowchart TD\n  a --> b\n  a -->|"x| (((\n', 'svg')
      .catch((e: unknown) => e);
    expect(isSwitchyardError(error) && error.code).toBe('E_MERMAID_SYNTAX');
    expect((error as Error).message).toMatch(/^Mermaid syntax error on line \d+: /);
  });
});

describe("a document past Mermaid's default edge limit", () => {
  it('renders 200 placements with 600 edges (Mermaid stops at 500 by default)', async () => {
    const key = (i: number) => `step-${String(i).padStart(3, '0')}`;
    const placements: Placement[] = [];
    for (let i = 0; i < 200; i++) {
      placements.push({
        key: key(i),
        kind: 'task',
        node: 'urn:x:step',
        routes: [
          { output: 'ok', to: i === 199 ? 'done' : key(i + 1), kind: 'next' },
          { output: 'retry', to: key(i), kind: 'retry', budget: 'step', exhausted: 'failed' },
        ],
      });
    }
    placements.push({ key: 'done', kind: 'terminal', outcome: 'completed', routes: [] });
    placements.push({ key: 'failed', kind: 'terminal', outcome: 'failed', routes: [] });
    const dag: Dag = {
      id: 'urn:test:big',
      name: 'big',
      version: '1',
      entrypoints: [key(0)],
      budgets: [{ name: 'step', max: 2 }],
      placements,
    };
    const text = toMermaid(dag);
    expect(text.match(/-->|-\.->|==>/g)?.length).toBeGreaterThan(500);
    const svg = new TextDecoder().decode(await renderer.render(text, 'svg'));
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).toContain('step-199');
  }, 300_000);
});
