/**
 * Renders Mermaid text to SVG or PNG with mermaid-cli, through one headless Chromium reused for every
 * diagram (launching a browser costs far more than rendering one diagram).
 */
import { isSwitchyardError, SwitchyardError } from '../errors.ts';
import { importOptional, RENDERING_PACKAGES } from '../optional-import.ts';
import { findChromium, launchChromium } from './chromium.ts';
import { palette, type Theme } from './theme.ts';

/** The image formats a renderer writes. */
export type ImageFormat = 'svg' | 'png';

/** Options of {@link createRenderer}. */
export interface RendererOptions {
  /** Chromium executable; default: found by `findChromium` (env, then system paths). */
  readonly chromium?: string | undefined;
  /** Background and default theme; default `light`. The diagram's own init directive still wins. */
  readonly theme?: Theme;
  /** PNG pixels per CSS pixel; default 2, so labels stay legible. */
  readonly scale?: number;
  /** Environment read by `findChromium`; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The defaults of {@link RendererOptions}. */
export const defaultRendererOptions = Object.freeze({ theme: 'light' as Theme, scale: 2 });

/** One browser, many diagrams. Close it when done. */
export interface Renderer {
  /** Renders one Mermaid definition; syntax errors throw `E_MERMAID_SYNTAX` with the offending line. */
  render(definition: string, format: ImageFormat, options?: { readonly theme?: Theme }): Promise<Uint8Array>;
  close(): Promise<void>;
}

const SVG_ID = 'switchyard';

/** The Mermaid configuration every diagram is rendered with: plain SVG text, limits raised for big DAGs. */
function mermaidConfig(theme: Theme): Record<string, unknown> {
  return {
    theme: palette(theme).mermaidTheme,
    htmlLabels: false,
    flowchart: { htmlLabels: false, useMaxWidth: false },
    maxEdges: 20_000,
    // ELK breaks cycles by the order placements are written (the flow from the entrypoint), so retry edges
    // are the ones drawn back up and the diagram reads from the top down.
    elk: { cycleBreakingStrategy: 'MODEL_ORDER', considerModelOrder: 'NODES_AND_EDGES' },
    maxTextSize: 10_000_000,
    deterministicIds: true,
    deterministicIDSeed: SVG_ID,
    securityLevel: 'strict',
    // The page's console is copied to the process's stderr; only fatal errors may print.
    logLevel: 5,
  };
}

// Liberation Sans is metric-compatible with Arial, so text measured in Chromium fits its box elsewhere.
// Mermaid draws edge label backgrounds half transparent; opaque ones keep a crossing edge from running
// through the words.
const DIAGRAM_CSS = [
  `#${SVG_ID} text, #${SVG_ID} tspan { font-family: Arial, 'Liberation Sans', Helvetica, sans-serif; }`,
  `#${SVG_ID} .edgeLabel rect.background { opacity: 0.92; }`,
].join('\n');

/**
 * Launches one headless Chromium and returns a renderer that reuses it. Without mermaid-cli installed it
 * throws `E_MISSING_PACKAGE` saying how to install it.
 * @example
 * const renderer = await createRenderer({ theme: 'dark' });
 * try {
 *   await writeFile('dag.svg', await renderer.render(toMermaid(dag, { theme: 'dark' }), 'svg'));
 * } finally {
 *   await renderer.close();
 * }
 */
export async function createRenderer(options: RendererOptions = {}): Promise<Renderer> {
  // mermaid-cli is an optional peer dependency, loaded only when a diagram is rendered to an image.
  const { renderMermaid } = await importOptional(RENDERING_PACKAGES, () => import('@mermaid-js/mermaid-cli'));
  const executablePath = findChromium({
    path: options.chromium,
    ...(options.env ? { env: options.env } : {}),
  });
  const launched = await launchChromium(executablePath);
  const scale = options.scale ?? defaultRendererOptions.scale;
  const defaultTheme = options.theme ?? defaultRendererOptions.theme;
  return {
    async render(definition, format, renderOptions = {}) {
      const theme = renderOptions.theme ?? defaultTheme;
      try {
        const { data } = await renderMermaid(launched.browser, definition, format, {
          viewport: { width: 1200, height: 800, deviceScaleFactor: scale },
          backgroundColor: palette(theme).background,
          mermaidConfig: mermaidConfig(theme),
          myCSS: DIAGRAM_CSS,
          svgId: SVG_ID,
        });
        return data;
      } catch (error) {
        throw renderError(error, definition);
      }
    },
    close: () => launched.close(),
  };
}

/** Turns a failure inside the page into a SwitchyardError: syntax errors name the definition's line. */
function renderError(error: unknown, definition: string): SwitchyardError {
  if (isSwitchyardError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split('\n')[0] ?? message;
  const syntax = /(?:Parse|Lexical) error on line (\d+)/u.exec(message);
  if (syntax) {
    const line = Number(syntax[1]);
    const text = definition.split('\n')[line - 1]?.trim() ?? '';
    return new SwitchyardError(
      'E_MERMAID_SYNTAX',
      `Mermaid syntax error on line ${line}: ${text.slice(0, 120)} — ${first}; fix that line of the definition`,
      { cause: error },
    );
  }
  return new SwitchyardError(
    'E_RENDER',
    `rendering failed: ${first}; check the definition and the Chromium install`,
    {
      cause: error,
    },
  );
}
