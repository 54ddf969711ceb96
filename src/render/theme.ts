/**
 * Colours of the diagrams, per theme: the Mermaid init directive, the node classes and the edge styles.
 * Kept apart from the text generator so a palette change never touches graph logic.
 */

/** The diagram themes. */
export type Theme = 'light' | 'dark';

/** How an edge is drawn: by route kind, plus the entry arrow and an await's `deadline` route. */
export type EdgeStyle = 'next' | 'retry' | 'exhausted' | 'salvage' | 'deadline' | 'entry';

/** One theme's colours. */
export interface Palette {
  readonly mermaidTheme: 'base' | 'dark';
  readonly background: string;
  readonly text: string;
  readonly line: string;
  readonly edgeLabelBackground: string;
  /** Node classes: `classDef` name to style. */
  readonly classes: Readonly<Record<string, string>>;
  /** Edge stroke colours by style. */
  readonly edges: Readonly<Record<EdgeStyle, string>>;
  /** Colour of edges and borders an item went through, in a trace overlay. */
  readonly taken: string;
  /** Colour of the labels of edges no item took, in a trace overlay. */
  readonly untakenText: string;
}

const LIGHT: Palette = {
  mermaidTheme: 'base',
  background: '#ffffff',
  text: '#1f2937',
  line: '#475569',
  edgeLabelBackground: '#f8fafc',
  untakenText: '#94a3b8',
  classes: {
    task: 'fill:#eef2ff,stroke:#4f46e5,stroke-width:1.5px,color:#1e1b4b',
    scatter: 'fill:#ecfeff,stroke:#0e7490,stroke-width:1.5px,color:#083344',
    gather: 'fill:#ecfeff,stroke:#0e7490,stroke-width:1.5px,color:#083344',
    embed: 'fill:#f0fdf4,stroke:#15803d,stroke-width:1.5px,color:#052e16',
    await: 'fill:#fffbeb,stroke:#b45309,stroke-width:2px,color:#451a03',
    completed: 'fill:#dcfce7,stroke:#15803d,stroke-width:2px,color:#052e16',
    failed: 'fill:#fee2e2,stroke:#b91c1c,stroke-width:2px,color:#450a0a',
    phase: 'fill:#f5f5f4,stroke:#78716c,stroke-width:1px,stroke-dasharray:4 3,color:#292524',
    entry: 'fill:#334155,stroke:#334155,color:#ffffff',
    visited: 'stroke:#0369a1,stroke-width:3.5px',
    dim: 'opacity:0.4',
  },
  edges: {
    next: '#475569',
    retry: '#ea580c',
    exhausted: '#dc2626',
    salvage: '#7c3aed',
    deadline: '#b45309',
    entry: '#334155',
  },
  taken: '#0369a1',
};

const DARK: Palette = {
  mermaidTheme: 'dark',
  background: '#0f172a',
  text: '#e2e8f0',
  line: '#94a3b8',
  edgeLabelBackground: '#1e293b',
  untakenText: '#64748b',
  classes: {
    task: 'fill:#1e1b4b,stroke:#818cf8,stroke-width:1.5px,color:#e0e7ff',
    scatter: 'fill:#083344,stroke:#22d3ee,stroke-width:1.5px,color:#cffafe',
    gather: 'fill:#083344,stroke:#22d3ee,stroke-width:1.5px,color:#cffafe',
    embed: 'fill:#052e16,stroke:#4ade80,stroke-width:1.5px,color:#dcfce7',
    await: 'fill:#451a03,stroke:#fbbf24,stroke-width:2px,color:#fef3c7',
    completed: 'fill:#14532d,stroke:#4ade80,stroke-width:2px,color:#dcfce7',
    failed: 'fill:#450a0a,stroke:#f87171,stroke-width:2px,color:#fee2e2',
    phase: 'fill:#292524,stroke:#a8a29e,stroke-width:1px,stroke-dasharray:4 3,color:#f5f5f4',
    entry: 'fill:#cbd5e1,stroke:#cbd5e1,color:#0f172a',
    visited: 'stroke:#38bdf8,stroke-width:3.5px',
    dim: 'opacity:0.4',
  },
  edges: {
    next: '#94a3b8',
    retry: '#fb923c',
    exhausted: '#f87171',
    salvage: '#c084fc',
    deadline: '#fbbf24',
    entry: '#cbd5e1',
  },
  taken: '#38bdf8',
};

/** The palette of a theme. */
export function palette(theme: Theme): Palette {
  return theme === 'dark' ? DARK : LIGHT;
}

/** The `%%{init: …}%%` directive line: theme, layout, colours, plain SVG labels. Keys in a fixed order. */
export function initDirective(theme: Theme, layout: 'dagre' | 'elk' = 'dagre'): string {
  const p = palette(theme);
  const init = {
    theme: p.mermaidTheme,
    ...(layout === 'elk' ? { layout: 'elk' } : {}),
    htmlLabels: false,
    flowchart: { htmlLabels: false, curve: 'basis', nodeSpacing: 60, rankSpacing: 80, padding: 15 },
    themeVariables: {
      background: p.background,
      primaryTextColor: p.text,
      lineColor: p.line,
      edgeLabelBackground: p.edgeLabelBackground,
      clusterBkg: theme === 'dark' ? '#111827' : '#f8fafc',
      clusterBorder: theme === 'dark' ? '#475569' : '#94a3b8',
      fontFamily: 'Helvetica, Arial, sans-serif',
      fontSize: '15px',
    },
  };
  return `%%{init: ${JSON.stringify(init)}}%%`;
}

/**
 * The `linkStyle` body of one edge: its kind colour and width, and in a trace overlay either the taken
 * emphasis or the dimmed look.
 */
export function edgeStyle(theme: Theme, style: EdgeStyle, trace: 'taken' | 'untaken' | undefined): string {
  const p = palette(theme);
  const base: Record<EdgeStyle, number> = {
    next: 1.5,
    retry: 2,
    exhausted: 3,
    salvage: 2.5,
    deadline: 2,
    entry: 1.5,
  };
  const width = base[style] + (trace === 'taken' ? 2 : 0);
  const colour = trace === 'taken' && style === 'next' ? p.taken : p.edges[style];
  // Labels of untaken edges fade with their lines, so only the path the run took reads as coloured.
  const text = trace === 'untaken' ? p.untakenText : p.edges[style];
  const parts = [`stroke:${colour}`, `stroke-width:${width}px`, `color:${text}`];
  // A deadline edge is dotted finer than a retry's dashes, so the two read apart without colour.
  if (style === 'deadline') parts.push('stroke-dasharray:2 4');
  if (trace === 'untaken') parts.push('stroke-opacity:0.3');
  return parts.join(',');
}
