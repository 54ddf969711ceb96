import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expansionWork } from '../../src/document/expansion-work.ts';
import { expand } from '../../src/document/jsonld-api.ts';
import { MAX_EXPANSION_WORK } from '../../src/document/limits.ts';
import { loadDagText } from '../../src/document/load.ts';
import { runCli } from '../cli/run-cli.ts';
import { readJson, SHIPPED } from './helpers.ts';
import { countProcessorWork, LINEAR, type ProcessorWork, SUPERLINEAR } from './hostile-contexts.ts';
import { GRAPH_FORMS } from './jsonld-forms.ts';

let processor: ProcessorWork;
beforeAll(() => {
  processor = countProcessorWork();
});
afterAll(() => {
  processor.uninstall();
});

describe('documents whose contexts would make expansion blow up', () => {
  it.each(Object.keys(SUPERLINEAR))(
    '%s, over 20,000 placements, is E_TOO_COSTLY before the processor does any work',
    async (shape) => {
      const document = SUPERLINEAR[shape]?.(20_000);
      processor.reset();
      const { dag, problems } = await loadDagText(JSON.stringify(document, null, 1), 'hostile.jsonld');
      expect(processor.count()).toBe(0);
      expect(dag).toBeUndefined();
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatchObject({
        code: 'E_TOO_COSTLY',
        file: 'hostile.jsonld',
        pointer: expect.stringMatching(/^\/.*@context/),
        line: expect.any(Number),
        message: expect.stringContaining('more than 1,000,000 term definitions'),
      });
      expect(problems[0]?.message).not.toMatch(/\n/);
    },
  );

  it('the estimate of a type-scoped context of 1,000 terms over 20,000 nodes is tens of millions', () => {
    const work = expansionWork(SUPERLINEAR['a type-scoped context applied at every node']?.(20_000));
    expect(work.units).toBeGreaterThan(20 * MAX_EXPANSION_WORK);
    expect(work.what).toBe("the scoped context of term 'Step'");
    expect(work.pointer).toBe('/@context/1/Step');
  });

  it('validate refuses one in one line, with its position, and exits 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-costly-'));
    try {
      const file = join(dir, 'hostile.jsonld');
      const document = SUPERLINEAR['a property-scoped context used at every node']?.(20_000);
      await writeFile(file, JSON.stringify(document, null, 2));
      const { code, out, err } = await runCli(['validate', file]);
      expect(code).toBe(1);
      expect(err).toBe('');
      expect(out).toMatch(/hostile\.jsonld:\d+:\d+ error E_TOO_COSTLY .*'meta'/);
      expect(out.split('\n').filter((l) => l.includes('E_TOO_COSTLY'))).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the estimate', () => {
  const SHAPES = { ...SUPERLINEAR, ...LINEAR };

  it.each(Object.keys(SHAPES))('bounds the work the processor does on %s', async (shape) => {
    for (const n of [4, 16]) {
      const document = SHAPES[shape]?.(n);
      processor.reset();
      await expand(document);
      expect(expansionWork(document).units, `${n} placements`).toBeGreaterThanOrEqual(processor.count());
    }
  });

  it.each(Object.keys(LINEAR))('grows with the document, and stays far under the bound, for %s', (shape) => {
    const make = LINEAR[shape];
    if (!make) throw new Error(shape);
    const small = expansionWork(make(2_000)).units;
    const large = expansionWork(make(20_000)).units;
    expect(large).toBeLessThanOrEqual(10 * small + 1_000);
    expect(large).toBeLessThan(MAX_EXPANSION_WORK / 2);
  });

  it.each(SHIPPED)('is a few hundred units for %s in every JSON-LD form', async (file) => {
    for (const make of Object.values(GRAPH_FORMS)) {
      expect(expansionWork(await make(readJson(file))).units).toBeLessThan(2_000);
    }
  });
});
