/**
 * The viewer's HTTP application: the page (one HTML shell for every page route, its scripts, Mermaid), the
 * JSON and server-sent event endpoints, and the guards every request passes first: no path that climbs out
 * of a served folder, however encoded, and only the Host names the viewer is bound to.
 */
import { Hono } from 'hono';
import { VERSION } from '../version.ts';
import { addDocumentRoutes, segmentsAfter } from './api-documents.ts';
import { addRunRoutes, type RunApiOptions } from './api-runs.ts';
import { type AssetFolders, readAsset } from './assets.ts';
import type { DocumentCatalog } from './documents.ts';
import type { ViewerContext, ViewerHono } from './env.ts';
import type { FolderWatch } from './folder-watch.ts';
import { refusalPage } from './refusal-page.ts';
import { resolveInside, traversalIn } from './safe-path.ts';
import type { StoreAccess } from './store-access.ts';

/** What the application serves. */
export interface ViewerParts {
  readonly catalog: DocumentCatalog;
  readonly watch: FolderWatch;
  readonly store: StoreAccess;
  readonly assets: AssetFolders;
  /** The documents folder as the page names it. */
  readonly folderShown: string;
  /** Host names (without port) a request may be addressed to; empty to accept any (`--host 0.0.0.0`). */
  readonly hosts: readonly string[];
  readonly runs?: RunApiOptions;
  /** Told of an unexpected failure while answering a request; default: nothing. */
  readonly onBug?: (error: unknown) => void;
}

// The page's own scripts only; Mermaid writes its styles into the SVG, which needs inline styles.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** The Host header's name without its port (`[::1]:4317` → `[::1]`). */
function hostName(host: string | undefined): string {
  if (host === undefined) return '';
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : (host.split(':')[0] ?? '');
}

/**
 * Builds the application; {@link startViewer} serves it.
 * @example
 * const app = viewerApp(parts);
 * const response = await app.request('/api/documents');
 */
export function viewerApp(parts: ViewerParts): ViewerHono {
  const app: ViewerHono = new Hono();

  app.use(async (c, next) => {
    c.header('Content-Security-Policy', CSP);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    // The raw request line: URL parsing has already resolved `/../` and `%2e%2e` in c.req.url.
    const raw = c.env?.incoming?.url ?? new URL(c.req.url).pathname;
    const traversal = traversalIn(raw);
    if (traversal !== undefined) return refusalPage(c, 400, `refused: ${traversal}`);
    if (parts.hosts.length > 0 && !parts.hosts.includes(hostName(c.req.header('host')))) {
      return refusalPage(
        c,
        403,
        'refused: this viewer answers only requests addressed to the host it listens on',
      );
    }
    await next();
  });

  app.get('/api/meta', async (c) => {
    const state = await parts.store.hold();
    if (state.ok) state.release();
    return c.json({
      version: VERSION,
      folder: parts.folderShown,
      store: parts.store.shown,
      storeProblem: state.ok ? undefined : { code: state.code, message: state.message },
      readOnly: true,
      elk: parts.assets.elk !== undefined,
      zoom: parts.assets.d3 !== undefined,
    });
  });
  addDocumentRoutes(app, parts.catalog, parts.watch, parts.folderShown);
  addRunRoutes(app, parts.store, parts.runs);
  app.all('/api/*', (c) => c.json({ error: { code: 'E_NOT_FOUND', message: 'no such endpoint' } }, 404));

  const serveFrom = (prefix: string, folder: string | undefined) =>
    app.get(`${prefix}*`, async (c) => {
      if (folder === undefined) return refusalPage(c, 404, 'not installed');
      const asset = await readAsset(folder, segmentsAfter(new URL(c.req.url).pathname, prefix));
      if (!asset.ok) return refusalPage(c, asset.status, `refused: ${asset.reason}`);
      c.header('Content-Type', asset.type);
      // Vendor files change only with the installed version; the page's own files are checked every load.
      c.header('Cache-Control', prefix === '/assets/' ? 'no-cache' : 'public, max-age=3600');
      return c.body(asset.body as Uint8Array<ArrayBuffer>);
    });
  serveFrom('/assets/', parts.assets.page);
  serveFrom('/vendor/mermaid/', parts.assets.mermaid);
  serveFrom('/vendor/elk/', parts.assets.elk);
  serveFrom('/vendor/d3/', parts.assets.d3);

  const shell = async (c: ViewerContext): Promise<Response> => {
    const asset = await readAsset(parts.assets.page, ['index.html']);
    if (!asset.ok) return refusalPage(c, 404, 'the page is missing from this install');
    c.header('Cache-Control', 'no-cache');
    return c.html(new TextDecoder().decode(asset.body));
  };
  app.get('/', shell);
  app.get('/runs', shell);
  app.get('/runs/:id', shell);
  app.get('/documents/*', async (c) => {
    const found = await resolveInside(
      parts.catalog.root,
      segmentsAfter(new URL(c.req.url).pathname, '/documents/'),
    );
    if (!found.ok) return refusalPage(c, found.status, `refused: ${found.reason}`);
    return shell(c);
  });
  app.notFound((c) => refusalPage(c, 404, 'no such page'));
  // A bug must not become a blank page: the page gets one line, and the terminal the stack to report.
  app.onError((error, c) => {
    parts.onBug?.(error);
    const message = `the viewer failed: ${error instanceof Error ? error.message : String(error)}; please report it`;
    return c.json({ error: { code: 'E_INTERNAL', message } }, 500);
  });
  return app;
}
