import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDagFolder } from '../../src/document/load.ts';
import type { Dag, DagLibrary, Placement, Route } from '../../src/document/model.ts';
import { toMermaid } from '../../src/render/mermaid.ts';
import { mermaidId } from '../../src/render/mermaid-text.ts';
import { createRenderer } from '../../src/render/renderer.ts';
import { edgeKey, retryKey, summariseTrace } from '../../src/render/trace.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { DAGS, files, stem } from '../render/shipped.ts';

let shipped: Map<string, Dag>;
let library: DagLibrary;
beforeAll(async () => {
  const loaded = await loadDagFolder(files.map((f) => join(DAGS, f)));
  library = loaded.library;
  shipped = new Map();
  for (const [file, result] of loaded.results) if (result.dag) shipped.set(stem(file), result.dag);
});

function load(name: string): Dag {
  const found = shipped.get(name);
  if (!found) throw new Error(`no shipped dag ${name}`);
  return found;
}

/** How to rewrite every name and text of a document. */
interface Renaming {
  readonly key?: (key: string) => string;
  readonly output?: (output: string) => string;
  readonly budget?: (budget: string) => string;
  readonly text?: (text: string) => string;
}

/** A copy of `dag` with its keys, outputs, budgets and free text rewritten consistently. */
function rename(dag: Dag, r: Renaming): Dag {
  const key = r.key ?? ((k) => k);
  const output = r.output ?? ((o) => o);
  const budget = r.budget ?? ((b) => b);
  const text = r.text ?? ((t) => t);
  const route = (x: Route): Route => ({
    ...x,
    output: output(x.output),
    to: key(x.to),
    ...(x.exhausted === undefined ? {} : { exhausted: key(x.exhausted) }),
    ...(x.budget === undefined ? {} : { budget: budget(x.budget) }),
    ...(x.resets === undefined ? {} : { resets: x.resets.map(budget) }),
    ...(x.label === undefined ? {} : { label: text(x.label) }),
  });
  return {
    ...dag,
    name: text(dag.name),
    version: text(dag.version),
    entrypoints: dag.entrypoints.map(key),
    budgets: dag.budgets.map((b) => ({ ...b, name: budget(b.name) })),
    placements: dag.placements.map(
      (p) =>
        ({
          ...p,
          key: key(p.key),
          ...(p.label === undefined ? {} : { label: text(p.label) }),
          ...('items' in p ? { items: text(p.items) } : {}),
          routes: p.routes.map(route),
        }) as Placement,
    ),
  };
}

// Text that Mermaid would obey if it reached the diagram as written: directives (which Mermaid reads
// anywhere in the text, comments included), a line break followed by statements, HTML, entities, Markdown.
const HOSTILE = [
  '%%{init: {"theme":"dark","themeVariables":{"primaryTextColor":"#ff0000"}}}%%',
  '%%{ init: { "securityLevel": "loose" } }%%',
  'x\nclick n_compose call alert(1)\n%% comment',
  'y\r\nstyle n_compose fill:#f00\u2028linkStyle 0 stroke:#f00',
  '"]; click n_validate href "javascript:alert(1)" %%',
  '<img src=x onerror=alert(1)>#quot;&amp;',
  '`**markdown**`',
  '}%%{%%',
];

/** Lines of Mermaid text with the user text gone: what is left is the structure the renderer wrote. */
function shape(text: string): string[] {
  return text.split('\n').map((line) => line.replace(/"[^"]*"/gu, '""').replace(/%%.*$/u, '%%'));
}

describe('user text cannot steer Mermaid', () => {
  for (const [index, hostile] of HOSTILE.entries()) {
    it(`hostile text #${index} in names, labels, outputs and budgets stays text`, () => {
      const plain = load('compose-validate');
      const evil = rename(plain, {
        text: (t) => `${t} ${hostile}`,
        output: (o) => `${o}${hostile}`,
        budget: (b) => `${b}${hostile}`,
      });
      const benign = rename(plain, {
        text: (t) => `${t} x`,
        output: (o) => `${o}x`,
        budget: (b) => `${b}x`,
      });
      const variants = [{}, { theme: 'dark' as const }, { trace: true }] as const;
      for (const variant of variants) {
        const options = (dag: Dag) =>
          'trace' in variant ? { trace: summariseTrace(retryTrace(dag, 3)) } : variant;
        const text = toMermaid(evil, options(evil));
        // The renderer's own init directive is the only one.
        expect(text.match(/%%\{/gu)?.length, text).toBe(1);
        expect(text.startsWith('%%{init:')).toBe(true);
        // No line, no statement and no quote was added or broken.
        expect(shape(text)).toEqual(shape(toMermaid(benign, options(benign))));
        const drawn = text.split('\n').filter((line) => !line.trim().startsWith('%%'));
        expect(drawn.join('\n').replaceAll('<br/>', '')).not.toContain('<');
      }
    });
  }

  it('the name of an embedded document, drawn as a subgraph title, stays text', () => {
    const review = load('review');
    const child = library.get('urn:switchyard:dag:compose-validate');
    if (!child) throw new Error('compose-validate is not in the library');
    const evilChild = { ...child, name: `child ${HOSTILE[0]}` };
    const evilLibrary: DagLibrary = { get: (id) => (id === child.id ? evilChild : library.get(id)) };
    const text = toMermaid(
      { ...review, name: HOSTILE[1] as string },
      { library: evilLibrary, expandEmbedded: true },
    );
    expect(text.match(/%%\{/gu)?.length, text).toBe(1);
    expect(text).toContain('subgraph');
  });
});

/**
 * A trace of `dag` in which one item goes round a retry route `rounds` times: the one from `validate` (or
 * the placement named `key`) of compose-validate, waiting 1 ms, then 2 ms, and so on; then the run ends, once
 * the last wait is over.
 */
function retryTrace(dag: Dag, rounds: number, key = 'validate'): RunEvent[] {
  const from = dag.placements.find((p) => p.key === key) as Placement;
  const route = from.routes.find((r) => r.kind === 'retry') as Route;
  const base = { runId: 'r', item: '1', dag: dag.id };
  const events: RunEvent[] = [];
  let seq = 0;
  for (let i = 0; i < rounds; i++) {
    events.push({ ...base, seq: seq++, time: i, type: 'placement.start', placement: from.key, visit: i + 1 });
    events.push({
      ...base,
      seq: seq++,
      time: i,
      type: 'route',
      from: from.key,
      output: route.output,
      to: route.to,
      kind: 'retry',
    });
    events.push({
      ...base,
      seq: seq++,
      time: i,
      type: 'retry.scheduled',
      from: from.key,
      output: route.output,
      to: route.to,
      budget: route.budget ?? '',
      attempt: i + 1,
      delayMs: i + 1,
      delaySource: 'backoff',
    });
  }
  const end = rounds * 2;
  events.push({
    runId: 'r',
    dag: dag.id,
    seq: seq++,
    time: end,
    type: 'run.end',
    status: 'completed',
    completed: 1,
    failed: 0,
    durationMs: end,
  });
  return events;
}

describe('trace overlay cost', () => {
  // Linear summing takes a moment here; copying the wait list on every wait (quadratic) takes minutes at
  // this size, past the test timeout.
  it('sums up 100,000 retry waits on one route, every wait and count kept', () => {
    const dag = load('compose-validate');
    const rounds = 100_000;
    const events = retryTrace(dag, rounds).filter((e) => e.type !== 'placement.start');
    const trace = summariseTrace(events);
    const summary = trace.dags.get(dag.id);
    const retry = summary?.retries.get(retryKey('validate', 'compose', 'compose', 'invalid'));
    expect(retry?.waitsMs).toHaveLength(rounds);
    expect(retry?.waitsMs[0]).toBe(1);
    expect(retry?.waitsMs[rounds - 1]).toBe(rounds);
    expect(retry?.totalMs).toBe((rounds * (rounds + 1)) / 2);
    expect(summary?.edges.get(edgeKey('validate', 'invalid', 'retry'))?.count).toBe(rounds);
    const text = toMermaid(dag, { trace });
    expect(text).toContain(`invalid · retry · compose ≤ 3 · ×${rounds} · waited`);
  });
});

describe('names that are prototype keys', () => {
  const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];

  it('placements, outputs and budgets named after Object.prototype members are drawn and counted', () => {
    const plain = load('compose-validate');
    const keys = new Map(plain.placements.map((p, i) => [p.key, NAMES[i % NAMES.length] as string]));
    const outputs = new Map<string, string>();
    const budgets = new Map(plain.budgets.map((b, i) => [b.name, NAMES[(i + 2) % NAMES.length] as string]));
    const dag = rename(plain, {
      key: (k) => keys.get(k) ?? k,
      output: (o) => {
        if (!outputs.has(o)) outputs.set(o, NAMES[(outputs.size + 1) % NAMES.length] as string);
        return outputs.get(o) as string;
      },
      budget: (b) => budgets.get(b) ?? b,
    });
    const events = retryTrace(dag, 5, keys.get('validate'));
    const trace = summariseTrace(events);
    const summary = trace.dags.get(dag.id);
    const from = keys.get('validate') as string;
    expect(summary?.visits.get(from)).toBe(5);
    expect(summary?.visits.get('hasOwnProperty')).toBe(from === 'hasOwnProperty' ? 5 : undefined);
    const text = toMermaid(dag, { trace });
    for (const name of new Set(keys.values())) expect(text).toContain(`  ${mermaidId([name])}`);
    expect(text).toContain(`${mermaidId([from])}["Validate draft<br/>task · ×5"]`);
    expect(text).toContain(`${budgets.get('compose')} ≤ 3 · ×5 · waited 15 ms`);
    expect(text).toContain('×5');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('hostile text through the real renderer (Chromium)', () => {
  it('an injected directive neither changes the theme nor disappears from the text', async () => {
    const renderer = await createRenderer();
    try {
      const evil = rename(load('compose-validate'), {
        text: (t) =>
          `${t} %%{init: {"themeVariables":{"primaryTextColor":"#ff0000","lineColor":"#00ff00"}}}%%`,
        output: (o) => `${o}%%{init: {"theme":"dark"}}%%`,
      });
      const svg = Buffer.from(await renderer.render(toMermaid(evil), 'svg')).toString('utf8');
      // Colours live in the style sheet and in fill, stroke and style attributes; the label text may say anything.
      const styling = [
        ...(svg.match(/<style[\s\S]*?<\/style>/gu) ?? []),
        ...(svg.match(/\s(?:fill|stroke|style|color)="[^"]*"/gu) ?? []),
      ].join('\n');
      expect(styling).toContain('#1f2937');
      expect(styling.toLowerCase()).not.toMatch(/#ff0000|#00ff00|rgb\(255, ?0, ?0\)|rgb\(0, ?255, ?0\)/u);
      const text = svg
        .replace(/<style[\s\S]*?<\/style>/gu, '')
        .replace(/<[^>]+>/gu, '')
        .replace(/&#(\d+);/gu, (_m, code: string) => String.fromCodePoint(Number(code)))
        .replaceAll('&quot;', '"')
        .replaceAll('&amp;', '&')
        .replace(/\u200B/gu, '');
      // The words are drawn one text span each, so the spaces between them are not in the text.
      expect(text).toContain('Validate draft %%{init:{"themeVariables":{"primaryTextColor":"#ff0000"');
      expect(text).toContain("invalid%%{init:{'theme':'dark'}}%% · retry");
    } finally {
      await renderer.close();
    }
  });
});
