import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDagFile, loadDagFolder, loadDagText, toModel } from '../../src/document/load.ts';
import { validateSchema } from '../../src/document/schema.ts';
import { toDocument } from '../../src/document/serialise.ts';
import { readJson, SHIPPED } from './helpers.ts';

describe('shipped DAGs', () => {
  it('finds the shipped documents', () => {
    expect(SHIPPED.length).toBeGreaterThanOrEqual(5);
  });

  it.each(SHIPPED)('%s loads through the fast path with no problems', async (file) => {
    const result = await loadDagFile(file);
    expect(result.problems).toEqual([]);
    expect(result.form).toBe('canonical');
    expect(result.dag?.id).toBe(readJson(file)['@id']);
  });

  it.each(SHIPPED)('%s round-trips through toDocument', async (file) => {
    const { dag } = await loadDagFile(file);
    if (!dag) throw new Error(`${file} did not load`);
    const document = toDocument(dag);
    expect(validateSchema(document)).toEqual([]);
    const again = await loadDagText(JSON.stringify(document));
    expect(again.form).toBe('canonical');
    expect(again.dag).toStrictEqual(dag);
    expect(toDocument(again.dag ?? dag)).toStrictEqual(document);
  });
});

describe('toModel', () => {
  it('fills in defaults, sorts every set and keeps the entrypoints in the order written', () => {
    const dag = toModel({
      '@id': 'urn:x',
      name: 'x',
      version: '1',
      entrypoints: ['b', 'a', 'b'],
      budgets: [
        { name: 'z', max: 1 },
        { name: 'a', max: 2 },
      ],
      placements: [
        { key: 'g', kind: 'gather', into: '/r', routes: [{ output: 'completed', to: 'end' }] },
        {
          key: 'e',
          kind: 'embed',
          dag: 'urn:y',
          routes: [
            { output: 'failed', to: 'end', kind: 'salvage' },
            {
              output: 'completed',
              to: 'g',
              kind: 'retry',
              budget: 'a',
              exhausted: 'end',
              resets: ['z', 'a'],
            },
          ],
        },
        { key: 'end', kind: 'terminal', outcome: 'completed' },
      ],
    });
    expect(dag.entrypoints).toEqual(['b', 'a']);
    expect(dag.budgets.map((b) => b.name)).toEqual(['a', 'z']);
    expect(dag.placements.map((p) => p.key)).toEqual(['e', 'end', 'g']);
    const [embed, end, gather] = dag.placements;
    expect(embed).toMatchObject({ kind: 'embed', input: [], result: [] });
    expect(embed?.routes.map((r) => r.output)).toEqual(['completed', 'failed']);
    expect(embed?.routes[0]?.resets).toEqual(['a', 'z']);
    expect(end?.routes).toEqual([]);
    expect(gather).toMatchObject({ reducer: 'collect', require: 'all' });
    expect(gather?.routes[0]?.kind).toBe('next');
  });
});

describe('files and folders', () => {
  it('reports a missing file as E_FILE_NOT_FOUND', async () => {
    const result = await loadDagFile('dags/no-such-dag.jsonld');
    expect(result.dag).toBeUndefined();
    expect(result.problems).toMatchObject([
      {
        code: 'E_FILE_NOT_FOUND',
        file: 'dags/no-such-dag.jsonld',
        message: expect.stringContaining('check the path'),
      },
    ]);
  });

  it('reports a folder given as a file as E_FILE_READ', async () => {
    const result = await loadDagFile('dags');
    expect(result.problems.map((p) => p.code)).toEqual(['E_FILE_READ']);
  });

  it('loads folders recursively into a library by id', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-doc-'));
    await writeFile(join(dir, 'broken.jsonld'), '{ "@context": ');
    await writeFile(join(dir, 'notes.txt'), 'not a DAG');
    const { results, library } = await loadDagFolder(['dags', dir]);
    expect(new Set(results.keys())).toEqual(new Set([...SHIPPED, join(dir, 'broken.jsonld')]));
    expect([...results.keys()].slice(0, SHIPPED.length)).toEqual([...SHIPPED].sort());
    expect(results.get(join(dir, 'broken.jsonld'))?.problems[0]?.code).toBe('E_JSON_SYNTAX');
    expect(library.get('urn:switchyard:dag:compose-validate')?.name).toBe('Compose and validate');
    expect(library.get('urn:switchyard:dag:missing')).toBeUndefined();
  });
});
