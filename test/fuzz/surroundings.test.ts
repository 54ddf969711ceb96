/**
 * The fuzzing suite, surroundings: hostile runtime policies and run input, junk beside the document, the
 * real program in a child process (exit codes, stderr, hangs), and user mistakes on the command line, whose
 * refusals must carry a stable code on every line. Settings and limits as in `settings.ts`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCase, runCommand } from './commands.ts';
import { JUNK, mutantCase, SHIPPED, shippedCase, withJunk } from './documents.ts';
import { MUTATIONS } from './mutate.ts';
import { inputShapeArbitrary, inputText, policyArbitrary, policyText } from './policy.ts';
import { broken, CASE_LIMIT_MS, params, RUNS, shippedDoc, TEST_LIMIT_MS } from './settings.ts';
import { runInChild } from './subprocess.ts';

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
