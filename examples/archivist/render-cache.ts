/**
 * Pictures of runs already drawn, kept in the user's cache folder (XDG): `--render` draws a run through
 * mermaid-cli and a headless Chromium, seconds and a few hundred megabytes for one picture, while most runs
 * take one of a few paths and so give the same Mermaid text. A picture is stored under the SHA-256 of what
 * decides its bytes (the Mermaid text, the format and the renderer's version) and served from there the next
 * time, without starting the browser. Storing is best effort: a cache that cannot be written costs only the
 * drawing.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VERSION } from '../../src/version.ts';

/**
 * The folder pictures are cached in: `$XDG_CACHE_HOME/archivist/render`, else `~/.cache/archivist/render` (the
 * XDG base directory default; a relative `$XDG_CACHE_HOME` is ignored); undefined when neither is known.
 */
export function renderCacheFolder(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'archivist', 'render');
  const home = env.HOME;
  if (home !== undefined && home !== '') return join(home, '.cache', 'archivist', 'render');
  return undefined;
}

let rendererVersion: string | undefined;

/** The version of mermaid-cli that draws the pictures (a new one may draw them otherwise), or `unknown`. */
function mermaidCliVersion(): string {
  if (rendererVersion !== undefined) return rendererVersion;
  rendererVersion = 'unknown';
  try {
    let folder = dirname(fileURLToPath(import.meta.resolve('@mermaid-js/mermaid-cli')));
    for (let up = 0; up < 4; up++, folder = dirname(folder)) {
      try {
        const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
          name?: string;
          version?: string;
        };
        if (manifest.name === '@mermaid-js/mermaid-cli' && typeof manifest.version === 'string') {
          rendererVersion = manifest.version;
          break;
        }
      } catch {
        // Not the package's folder yet: look one up.
      }
    }
  } catch {
    // mermaid-cli is not installed: the renderer says so when it is asked to draw.
  }
  return rendererVersion;
}

/** The cache key of a picture: what decides its bytes. */
export function renderKey(text: string, format: string): string {
  return createHash('sha256')
    .update(`${format}\n${mermaidCliVersion()}\n${VERSION}\n${text}`, 'utf8')
    .digest('hex');
}

/**
 * The picture of `text` in `format`, from the cache in `folder` when it was drawn before, else drawn by
 * `draw` and stored there (written to a temporary file and renamed, so a reader never sees half of one).
 */
export async function cachedPicture(
  folder: string | undefined,
  text: string,
  format: string,
  draw: () => Promise<Uint8Array>,
): Promise<Uint8Array> {
  if (folder === undefined) return draw();
  const file = join(folder, `${renderKey(text, format)}.${format}`);
  const cached = await readFile(file).catch(() => undefined);
  if (cached !== undefined && cached.length > 0) return cached;
  const picture = await draw();
  const temporary = `${file}.${process.pid}.${randomUUID()}.tmp`;
  try {
    await mkdir(folder, { recursive: true });
    await writeFile(temporary, picture);
    await rename(temporary, file);
  } catch {
    await rm(temporary, { force: true }).catch(() => undefined);
  }
  return picture;
}
