/** Pictures of runs kept in the XDG cache folder: a path drawn before is not drawn again. */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedPicture, renderCacheFolder, renderKey } from '../../examples/archivist/render-cache.ts';

const dir = await mkdtemp(join(tmpdir(), 'archivist-render-cache-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the render cache', () => {
  it('lives in $XDG_CACHE_HOME/archivist/render, else ~/.cache/archivist/render, else nowhere', () => {
    expect(renderCacheFolder({ XDG_CACHE_HOME: '/x/cache', HOME: '/home/r' })).toBe(
      '/x/cache/archivist/render',
    );
    expect(renderCacheFolder({ XDG_CACHE_HOME: 'relative', HOME: '/home/r' })).toBe(
      '/home/r/.cache/archivist/render',
    );
    expect(renderCacheFolder({})).toBeUndefined();
  });

  it('draws a picture once and serves the same text from the cache after that', async () => {
    const folder = join(dir, 'render');
    let drawn = 0;
    const draw = async () => {
      drawn += 1;
      return new TextEncoder().encode(`<svg>${drawn}</svg>`);
    };
    const first = await cachedPicture(folder, 'flowchart TD\n  a --> b\n', 'svg', draw);
    const again = await cachedPicture(folder, 'flowchart TD\n  a --> b\n', 'svg', draw);
    expect(new TextDecoder().decode(again)).toBe(new TextDecoder().decode(first));
    expect(drawn).toBe(1);
    await cachedPicture(folder, 'flowchart TD\n  a --> c\n', 'svg', draw);
    await cachedPicture(folder, 'flowchart TD\n  a --> b\n', 'png', draw);
    expect(drawn).toBe(3);
    expect((await readdir(folder)).sort()).toEqual(
      [
        `${renderKey('flowchart TD\n  a --> b\n', 'svg')}.svg`,
        `${renderKey('flowchart TD\n  a --> c\n', 'svg')}.svg`,
        `${renderKey('flowchart TD\n  a --> b\n', 'png')}.png`,
      ].sort(),
    );
  });

  it('draws without a cache folder, and when the folder cannot be written', async () => {
    let drawn = 0;
    const draw = async () => {
      drawn += 1;
      return new Uint8Array([1]);
    };
    await cachedPicture(undefined, 'x', 'svg', draw);
    // A folder inside a file cannot be made.
    const file = join(dir, 'a-file');
    await writeFile(file, '');
    await cachedPicture(join(file, 'render'), 'x', 'svg', draw);
    expect(drawn).toBe(2);
  });
});
