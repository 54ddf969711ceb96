/**
 * The fuzzing suite: mutated shipped documents, other JSON-LD forms of them and random documents, each run
 * through `validate`, `inspect`, `hash`, `render -o out.mmd` and `run` in a folder of its own. Every case
 * must end within {@link CASE_LIMIT_MS} (a hang guard, not a speed target), print no stack trace, exit with a
 * documented code, leave the built-in prototypes as they were, and keep the commands consistent with each
 * other. `FUZZ_RUNS` sets the cases per property (default {@link DEFAULT_RUNS}; `npm run fuzz` runs many
 * more). fast-check prints the seed and path of a failing case, so `fc.assert(..., { seed, path })`
 * replays it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CaseReport,
  runCase,
  runCommand,
  type Violation,
  type ViolationKind,
  writtenCounts,
} from './commands.ts';
import { JUNK, mutantCase, SHIPPED, shippedCase, withJunk } from './documents.ts';
import { OTHER_FORMS, SAME_GRAPH_FORMS, toForm } from './forms.ts';
import {
  generatedCase,
  generatedDocsArbitrary,
  nestedLoopsArbitrary,
  nestedLoopsDocument,
} from './generate.ts';
import { MUTATIONS, type Mutation } from './mutate.ts';
import { inputShapeArbitrary, inputText, policyArbitrary, policyText } from './policy.ts';
import { runInChild } from './subprocess.ts';
import { emit, parseTree, toTree } from './tree.ts';

/** Cases per property in `npm test`. */
const DEFAULT_RUNS = 10;
const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? DEFAULT_RUNS) || DEFAULT_RUNS);
/** The hang guard: a case (all its commands) that takes longer fails. */
const CASE_LIMIT_MS = 20_000;
/** The whole property's time limit, for vitest: the hang guard times the number of cases, plus slack. */
const TEST_LIMIT_MS = RUNS * CASE_LIMIT_MS + 60_000;

const params = { numRuns: RUNS, timeout: CASE_LIMIT_MS } as const;

/** Violations other than `skip`, as one message per line (empty when there are none). */
function broken(report: CaseReport, skip: readonly ViolationKind[] = ['uncoded']): string[] {
  return report.violations
    .filter((v) => !skip.includes(v.kind))
    .map((v: Violation) => `${v.kind} in ${v.command}: ${v.detail}`);
}

const shippedDoc = fc.constantFrom(...SHIPPED.map((s) => s.path));
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

const anyMutation = fc.oneof(...Object.values(MUTATIONS));

describe('hostile runtime policies and run input', () => {
  it(
    'a policy beside the document with prototype keys and odd numbers, input nested deep or with prototype keys',
    () =>
      fc.assert(
        fc.asyncProperty(
          shippedDoc,
          fc.option(policyArbitrary, { freq: 3 }),
          fc.option(inputShapeArbitrary, { freq: 3 }),
          fc.nat(),
          async (path, policy, shape, seed) => {
            const s = SHIPPED.find((d) => d.path === path);
            const base = shippedCase(path, s?.text ?? '', s?.tree ?? null, seed);
            const files = new Map(base.files);
            if (policy !== null)
              files.set(base.target.replace(/\.jsonld$/, '.policy.json'), policyText(policy));
            const c = { ...base, files, ...(shape === null ? {} : { input: inputText(shape) }) };
            const report = await runCase(c, { render: false });
            expect(broken(report)).toEqual([]);
          },
        ),
        params,
      ),
    TEST_LIMIT_MS,
  );
});

describe('documents beside the one named', () => {
  it(
    'junk in its folder (deep nesting, not JSON, not UTF-8, a duplicate @id, a folder, broken links) leaves it valid',
    () =>
      fc.assert(
        fc.asyncProperty(
          shippedDoc,
          fc.constantFrom(...JUNK.filter((j) => j !== 'fifo')),
          fc.nat(),
          async (path, junk, seed) => {
            const s = SHIPPED.find((d) => d.path === path);
            const report = await runCase(
              withJunk(shippedCase(path, s?.text ?? '', s?.tree ?? null, seed), junk),
            );
            expect(broken(report)).toEqual([]);
            expect(report.results.find((r) => r.name === 'validate')?.code).toBe(0);
          },
        ),
        params,
      ),
    TEST_LIMIT_MS,
  );
});

describe('the real program, in a child process', () => {
  const COMMANDS: Record<string, readonly string[]> = {
    validate: ['validate'],
    inspect: ['inspect', '--json'],
    hash: ['hash'],
    render: ['render', '-o', 'out.mmd'],
    run: [
      'run',
      ...['--nodes', 'fuzz-nodes.ts', '--input', '@input.json', '--virtual-time', '--deadline', '3600000'],
    ],
  };

  it(
    'ends within the limit with a documented exit code and no stack trace, a named pipe beside it included',
    () =>
      fc.assert(
        fc.asyncProperty(
          shippedDoc,
          fc.option(anyMutation),
          fc.option(fc.constantFrom(...JUNK), { freq: 2 }),
          fc.constantFrom(...Object.keys(COMMANDS)),
          fc.nat(),
          async (path, mutation, junk, command, seed) => {
            const s = SHIPPED.find((d) => d.path === path);
            const base =
              mutation === null
                ? shippedCase(path, s?.text ?? '', s?.tree ?? null, seed)
                : mutantCase(path, mutation, seed, false);
            const c = junk === null ? base : withJunk(base, junk);
            const violations = await runInChild(c, COMMANDS[command] ?? [], CASE_LIMIT_MS);
            expect(
              violations.filter((v) => v.kind !== 'uncoded').map((v) => `${v.kind}: ${v.detail}`),
            ).toEqual([]);
          },
        ),
        {
          ...params,
          // A child process costs seconds (tsx and the sources load afresh), so it gets a tenth of the cases.
          numRuns: Math.max(1, Math.round(RUNS / 10)),
          // A hang costs the whole case limit on every shrinking step; the examples are small already.
          endOnFailure: true,
          // Always tried first: a named pipe beside the document, deep invalid JSON beside it, and a
          // document nested 10,000 deep at its name.
          examples: [
            ['nested-retry.jsonld', null, 'fifo', 'validate', 1],
            ['nested-retry.jsonld', null, 'deep-unclosed', 'hash', 2],
            ['nested-retry.jsonld', { op: 'nest', n: 3, depth: 10_000, shape: 'array' }, null, 'inspect', 3],
          ],
        },
      ),
    TEST_LIMIT_MS,
  );
});

/** User mistakes on the command line, each refused with exit 1 or 2. */
const MISTAKES: readonly (readonly string[])[] = [
  ['render', '{target}', '-o', '/proc/switchyard-fuzz.mmd'],
  ['render', '{target}', '-o', 'missing-folder/x.mmd'],
  ['render', '{target}', '-o', 'x.svg', '--format', 'png'],
  ['render', '{target}', '-o', 'x.txt'],
  ['run', '{target}', '--nodes', 'fuzz-nodes.ts', '--input', '{oops'],
  ['run', '{target}', '--nodes', 'fuzz-nodes.ts', '--input', '[]'],
  ['run', '{target}', '--nodes', 'fuzz-nodes.ts', '--input', '[1, 2]'],
  ['run', '{target}', '--nodes', 'fuzz-nodes.ts', '--input', '@missing.json'],
  ['run', '{target}', '--nodes', 'fuzz-nodes.ts', '--deadline', '-1'],
  ['run', '{target}', '--nodes', 'fuzz-nodes.ts', '--deadline', 'NaN'],
  ['run', '{target}', '--nodes', 'fuzz-nodes.ts', '--seed', '1.5'],
  ['run', '{target}', '--nodes', 'missing-nodes.ts'],
  ['run', '{target}', '--nodes', 'input.json'],
  ['run', '{target}', '--nodes', 'fuzz-nodes.ts', '--events', '/proc/switchyard-fuzz.jsonl'],
  ['run', '{target}'],
  ['inspect', '{target}', '--policy', 'missing-policy.json'],
  ['inspect', '{target}', '--policy', 'input.json'],
  ['inspect', 'dags'],
  ['validate', 'no-such-folder'],
  ['hash', 'missing.jsonld'],
  ['export', '{target}', '--format', 'turtle'],
  ['frobnicate'],
];

describe('refusals', () => {
  it(
    'every user mistake on the command line is refused with exit 1 or 2 and a stable code on every line',
    async () => {
      const s = SHIPPED.find((d) => d.path === 'nested-retry.jsonld') ?? SHIPPED[0];
      const c = shippedCase(s?.path ?? '', s?.text ?? '', s?.tree ?? null, 1);
      const problems: string[] = [];
      for (const args of MISTAKES) {
        const report = await runCommand(c, args);
        const code = report.results[0]?.code;
        if (code !== 1 && code !== 2) problems.push(`${args.join(' ')}: exit ${code}`);
        for (const v of report.violations) problems.push(`${args.join(' ')}: ${v.kind}: ${v.detail}`);
      }
      expect(problems).toEqual([]);
    },
    TEST_LIMIT_MS,
  );

  it(
    'every line a refusal prints carries a stable code',
    () =>
      fc.assert(
        fc.asyncProperty(shippedDoc, anyMutation, fc.nat(), async (path, mutation, seed) => {
          const report = await runCase(mutantCase(path, mutation, seed, false), {
            run: false,
            render: false,
          });
          expect(
            report.violations.filter((v) => v.kind === 'uncoded').map((v) => `${v.command}: ${v.detail}`),
          ).toEqual([]);
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
