/**
 * The fuzzing suite, documents: mutated shipped documents, other JSON-LD forms of them and random documents,
 * each run through `validate`, `inspect`, `hash`, `render -o out.mmd` and `run` in a folder of its own.
 * Every case must end within the case limit of `settings.ts` (a hang guard, not a speed target), print no
 * stack trace, exit with a documented code, leave the built-in prototypes as they were, and keep the
 * commands consistent with each other. `FUZZ_RUNS` sets the cases per property. fast-check prints the seed
 * and path of a failing case, so `fc.assert(..., { seed, path })` replays it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CaseReport, runCase } from './commands.ts';
import { mutantCase, SHIPPED, shippedCase } from './documents.ts';
import { OTHER_FORMS, SAME_GRAPH_FORMS, toForm } from './forms.ts';
import {
  generatedCase,
  generatedDocsArbitrary,
  nestedLoopsArbitrary,
  nestedLoopsDocument,
} from './generate.ts';
import { MUTATIONS, type Mutation } from './mutate.ts';
import { writtenCounts } from './output-checks.ts';
import { broken, params, shippedDoc, TEST_LIMIT_MS } from './settings.ts';
import { emit, parseTree, toTree } from './tree.ts';

/** A property over mutations of the shipped documents by one family of mutators; see {@link FuzzCase.probe}. */
function mutantProperty(mutations: fc.Arbitrary<Mutation>, probe = false) {
  return fc.asyncProperty(
    shippedDoc,
    mutations,
    fc.nat(),
    fc.boolean(),
    async (path, mutation, seed, hostileInput) => {
      const report = await runCase(mutantCase(path, mutation, seed, hostileInput, probe));
      expect(broken(report)).toEqual([]);
    },
  );
}

describe('fuzzing the command line with mutated shipped documents', () => {
  it(
    'prototype names as placement keys, budget names, outputs and route targets',
    () => fc.assert(mutantProperty(MUTATIONS.prototypeNames, true), params),
    TEST_LIMIT_MS,
  );

  it(
    'JSON pointers into prototypes in mappings, items and into',
    () => fc.assert(mutantProperty(MUTATIONS.prototypePointers), params),
    TEST_LIMIT_MS,
  );

  it(
    'values nested up to 10,000 deep',
    () => fc.assert(mutantProperty(MUTATIONS.nesting), params),
    TEST_LIMIT_MS,
  );

  it(
    'huge, unsafe, negative and fractional numbers, budget maxima first',
    () => fc.assert(mutantProperty(MUTATIONS.numbers), params),
    TEST_LIMIT_MS,
  );

  it(
    'wrong types, duplicate keys and removed fields',
    () => fc.assert(mutantProperty(MUTATIONS.shapes), params),
    TEST_LIMIT_MS,
  );

  it(
    'control characters, bytes that are not UTF-8, Mermaid directives and very long names',
    () => fc.assert(mutantProperty(MUTATIONS.text), params),
    TEST_LIMIT_MS,
  );
});

describe('fuzzing the command line with JSON-LD forms', () => {
  const hashOf = (report: CaseReport) =>
    /^([0-9a-f]{64})\s/.exec(report.results.find((r) => r.name === 'hash')?.out ?? '')?.[1];
  const exit = (report: CaseReport, name: string) => report.results.find((r) => r.name === name)?.code;

  it(
    'every form of the same graph validates, looks its nodes up and hashes as the canonical form does',
    () =>
      fc.assert(
        fc.asyncProperty(
          shippedDoc,
          fc.constantFrom(...SAME_GRAPH_FORMS),
          fc.constantFrom('as shipped', 'vocab-node-iri'),
          fc.nat(),
          async (path, form, base, seed) => {
            const original = JSON.parse(SHIPPED.find((s) => s.path === path)?.text ?? '{}');
            const canonical = base === 'as shipped' ? original : await toForm(original, 'vocab-node-iri');
            const written = await toForm(canonical as Record<string, unknown>, form);
            const options = { run: false, render: false, validateWithNodes: true };
            const tree = toTree(canonical);
            const [a, b] = [
              await runCase(shippedCase(path, emit(tree), tree, seed), options),
              await runCase(shippedCase(path, JSON.stringify(written, null, 2), tree, seed), options),
            ];
            expect([...broken(a), ...broken(b)]).toEqual([]);
            expect({
              validate: exit(b, 'validate'),
              nodes: exit(b, 'validate --nodes'),
              hash: hashOf(b),
            }).toEqual({
              validate: exit(a, 'validate'),
              nodes: exit(a, 'validate --nodes'),
              hash: hashOf(a),
            });
          },
        ),
        params,
      ),
    TEST_LIMIT_MS,
  );

  it(
    'a form that adds to the graph or names a remote context is refused with its code',
    () =>
      fc.assert(
        fc.asyncProperty(
          shippedDoc,
          fc.constantFrom(...OTHER_FORMS.filter((f) => f !== 'vocab-node-iri')),
          fc.nat(),
          async (path, form, seed) => {
            const original = JSON.parse(SHIPPED.find((s) => s.path === path)?.text ?? '{}');
            const written = await toForm(original, form);
            const tree = toTree(original);
            const report = await runCase(shippedCase(path, JSON.stringify(written, null, 2), tree, seed), {
              run: false,
              render: false,
            });
            expect(broken(report)).toEqual([]);
            const validate = report.results.find((r) => r.name === 'validate');
            const code = form.startsWith('flattened') ? 'E_JSONLD_LOSSY' : 'E_CONTEXT_REFUSED';
            expect({ exit: validate?.code, code: validate?.out.includes(code) }).toEqual({
              exit: 1,
              code: true,
            });
          },
        ),
        params,
      ),
    TEST_LIMIT_MS,
  );
});

describe('fuzzing the command line with random documents', () => {
  it(
    'valid and near-valid generated documents with the documents they embed',
    () =>
      fc.assert(
        fc.asyncProperty(generatedDocsArbitrary, fc.nat(), async (docs, seed) => {
          const report = await runCase(generatedCase(docs.root, docs.children, seed, 1 + (seed % 3)));
          expect(broken(report)).toEqual([]);
        }),
        params,
      ),
    TEST_LIMIT_MS,
  );

  it(
    'up to 70 nested retry loops with maxima up to 1e308 have exact, finite worst cases',
    () =>
      fc.assert(
        fc.asyncProperty(nestedLoopsArbitrary, fc.nat(), async (spec, seed) => {
          const report = await runCase(generatedCase(nestedLoopsDocument(spec), [], seed, 1));
          expect(broken(report)).toEqual([]);
          const inspect = report.results.find((r) => r.name === 'inspect');
          if (inspect?.code !== 0) return;
          // s<i> is entered once per pass of every loop that encloses it, and a stubborn node makes each
          // loop take all its passes: (max + 1)^(depth - i) exactly, as JSON reads max.
          const passes = BigInt(Number(spec.max)) + 1n;
          const keys = (JSON.parse(inspect.out) as { placements: { key: string }[] }).placements.map(
            (p) => p.key,
          );
          const counts = writtenCounts(inspect.out).placements;
          const got = keys.map((key, i) => [key, counts[i]]).filter(([key]) => key?.startsWith('s'));
          const want = got.map(([key]) => [
            key,
            String(passes ** BigInt(spec.depth - Number(key?.slice(1)))),
          ]);
          expect(got).toEqual(want);
        }),
        params,
      ),
    TEST_LIMIT_MS,
  );
});

// Keeps the tree helpers honest: the text the suite writes parses back to the same tree.
it('a shipped document survives the tree round trip unchanged', () => {
  for (const s of SHIPPED) expect(parseTree(emit(s.tree))).toEqual(s.tree);
});
