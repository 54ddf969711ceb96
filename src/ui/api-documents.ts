/**
 * The document endpoints: every document of the served folder with its verdict, one document's view
 * (problems, placements, loops, diagram), and a server-sent event stream that says when documents changed.
 */
import { streamSSE } from 'hono/streaming';
import type { DocumentCatalog } from './documents.ts';
import type { ViewerHono } from './env.ts';
import type { FolderWatch } from './folder-watch.ts';
import { resolveInside } from './safe-path.ts';
import { endQuietly } from './sse.ts';

/** How long a page waits before it tries a dropped stream again. */
const RECONNECT_MS = 1000;

/** The path segments after `prefix` in a request's path, still percent-encoded. */
export function segmentsAfter(path: string, prefix: string): string[] {
  return path.slice(prefix.length).split('/');
}

/**
 * Adds `GET /api/documents`, `GET /api/documents/<path>` and `GET /api/documents-live` to `app`.
 * @example
 * addDocumentRoutes(app, catalog, watch, '/work/dags');
 */
export function addDocumentRoutes(
  app: ViewerHono,
  catalog: DocumentCatalog,
  watch: FolderWatch,
  shown: string,
): void {
  app.get('/api/documents', async (c) => c.json({ folder: shown, documents: await catalog.list() }));

  app.get('/api/documents/*', async (c) => {
    const raw = new URL(c.req.url).pathname;
    const found = await resolveInside(catalog.root, segmentsAfter(raw, '/api/documents/'));
    if (!found.ok) return c.json({ error: { code: 'E_REFUSED', message: found.reason } }, found.status);
    const path = found.path
      .slice(catalog.root.length + 1)
      .split('\\')
      .join('/');
    const view = await catalog.view(path);
    if (view === undefined) {
      return c.json(
        { error: { code: 'E_NOT_A_DOCUMENT', message: `${path} is not a .jsonld document of ${shown}` } },
        404,
      );
    }
    return c.json(view);
  });

  app.get('/api/documents-live', (c) =>
    streamSSE(
      c,
      async (stream) => {
        let wake: (() => void) | undefined;
        const changed: string[][] = [];
        const unsubscribe = watch.subscribe((paths) => {
          changed.push([...paths]);
          wake?.();
        });
        let closed = false;
        stream.onAbort(() => {
          closed = true;
          wake?.();
        });
        try {
          // A page reconnects a second after the viewer comes back, and then says it is live again.
          await stream.writeSSE({ event: 'ready', data: '{}', retry: RECONNECT_MS });
          while (!closed) {
            await new Promise<void>((resolve) => {
              wake = resolve;
              // A ping now and then keeps proxies and idle timers from closing the stream.
              setTimeout(resolve, 15_000).unref();
            });
            wake = undefined;
            if (closed) break;
            const paths = changed.splice(0).flat();
            await stream.writeSSE(
              paths.length === 0
                ? { event: 'ping', data: '{}' }
                : { event: 'changed', data: JSON.stringify({ paths }) },
            );
          }
        } finally {
          unsubscribe();
        }
      },
      endQuietly,
    ),
  );
}
