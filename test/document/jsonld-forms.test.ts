import { describe, expect, it } from 'vitest';
import { hashDag } from '../../src/document/hash.ts';
import { loadDagFile, loadDagText } from '../../src/document/load.ts';
import type { Dag } from '../../src/document/model.ts';
import { readJson, SHIPPED } from './helpers.ts';
import { GRAPH_FORMS } from './jsonld-forms.ts';

const CASES = SHIPPED.flatMap((file) => Object.keys(GRAPH_FORMS).map((form) => [file, form] as const));

describe('every JSON-LD form of a shipped document loads as the same DAG with the same hash', () => {
  it.each(CASES)('%s, %s', async (file, form) => {
    const { dag } = await loadDagFile(file);
    if (!dag) throw new Error(`${file} does not load`);
    const make = GRAPH_FORMS[form];
    if (!make) throw new Error(`no form ${form}`);
    const written = await make(readJson(file));
    const loaded = await loadDagText(JSON.stringify(written, null, 2), `${file} (${form})`);
    expect(loaded.problems).toEqual([]);
    expect(loaded.dag).toStrictEqual(dag);
    expect(await hashDag(loaded.dag as Dag)).toBe(await hashDag(dag));
  });
});

describe('a document that imports the context', () => {
  it('leaves every later document of the process loading (the processor is never handed an @import)', async () => {
    const document = readJson('dags/checkout.jsonld');
    for (let i = 0; i < 2; i++) {
      const imported = { ...document, '@context': { '@version': 1.1, '@import': document['@context'] } };
      expect((await loadDagText(JSON.stringify(imported))).problems).toEqual([]);
    }
    for (const file of SHIPPED) {
      const expanded = await GRAPH_FORMS.expanded?.(readJson(file));
      const { problems } = await loadDagText(JSON.stringify(expanded), file);
      expect(problems, file).toEqual([]);
    }
  });
});

describe('forms that add to the graph are refused, whichever direction they write the edge in', () => {
  const document = readJson('dags/compose-validate.jsonld');

  it('a node set aside in @included that the DAG does not reach is E_JSONLD_LOSSY where it is written', async () => {
    const orphan = { '@id': 'urn:t:orphan', label: 'not linked' };
    const text = JSON.stringify({ ...document, '@included': [orphan] }, null, 2);
    const { dag, problems } = await loadDagText(text, 'included.jsonld');
    expect(dag).toBeUndefined();
    expect(problems).toMatchObject([
      {
        code: 'E_JSONLD_LOSSY',
        pointer: '/@included/0',
        message: expect.stringContaining("'urn:t:orphan' is not reached from the DAG"),
        line: expect.any(Number),
      },
    ]);
  });

  it('a node with an edge to the DAG (not from it) is E_JSONLD_LOSSY', async () => {
    const text = JSON.stringify({
      ...document,
      '@reverse': { 'sy:admires': [{ '@id': 'urn:t:fan', label: 'a fan of it' }] },
    });
    const { dag, problems } = await loadDagText(text, 'fan.jsonld');
    expect(dag).toBeUndefined();
    expect(problems).toMatchObject([
      { code: 'E_JSONLD_LOSSY', message: expect.stringContaining("'urn:t:fan' is not reached") },
    ]);
  });
});
