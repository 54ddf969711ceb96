import { describe, expect, it } from 'vitest';
import { exportDag } from '../../src/document/export.ts';
import { hashDag } from '../../src/document/hash.ts';
import { loadDagFile, loadDagText } from '../../src/document/load.ts';
import type { Dag } from '../../src/document/model.ts';
import { FORMS, readJson } from './helpers.ts';

interface WrittenDag {
  budgets: { max: number }[];
  placements: { label?: string; routes: { to: string; kind?: string }[] }[];
}

function nth<T>(list: T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`no item ${index} in the fixture`);
  return item;
}

async function canonical(): Promise<Dag> {
  const { dag } = await loadDagFile('dags/compose-validate.jsonld');
  if (!dag) throw new Error('compose-validate did not load');
  return dag;
}

describe('alternative JSON-LD forms of compose-validate', () => {
  it.each(FORMS)('the %s form loads through the JSON-LD path to the canonical model', async (_form, file) => {
    const result = await loadDagFile(file);
    expect(result.problems).toEqual([]);
    expect(result.form).toBe('jsonld');
    expect(result.dag).toStrictEqual(await canonical());
  });

  it.each(FORMS)('the %s form hashes like the canonical document', async (_form, file) => {
    const { dag } = await loadDagFile(file);
    if (!dag) throw new Error(`${file} did not load`);
    expect(await hashDag(dag)).toBe(await hashDag(await canonical()));
  });

  it('hashes to 64 hex digits, cached per model', async () => {
    const dag = await canonical();
    const hash = await hashDag(dag);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashDag(dag)).toBe(hashDag(dag));
  });

  it.each([
    ['a budget bound', (d: WrittenDag) => (nth(d.budgets, 0).max = 4)],
    ['a route target', (d: WrittenDag) => (nth(nth(d.placements, 2).routes, 1).to = 'done')],
    ['a route kind', (d: WrittenDag) => (nth(nth(d.placements, 0).routes, 2).kind = 'next')],
    ['a label', (d: WrittenDag) => (nth(d.placements, 3).label = 'Finished')],
  ])('changing %s changes the hash', async (_what, change) => {
    const document = readJson('dags/compose-validate.jsonld');
    change(document as unknown as WrittenDag);
    const { dag, problems } = await loadDagText(JSON.stringify(document));
    expect(problems).toEqual([]);
    if (!dag) throw new Error('changed document did not load');
    expect(await hashDag(dag)).not.toBe(await hashDag(await canonical()));
  });

  it('rejects a document holding two DAGs with E_JSONLD', async () => {
    const one = readJson('dags/compose-validate.jsonld');
    const two = readJson('dags/checkout.jsonld');
    const { '@context': _a, ...first } = one;
    const { '@context': _b, ...second } = two;
    const { dag, problems } = await loadDagText(
      JSON.stringify({ '@context': one['@context'], '@graph': [first, second] }),
    );
    expect(dag).toBeUndefined();
    expect(problems).toMatchObject([
      { code: 'E_JSONLD', message: expect.stringContaining('2 nodes of type Dag') },
    ]);
    expect(problems[0]?.message).toContain('urn:switchyard:dag:checkout');
  });

  it('rejects a JSON-LD document without a Dag node with E_JSONLD', async () => {
    const document = readJson('dags/compose-validate.jsonld');
    document['@context'] = [document['@context']];
    delete document['@type'];
    const { problems } = await loadDagText(JSON.stringify(document));
    expect(problems).toMatchObject([
      { code: 'E_JSONLD', message: expect.stringContaining('"@type": "Dag"') },
    ]);
  });
});

describe('exportDag', () => {
  it('writes the compact form that loads back to the same model', async () => {
    const dag = await canonical();
    const text = await exportDag(dag, 'compact');
    expect((await loadDagText(text)).dag).toStrictEqual(dag);
  });

  it('writes an expanded form that loads back to the same model', async () => {
    const dag = await canonical();
    const expanded = JSON.parse(await exportDag(dag, 'expanded')) as unknown[];
    expect(expanded).toHaveLength(1);
    expect(expanded[0]).toMatchObject({
      '@id': dag.id,
      '@type': ['https://w3id.org/switchyard/vocab#Dag'],
    });
    expect((await loadDagText(JSON.stringify(expanded))).dag).toStrictEqual(dag);
  });

  it('writes canonical N-Quads whose SHA-256 is the hash', async () => {
    const { createHash } = await import('node:crypto');
    const dag = await canonical();
    const nquads = await exportDag(dag, 'nquads');
    expect(nquads).toContain(
      '<urn:switchyard:dag:compose-validate> <https://w3id.org/switchyard/vocab#name>',
    );
    expect(createHash('sha256').update(nquads).digest('hex')).toBe(await hashDag(dag));
  });
});
