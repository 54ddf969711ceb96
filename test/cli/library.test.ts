import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryAround } from '../../src/cli/library.ts';
import type { Dag } from '../../src/document/model.ts';

const CV = fileURLToPath(new URL('../../dags/compose-validate.jsonld', import.meta.url));

let dir: string;
/** Writes compose-validate under another IRI at `path` (below the temporary folder). */
async function documentAt(path: string, id: string): Promise<void> {
  const text = (await readFile(CV, 'utf8')).replace('urn:switchyard:dag:compose-validate', id);
  await mkdir(join(dir, path, '..'), { recursive: true });
  await writeFile(join(dir, path), text);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-library-'));
  await documentAt('work/main.jsonld', 'urn:t:main');
  await documentAt('work/sibling.jsonld', 'urn:t:sibling');
  await documentAt('work/sub/below.jsonld', 'urn:t:below');
  await documentAt('work/node_modules/pkg/dep.jsonld', 'urn:t:dep');
  await documentAt('work/.hidden/secret.jsonld', 'urn:t:secret');
  await documentAt('project/dags/top.jsonld', 'urn:t:top');
  await documentAt('project/dags/deep/nested.jsonld', 'urn:t:nested');
  await documentAt('project/dags/node_modules/x.jsonld', 'urn:t:dags-dep');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const IRIS = ['main', 'sibling', 'top', 'nested', 'below', 'dep', 'secret', 'dags-dep'].map(
  (n) => `urn:t:${n}`,
);

/** A DAG that embeds every IRI of the test, so that the library has to look for each. */
const caller = {
  id: 'urn:t:caller',
  placements: IRIS.map((iri, i) => ({
    key: `e${i}`,
    kind: 'embed',
    dag: iri,
    input: [],
    result: [],
    routes: [],
  })),
} as unknown as Dag;

describe('libraryAround', () => {
  it('takes the top level of the document folder and all of <cwd>/dags, never node_modules or dot-folders', async () => {
    const library = await libraryAround([caller], ['../work/main.jsonld'], join(dir, 'project'));
    const has = (id: string) => library.get(id) !== undefined;
    expect(['urn:t:sibling', 'urn:t:top', 'urn:t:nested'].filter(has)).toHaveLength(3);
    // The named file is checked on its own, not read again as a sibling of itself.
    expect(has('urn:t:main')).toBe(false);
    expect(['urn:t:below', 'urn:t:dep', 'urn:t:secret', 'urn:t:dags-dep'].filter(has)).toEqual([]);
  });

  it('skips folders that do not exist instead of failing', async () => {
    const library = await libraryAround(
      [caller],
      [join(dir, 'no/such/folder/x.jsonld')],
      join(dir, 'nowhere'),
    );
    expect(library.get('urn:t:main')).toBeUndefined();
  });
});
