import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDagFolder } from '../../src/document/load.ts';
import type { Dag, DagLibrary } from '../../src/document/model.ts';
import { toMermaid } from '../../src/render/mermaid.ts';
import { escapeEdgeLabel, escapeNodeLabel, mermaidId } from '../../src/render/mermaid-text.ts';
import { summariseTrace } from '../../src/render/trace.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { DAGS, files, stem } from './shipped.ts';

const GOLDEN = join(import.meta.dirname, '../golden');

let dags: Map<string, Dag>;
let library: DagLibrary;

beforeAll(async () => {
  const loaded = await loadDagFolder(files.map((f) => join(DAGS, f)));
  library = loaded.library;
  dags = new Map();
  for (const [file, result] of loaded.results) {
    if (!result.dag)
      throw new Error(`${file} did not load: ${result.problems.map((p) => p.message).join('; ')}`);
    dags.set(stem(file), result.dag);
  }
});

const dag = (stem: string): Dag => {
  const found = dags.get(stem);
  if (!found) throw new Error(`no dag ${stem}`);
  return found;
};

/** Compares with test/golden/<name>.mmd exactly; `UPDATE_GOLDEN=1` rewrites the file instead. */
function expectGolden(name: string, text: string): void {
  const path = join(GOLDEN, `${name}.mmd`);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, text);
  expect(existsSync(path), `${path} is missing: run with UPDATE_GOLDEN=1`).toBe(true);
  expect(text).toBe(readFileSync(path, 'utf8'));
}

describe('toMermaid golden files', () => {
  it.each(files.map((f) => stem(join(DAGS, f))))('%s (light)', (name) => {
    expectGolden(name, toMermaid(dag(name)));
  });
  it('compose-validate (dark)', () => {
    expectGolden('compose-validate.dark', toMermaid(dag('compose-validate'), { theme: 'dark' }));
  });
  it('review with the embedded DAG expanded', () => {
    expectGolden('review.expanded', toMermaid(dag('review'), { library, expandEmbedded: true }));
  });
});

describe('toMermaid structure', () => {
  it('is deterministic', () => {
    for (const d of dags.values())
      expect(toMermaid(d, { library, expandEmbedded: true })).toBe(
        toMermaid(d, { library, expandEmbedded: true }),
      );
  });

  it('gives every retry, exhaustion and salvage edge exactly one linkStyle, and draws retry edges dashed', () => {
    for (const d of dags.values()) {
      const lines = toMermaid(d).split('\n');
      const edges = lines.filter((l) => / (-->|-\.->|==>)/.test(l));
      const styled = lines.filter((l) => l.startsWith('  linkStyle ')).map((l) => Number(l.split(' ')[3]));
      expect(new Set(styled).size).toBe(styled.length);
      const expected = edges.flatMap((l, i) => (/-\.->|==>|· salvage|salvage"/.test(l) ? [i] : []));
      expect(styled).toEqual(expected);
      const retries = d.placements.flatMap((p) => p.routes.filter((r) => r.kind === 'retry'));
      const pairs = new Set(
        d.placements.flatMap((p) =>
          p.routes.filter((r) => r.kind === 'retry').map((r) => `${p.key} ${r.to}`),
        ),
      );
      // An await's deadline route is dotted too, in its own colour (see the await test below).
      const deadlines = d.placements.flatMap((p) =>
        p.kind === 'await' ? p.routes.filter((r) => r.output === 'deadline' && r.kind !== 'retry') : [],
      );
      expect(edges.filter((l) => l.includes(' -.->')).length).toBe(pairs.size + deadlines.length);
      for (const route of retries) {
        expect(edges.some((l) => l.includes(' -.->') && l.includes(`${route.budget} ≤`))).toBe(true);
        expect(edges.some((l) => l.includes(' ==>') && l.includes(`${route.budget} exhausted`))).toBe(true);
      }
    }
  });

  it('draws an await as a hexagon of its own class, its deadline route dotted in the deadline colour', () => {
    for (const theme of ['light', 'dark'] as const) {
      const lines = toMermaid(dag('approval'), { theme }).split('\n');
      expect(lines).toContain(
        '  n_review{{"Reviewer\'s answer<br/>await · approved #124; rejected #124; revise"}}',
      );
      expect(lines).toContain('  class n_review await');
      expect(lines.some((l) => l.startsWith('  classDef await fill:'))).toBe(true);
      const edges = lines.filter((l) => / (-->|-\.->|==>)/.test(l));
      const deadline = edges.indexOf('  n_review -.->|"deadline"| n_escalate');
      expect(deadline).toBeGreaterThanOrEqual(0);
      const style = lines.find((l) => l.startsWith(`  linkStyle ${deadline} `));
      expect(style).toContain(theme === 'light' ? 'stroke:#b45309' : 'stroke:#fbbf24');
      expect(style).toContain('stroke-dasharray:2 4');
    }
  });

  it("draws a retry route on an await's deadline as a retry, and a salvage one with its kind word", () => {
    const base = dag('approval');
    const withKind = (kind: 'retry' | 'salvage'): Dag => ({
      ...base,
      placements: base.placements.map((p) =>
        p.key !== 'review'
          ? p
          : {
              ...p,
              routes: p.routes.map((r) =>
                r.output !== 'deadline'
                  ? r
                  : kind === 'retry'
                    ? { ...r, kind, to: 'draft', budget: 'revise', exhausted: 'escalate' }
                    : { ...r, kind },
              ),
            },
      ),
    });
    const salvage = toMermaid(withKind('salvage'));
    expect(salvage).toContain('  n_review -.->|"deadline · salvage"| n_escalate');
    const retry = toMermaid(withKind('retry'));
    expect(retry).toContain('deadline · retry · revise ≤ 2');
    expect(retry).not.toContain('stroke-dasharray');
  });

  it('merges parallel edges into one edge with a line per route, keeping linkStyle indices right', () => {
    const lines = toMermaid(dag('archivist-ask')).split('\n');
    const edges = lines.filter((l) => / (-->|-\.->|==>)/.test(l));
    const loops = edges.filter((l) => l.startsWith('  n_classify -.->'));
    expect(loops).toEqual([
      '  n_classify -.->|"retry · model call failed · classify ≤ 2<br/>unclear · unusable answer · retry · classify ≤ 2"| n_classify',
    ]);
    expect(edges.filter((l) => l.startsWith('  n_classify ==>'))).toEqual([
      '  n_classify ==>|"classify exhausted"| n_classify_2d_rules',
    ]);
    expect(edges).toContain('  n_classify -->|"describe<br/>find<br/>recommend"| n_plan');
    const loop = edges.indexOf(loops[0] as string);
    expect(lines).toContain(`  linkStyle ${loop} stroke:#ea580c,stroke-width:2px,color:#ea580c`);
  });

  it('sums the counts of merged parts with the same words and keeps the others per part', () => {
    const ask = dag('archivist-ask');
    const route = (from: string, output: string, to: string, kind: 'retry' | 'exhausted') =>
      ({ type: 'route', dag: ask.id, item: '1', from, output, to, kind }) as unknown as RunEvent;
    const events = [
      route('classify', 'retry', 'classify', 'retry'),
      route('classify', 'unclear', 'classify', 'retry'),
      route('classify', 'unclear', 'classify', 'retry'),
      route('classify', 'retry', 'classify-rules', 'exhausted'),
      route('classify', 'unclear', 'classify-rules', 'exhausted'),
    ];
    const text = toMermaid(ask, { trace: summariseTrace(events) });
    expect(text).toContain(
      'n_classify -.->|"retry · model call failed · classify ≤ 2 · ×1<br/>unclear · unusable answer · retry · classify ≤ 2 · ×2"| n_classify',
    );
    expect(text).toContain('n_classify ==>|"classify exhausted · ×2"| n_classify_2d_rules');
  });

  it('draws each placement kind with its own shape', () => {
    const text = toMermaid(dag('scatter-gather'));
    expect(text).toContain('n_search[/"Search each query<br/>scatter /queries"\\]');
    expect(text).toContain('n_merge[\\"Merge hits<br/>gather · collect"/]');
    expect(text).toContain('n_done(["Ranked<br/>completed"])');
    expect(toMermaid(dag('review'))).toContain(
      'n_draft[["Compose and validate<br/>embed · compose-validate"]]',
    );
  });

  it('expands an embedded DAG into a subgraph with prefixed ids', () => {
    const text = toMermaid(dag('review'), { library, expandEmbedded: true });
    expect(text).toMatch(/subgraph g_draft\["/);
    expect(text).toContain('n_draft_scompose["Compose draft<br/>task"]');
    expect(text).toContain('n_review -.->|"stale · retry · review ≤ 2"| g_draft');
    expect(text).not.toContain('n_draft[[');
  });

  it('keeps phases off to the side in their own subgraph', () => {
    const base = dag('checkout');
    const withPhase: Dag = {
      ...base,
      placements: [
        ...base.placements,
        { key: 'audit', kind: 'phase', when: 'post', node: 'urn:x:audit', routes: [], label: 'Audit' },
      ],
    };
    const text = toMermaid(withPhase);
    expect(text).toContain('subgraph p_phases["run hooks"]');
    expect(text).toContain('n_audit[/"Audit<br/>post phase"/]');
  });
});

describe('ids and labels', () => {
  it('maps keys to ids injectively and clear of keywords', () => {
    const keys = ['end', 'graph', 'a-b', 'a_2d_b', 'a__b', 'a_b', 'x', 'o', 'a.b', 'é'];
    const ids = keys.map((k) => mermaidId([k]));
    expect(new Set(ids).size).toBe(keys.length);
    for (const id of ids) expect(id).toMatch(/^n_[A-Za-z0-9_]+$/);
    expect(mermaidId(['a', 'b'])).not.toBe(mermaidId(['a_sb']));
  });

  it('escapes every character that could break a label', () => {
    expect(escapeNodeLabel('say "hi" <b> #1; a|b')).toBe('say #quot;hi#quot; #lt;b#gt; #35;1#59; a#124;b');
    expect(escapeEdgeLabel('say "hi" <b> & #x;')).toBe("say 'hi' #lt;b#gt; #amp; #\u200Bx;");
    expect(escapeEdgeLabel('`md`')).toBe('\u200B`md`');
    expect(escapeNodeLabel('two\nlines')).toBe('two lines');
  });
});
