import { describe, expect, it } from 'vitest';
import { hashDag } from '../../src/document/hash.ts';
import { loadDagFile, loadDagText } from '../../src/document/load.ts';
import type { Dag } from '../../src/document/model.ts';
import { validateSchema } from '../../src/document/schema.ts';
import { loadPolicyFile } from '../../src/policy/load.ts';
import { FORMS, readJson, SHIPPED } from './helpers.ts';

const SCHEMA_PATH = '../schemas/dag.schema.json';

/** `document` with `$schema` written first, as editors expect it. */
function withSchema(document: unknown, value: unknown = SCHEMA_PATH): string {
  return JSON.stringify({ $schema: value, ...(document as object) }, null, 2);
}

async function loaded(file: string): Promise<{ dag: Dag; hash: string }> {
  const { dag } = await loadDagFile(file);
  if (!dag) throw new Error(`${file} does not load`);
  return { dag, hash: await hashDag(dag) };
}

describe('a "$schema" for editors', () => {
  it.each(SHIPPED)('%s with "$schema" loads on the fast path to the same model and hash', async (file) => {
    const plain = await loaded(file);
    const result = await loadDagText(withSchema(readJson(file)), file);
    expect(result.problems).toEqual([]);
    expect(result.form).toBe('canonical');
    expect(result.dag).toStrictEqual(plain.dag);
    expect(await hashDag(result.dag as Dag)).toBe(plain.hash);
  });

  // An expanded document is a top-level array, which has no place for "$schema".
  it.each(FORMS.filter(([form]) => form !== 'expanded'))(
    'the %s form with "$schema" loads to the same model and hash',
    async (_form, file) => {
      const canonical = await loaded('dags/compose-validate.jsonld');
      const result = await loadDagText(withSchema(readJson(file)), file);
      expect(result.problems).toEqual([]);
      expect(result.dag).toStrictEqual(canonical.dag);
      expect(await hashDag(result.dag as Dag)).toBe(canonical.hash);
    },
  );

  it('is allowed by schemas/dag.schema.json, so an editor checking against it is content', () => {
    expect(validateSchema(JSON.parse(withSchema(readJson('dags/review.jsonld'))))).toEqual([]);
  });

  it.each([
    ['the canonical form', 'dags/compose-validate.jsonld'],
    ['a JSON-LD form', 'test/fixtures/forms/compose-validate.inline-context.jsonld'],
  ])('in %s, a "$schema" that is not a string is E_SCHEMA at its position', async (_form, file) => {
    const { dag, problems } = await loadDagText(withSchema(readJson(file), 42), 'x.jsonld');
    expect(dag).toBeUndefined();
    expect(problems).toMatchObject([{ code: 'E_SCHEMA', pointer: '/$schema', line: 2, column: 3 }]);
  });

  it('a policy with "$schema" loads (the shipped policies carry one)', async () => {
    expect(readJson('dags/compose-validate.policy.json').$schema).toBe('../schemas/policy.schema.json');
    await expect(loadPolicyFile('dags/compose-validate.policy.json')).resolves.toBeDefined();
  });
});
