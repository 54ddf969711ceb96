/**
 * Starts the web viewer: checks the documents folder, opens the run store read-only when first needed,
 * watches the folder, and serves the application on one address (127.0.0.1 unless told otherwise). Nothing
 * it serves changes the store or the documents.
 */
import { realpathSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { relative, resolve } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { SwitchyardError } from '../errors.ts';
import type { RunApiOptions } from './api-runs.ts';
import { viewerApp } from './app.ts';
import { assetFolders } from './assets.ts';
import { announceViewer } from './discovery.ts';
import { documentCatalog } from './documents.ts';
import { watchFolder } from './folder-watch.ts';
import { storeAccess } from './store-access.ts';

/** Options of {@link startViewer}. */
export interface ViewerOptions {
  /** The documents folder. */
  readonly dags: string;
  /** The run store file (it may not exist yet). */
  readonly store: string;
  /** Default 4317; 0 picks a free port. */
  readonly port?: number;
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** The folder paths are shown relative to; default the process's. */
  readonly cwd?: string;
  /** Write the store's link file (`<store>.ui.json`) so `run` and `runs show` print run URLs; default true. */
  readonly announce?: boolean;
  /** Told of an unexpected failure while answering a request (the command prints its stack); default: nothing. */
  readonly onBug?: (error: unknown) => void;
  /** Clock and polling of the run endpoints (tests). */
  readonly runs?: RunApiOptions;
}

/** The defaults of {@link ViewerOptions}. */
export const defaultViewerOptions = Object.freeze({ port: 4317, host: '127.0.0.1', announce: true });

/** A running viewer. */
export interface Viewer {
  /** Its base URL, without a trailing slash. */
  readonly url: string;
  readonly port: number;
  /**
   * The viewer `run` and `runs show` link the store's runs to: this one, or another that served the store
   * first (it keeps the link); undefined without a link.
   */
  readonly linkedTo?: string;
  /** Stops serving, ends live streams, closes the store and removes its link if it holds it. */
  close(): Promise<void>;
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** Where the page names a file: relative to `cwd` when below it. */
function shown(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === '' ? '.' : rel.startsWith('..') ? path : rel;
}

/** The host names a request may carry: the loopback names for a loopback bind, any for a wildcard bind. */
function allowedHosts(host: string): string[] {
  if (host === '0.0.0.0' || host === '::') return [];
  if (LOOPBACK_NAMES.includes(host) || host === '::1') return LOOPBACK_NAMES;
  return [host.includes(':') ? `[${host}]` : host];
}

/**
 * Serves the viewer until `close` is called. A folder that is not one is `E_USAGE`; a port in use is
 * `E_USAGE` naming it; a missing `mermaid` package is `E_MISSING_PACKAGE`.
 * @example
 * const viewer = await startViewer({ dags: 'dags', store: '.switchyard/runs.db', port: 0 });
 * console.log(viewer.url);
 * await viewer.close();
 */
export async function startViewer(options: ViewerOptions): Promise<Viewer> {
  const cwd = options.cwd ?? process.cwd();
  const port = options.port ?? defaultViewerOptions.port;
  const host = options.host ?? defaultViewerOptions.host;
  const dags = resolve(cwd, options.dags);
  const store = resolve(cwd, options.store);
  if (!statSync(dags, { throwIfNoEntry: false })?.isDirectory()) {
    throw new SwitchyardError(
      'E_USAGE',
      `--dags ${options.dags} is not a folder: name the folder of your .jsonld documents`,
    );
  }
  const assets = assetFolders();
  const root = realpathSync(dags);
  const catalog = documentCatalog(root);
  const watch = await watchFolder(root, () => catalog.invalidate());
  const access = storeAccess(store, shown(store, cwd));
  const app = viewerApp({
    catalog,
    watch,
    store: access,
    assets,
    folderShown: shown(dags, cwd),
    hosts: allowedHosts(host),
    ...(options.onBug === undefined ? {} : { onBug: options.onBug }),
    // The commands that answer a parked item name the store as the viewer was told it.
    runs: { answering: { storePath: store, cwd }, ...options.runs },
  });
  const server = createAdaptorServer({ fetch: app.fetch, hostname: host });
  try {
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(port, host, () => {
        server.off('error', fail);
        done();
      });
    });
  } catch (error) {
    watch.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new SwitchyardError(
        'E_USAGE',
        `port ${port} on ${host} is in use: pass --port <n>, or --port 0 for any free port`,
      );
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EACCES') {
      throw new SwitchyardError(
        'E_USAGE',
        `cannot listen on ${host}:${port} (${code}): pass another --host or --port`,
      );
    }
    throw error;
  }
  // Checked while the first page loads anyway; starting it now makes that load fast.
  void catalog.list().catch(() => undefined);
  const address = server.address() as AddressInfo;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${urlHost}:${address.port}`;
  const announced = options.announce === false ? undefined : announceViewer(store, url);
  let closing: Promise<void> | undefined;
  return {
    url,
    port: address.port,
    ...(announced?.holder === undefined ? {} : { linkedTo: announced.holder.url }),
    close() {
      closing ??= (async () => {
        announced?.retract();
        watch.close();
        await new Promise<void>((done) => {
          server.close(() => done());
          // Live streams stay open until their clients go; the viewer is stopping, so end them.
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
        await access.close();
      })();
      return closing;
    },
  };
}
