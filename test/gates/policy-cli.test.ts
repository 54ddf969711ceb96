import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.ts';

const DAG = resolve('dags/compose-validate.jsonld');
const NODES = resolve('test/fixtures/nodes/compose-validate.ts');
const ID = 'urn:switchyard:dag:compose-validate';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-gate-policy-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The three commands that read a policy, each given `policy` in a file `p.json` of a fresh folder. */
async function everyCommand(policy: string) {
  await writeFile(join(dir, 'p.json'), policy);
  const run = ['run', DAG, '--nodes', NODES, '--input', '{"topic":"x"}', '--virtual-time'];
  return {
    validate: await runCli(['validate', DAG, '--policy', 'p.json'], dir),
    inspect: await runCli(['inspect', DAG, '--policy', 'p.json'], dir),
    run: await runCli([...run, '--policy', 'p.json'], dir),
  };
}

const bad: readonly (readonly [string, string, string])[] = [
  ['a zero rate', '{"gates":{"g":{"placements":["compose"],"rate":{"limit":0}}}}', 'E_POLICY'],
  ['a negative concurrency', '{"gates":{"g":{"placements":["compose"],"concurrency":-2}}}', 'E_POLICY'],
  ['a zero period', '{"gates":{"g":{"placements":["compose"],"rate":{"limit":1,"periodMs":0}}}}', 'E_POLICY'],
  ['a zero burst', '{"gates":{"g":{"placements":["compose"],"rate":{"limit":1,"burst":0}}}}', 'E_POLICY'],
  ['an infinite limit', '{"gates":{"g":{"placements":["compose"],"rate":{"limit":1e999}}}}', 'E_POLICY'],
  [
    'a pace no clock can wait for',
    '{"gates":{"g":{"placements":["compose"],"rate":{"limit":1e-300,"periodMs":1e300}}}}',
    'E_GATE_RATE',
  ],
  [
    'a placement in two gates',
    '{"gates":{"a":{"placements":["compose"]},"b":{"placements":["compose"]}}}',
    'E_GATE_OVERLAP',
  ],
  ['keys that do not compile', '{"gates":{"a":{"placements":["compose"],"keys":"(("}}}', 'E_GATE_KEYS'],
  [
    'a placement in one gate and its node in another',
    '{"gates":{"a":{"placements":["compose"]},"b":{"nodes":["urn:switchyard:node:compose"]}}}',
    'E_GATE_OVERLAP',
  ],
  [
    'a placement in two gates, once with its document',
    `{"gates":{"a":{"placements":["compose"]},"b":{"placements":["${ID}#compose"]}}}`,
    'E_GATE_OVERLAP',
  ],
];

describe('a bad gate in a policy, through every command that reads one', () => {
  for (const [what, policy, code] of bad) {
    it(`refuses ${what} with ${code} in one line`, async () => {
      const results = await everyCommand(policy);
      // validate lists it as a problem of the policy, at its position, and exits 1.
      expect(results.validate.code).toBe(1);
      expect(results.validate.out).toMatch(
        new RegExp(`^p\\.json:\\d+:\\d+ error ${code} .+ \\(at /gates/`, 'm'),
      );
      expect(results.validate.out).toContain(
        '1 document and 1 policy checked: 1 invalid, 1 error, 0 warnings',
      );
      for (const { code: exit, out, err } of [results.inspect, results.run]) {
        expect(exit).toBe(1);
        expect(out).toBe('');
        const lines = err.trimEnd().split('\n');
        expect(lines).toHaveLength(1);
        // Problems of the policy alone end with their code; against the document, they are a problem line.
        expect(lines[0]).toMatch(
          new RegExp(`^switchyard: p\\.json(.*\\(${code}\\)|:\\d+:\\d+ error ${code} .*)$`),
        );
      }
      for (const { out, err } of Object.values(results)) expect(`${out}${err}`).not.toMatch(/\n\s+at /);
    });
  }
});

describe('gate members that name nothing in the documents', () => {
  const policy = JSON.stringify({
    defaults: { deadlineMs: 1000 },
    gates: {
      llm: { placements: ['composee'], nodes: ['urn:switchyard:node:validate'] },
    },
  });

  it('are a warning with a stable code and the fix, and the command goes on', async () => {
    // A gate named `__proto__`, written in the text (an object literal's `__proto__` sets its prototype).
    const text = policy.replace(
      '}}}',
      '},"__proto__":{"placements":["__proto__"],"nodes":["constructor"]}}}',
    );
    const results = await everyCommand(text);
    const warning = `p.json:1:63 warning W_GATE_UNKNOWN_MEMBER gate 'llm' lists placement 'composee', which names no placement of ${ID}, so no execution passes the gate through it — did you mean 'compose'? (at /gates/llm/placements/0)`;
    expect(results.validate.code).toBe(0);
    expect(results.validate.out).toContain(warning);
    expect(results.validate.out).toContain("gate '__proto__' lists placement '__proto__'");
    expect(results.validate.out).toContain("gate '__proto__' lists node 'constructor'");
    expect(results.validate.out).toContain(
      '1 document and 1 policy checked: all valid, 0 errors, 3 warnings',
    );
    expect(results.inspect.code).toBe(0);
    expect(results.inspect.err.trimEnd().split('\n')).toHaveLength(3);
    expect(results.inspect.err).toContain(warning);
    expect(results.run.code).toBe(0);
    expect(results.run.err).toContain(warning);
    expect(results.run.out).toContain('done (completed): 1 item');
  });

  it('are checked against every document validate is given', async () => {
    await writeFile(
      join(dir, 'two.json'),
      JSON.stringify({ gates: { g: { placements: ['compose', 'plan'], nodes: ['urn:nowhere'] } } }),
    );
    const { code, out } = await runCli(
      ['validate', DAG, resolve('dags/nested-retry.jsonld'), '--policy', 'two.json'],
      dir,
    );
    expect(code).toBe(0);
    expect(out).toContain(
      "gate 'g' lists node 'urn:nowhere', which is placed nowhere in the documents checked, so no execution passes the gate through it",
    );
    expect(out).toContain('2 documents and 1 policy checked: all valid, 0 errors, 1 warning');
  });

  it('are a policy report of their own in validate --json', async () => {
    await writeFile(join(dir, 'one.json'), '{"gates":{"g":{"placements":["nope"]}}}');
    const { code, out } = await runCli(['validate', DAG, '--policy', 'one.json', '--json'], dir);
    expect(code).toBe(0);
    const reports = JSON.parse(out) as { kind?: string; valid: boolean; problems: { code: string }[] }[];
    expect(reports).toHaveLength(2);
    expect(reports[1]).toMatchObject({ kind: 'policy', valid: true });
    expect(reports[1]?.problems.map((p) => p.code)).toEqual(['W_GATE_UNKNOWN_MEMBER']);
  });
});

describe('validate --policy', () => {
  it('checks override keys against the documents as run and inspect do', async () => {
    await writeFile(join(dir, 'keys.json'), '{"placements":{"composer":{"deadlineMs":5}}}');
    const { code, out } = await runCli(['validate', DAG, '--policy', 'keys.json'], dir);
    expect(code).toBe(1);
    expect(out).toMatch(/^keys\.json:1:16 error E_POLICY_UNKNOWN_KEY .*did you mean 'compose'\?/m);
  });

  it('reads the policy from standard input, and refuses a missing file in one line', async () => {
    const piped = await runCli(['validate', DAG, '--policy', '-'], dir, {
      stdin: '{"gates":{"g":{"rate":{"limit":-1}}}}',
    });
    expect(piped.code).toBe(1);
    expect(piped.out).toMatch(/^<stdin>:1:\d+ error E_POLICY \/gates\/g\/rate\/limit must be > 0/m);
    const missing = await runCli(['validate', DAG, '--policy', 'missing.json'], dir);
    expect(missing.code).toBe(1);
    expect(missing.err.trimEnd()).toBe(
      'switchyard: no such file: missing.json — check the path given to --policy (E_FILE_NOT_FOUND)',
    );
    const both = await runCli(['validate', '-', '--policy', '-'], dir, { stdin: '{}' });
    expect(both.code).toBe(2);
    expect(both.err).toContain('E_USAGE');
  });
});
