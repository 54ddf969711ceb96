/**
 * The files the page is made of: its own plain ES modules and stylesheet (served as they are, no build
 * step), and the `mermaid` package's browser bundle with the ELK layout, served from `node_modules` so that
 * the page draws with the very version `switchyard render` uses, without a CDN or any network.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SwitchyardError } from '../errors.ts';
import { resolveInside } from './safe-path.ts';

/** The page's own files. */
export const PAGE_FOLDER = fileURLToPath(new URL('./page/', import.meta.url));

/** Folders the page's scripts are served from: the page, mermaid's `dist/`, and the ELK layout's. */
export interface AssetFolders {
  readonly page: string;
  readonly mermaid: string;
  /** Absent when `@mermaid-js/layout-elk` is not installed: diagrams then use Mermaid's own layout. */
  readonly elk?: string;
  /** d3's browser bundle, which `mermaid` depends on, for zooming and panning a diagram; absent, no zoom. */
  readonly d3?: string;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

function distOf(specifier: string): string | undefined {
  try {
    return dirname(fileURLToPath(import.meta.resolve(specifier)));
  } catch {
    return undefined;
  }
}

/** The folder of d3's bundles, found from `mermaid`'s own folder (d3 is mermaid's dependency, not ours). */
function d3Of(mermaid: string): string | undefined {
  try {
    return dirname(createRequire(join(mermaid, 'mermaid.esm.min.mjs')).resolve('d3'));
  } catch {
    return undefined;
  }
}

/**
 * The asset folders, or `E_MISSING_PACKAGE` saying what to install when `mermaid` is missing.
 * @example
 * const folders = assetFolders(); // { page: …/src/ui/page/, mermaid: …/node_modules/mermaid/dist, elk: …, d3: … }
 */
export function assetFolders(): AssetFolders {
  const mermaid = distOf('mermaid');
  if (mermaid === undefined) {
    throw new SwitchyardError(
      'E_MISSING_PACKAGE',
      'the web viewer draws diagrams with the package mermaid, which is not installed: run `npm install mermaid`',
    );
  }
  const elk = distOf('@mermaid-js/layout-elk');
  const d3 = d3Of(mermaid);
  return {
    page: PAGE_FOLDER,
    mermaid,
    ...(elk === undefined ? {} : { elk }),
    ...(d3 === undefined ? {} : { d3 }),
  };
}

/** A file to send, or why not. */
export type AssetResult =
  | { readonly ok: true; readonly body: Uint8Array; readonly type: string }
  | { readonly ok: false; readonly status: 400 | 403 | 404; readonly reason: string };

// The page's files and Mermaid's change only with the installed version: each is read from disk once.
const cache = new Map<string, AssetResult & { ok: true }>();

/** The file `segments` names inside `folder`, with its content type; only known file types are served. */
export async function readAsset(folder: string, segments: readonly string[]): Promise<AssetResult> {
  const key = `${folder}\u0000${segments.join('/')}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const found = await resolveInside(folder, segments);
  if (!found.ok) return found;
  const type = TYPES[extname(found.path)];
  if (type === undefined) return { ok: false, status: 404, reason: 'not a file the page uses' };
  const body = await readFile(found.path).catch(() => undefined);
  if (body === undefined) return { ok: false, status: 404, reason: 'no such file' };
  const asset = { ok: true as const, body, type };
  cache.set(key, asset);
  return asset;
}
