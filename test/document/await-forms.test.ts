import jsonld from 'jsonld';
import { describe, expect, it } from 'vitest';
import { documentLoader } from '../../src/document/context-loader.ts';
import { canonicalNQuads, hashDag } from '../../src/document/hash.ts';
import { loadDagFile, loadDagText } from '../../src/document/load.ts';
import { type Dag, VOCAB_IRI } from '../../src/document/model.ts';
import { toDocument } from '../../src/document/serialise.ts';

const options = { documentLoader: documentLoader as never };

async function approval(): Promise<Dag> {
  const { dag: loaded } = await loadDagFile('dags/approval.jsonld');
  if (!loaded) throw new Error('dags/approval.jsonld did not load');
  return loaded;
}

/** Loads a JSON-LD form of a document and checks that it is the same model with the same hash. */
async function expectSame(form: unknown, model: Dag): Promise<void> {
  const loaded = await loadDagText(JSON.stringify(form));
  expect(loaded.problems).toEqual([]);
  expect(loaded.dag).toStrictEqual(model);
  expect(await hashDag(loaded.dag as Dag)).toBe(await hashDag(model));
}

describe('await placements in JSON-LD', () => {
  it('are seen by jsonld.js: every answer a sy:answer literal, the pointer sy:into', async () => {
    const model = await approval();
    const expanded = await jsonld.expand(toDocument(model) as never, options);
    const review = JSON.stringify(expanded);
    for (const answer of ['approved', 'rejected', 'revise'])
      expect(review).toContain(`{"@value":"${answer}"}`);
    const nquads = (await canonicalNQuads(model)).split('\n');
    const answers = nquads.filter((line) => line.includes(`<${VOCAB_IRI}answer>`));
    expect(answers.map((line) => /"([^"]+)"/.exec(line)?.[1]).sort()).toEqual([
      'approved',
      'rejected',
      'revise',
    ]);
    expect(nquads.some((line) => line.includes(`<${VOCAB_IRI}into> "/review"`))).toBe(true);
  });

  it('load as the same model and hash from the expanded, flattened and N-Quads forms, answers in any order', async () => {
    const model = await approval();
    const document = toDocument(model) as { placements: { key: string; answers?: string[] }[] };
    const shuffled = {
      ...document,
      placements: document.placements.map((p) =>
        p.answers === undefined ? p : { ...p, answers: [...p.answers].reverse() },
      ),
    };
    await expectSame(shuffled, model);
    await expectSame(await jsonld.expand(shuffled as never, options), model);
    await expectSame(await jsonld.flatten(shuffled as never, null as never, options), model);
    const nquads = await jsonld.toRDF(shuffled as never, { ...options, format: 'application/n-quads' });
    await expectSame(await jsonld.fromRDF(nquads as never, { format: 'application/n-quads' }), model);
  });

  it('change the hash when an answer changes', async () => {
    const model = await approval();
    const other: Dag = {
      ...model,
      placements: model.placements.map((p) =>
        p.kind === 'await' ? { ...p, answers: ['approved', 'rejected', 'rewrite'] } : p,
      ),
    };
    expect(await hashDag(other)).not.toBe(await hashDag(model));
  });
});
