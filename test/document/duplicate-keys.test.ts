import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDagText } from '../../src/document/load.ts';
import { locator, parseJson } from '../../src/document/parse-json.ts';
import { isSwitchyardError, type Problem } from '../../src/errors.ts';
import { loadPolicyFile } from '../../src/policy/load.ts';

/** The 1-based line and column of the `n`th (0-based) occurrence of `needle` in `text`. */
function positionOf(text: string, needle: string, n: number): { line: number; column: number } {
  let at = -1;
  for (let i = 0; i <= n; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`${needle} occurs fewer than ${n + 1} times`);
  }
  const before = text.slice(0, at).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

const document = (budget: string, kind: string) => `{
  "@context": "https://w3id.org/switchyard/context/v1",
  "@id": "urn:t:dup",
  "@type": "Dag",
  "name": "Duplicates",
  "version": "1",
  "entrypoints": ["a"],
  "budgets": [
    { "name": "b", ${budget} }
  ],
  "placements": [
    { "key": "a", ${kind}, "node": "urn:t:node", "routes": [{ "output": "ok", "to": "done" }] },
    { "key": "done", "kind": "terminal", "outcome": "completed" }
  ]
}`;

describe.each([
  ['by the tree of the text', false],
  ['by scanning the text', true],
])('a name written twice in an object, located %s', (_how, scan) => {
  it('locates the value JSON.parse used (the last), at any depth', () => {
    const text = '{"a": {"b": 1, "b": [1, {"c": 1, "c": 2}]}, "a": {"b": 3, "b": [4, {"c": 5, "c": 6}]}}';
    expect(JSON.parse(text).a.b[1].c).toBe(6);
    expect(locator(text, scan)('/a')).toEqual(positionOf(text, '"a"', 1));
    expect(locator(text, scan)('/a/b')).toEqual(positionOf(text, '"b"', 3));
    expect(locator(text, scan)('/a/b/1/c')).toEqual(positionOf(text, '"c"', 3));
  });

  it('a later value without the pointed-at part hides an earlier one that has it', () => {
    const text = '{"a": {"b": 1}, "a": 2}';
    expect(locator(text, scan)('/a/b')).toBeUndefined();
  });

  it('locates a property named like an index, and an index, as written', () => {
    const text = '{"0": "x", "0": ["y", "z"]}';
    expect(locator(text, scan)('/0')).toEqual(positionOf(text, '"0"', 1));
    expect(locator(text, scan)('/0/1')).toEqual(positionOf(text, '"z"', 0));
  });
});

describe('a name written twice in a document', () => {
  it('a schema problem of a duplicated budget bound points at the bound that is used', async () => {
    const text = document('"max": 2, "max": -1', '"kind": "task"');
    const { problems } = await loadDagText(text, 'dup.jsonld');
    expect(problems).toMatchObject([
      { code: 'E_SCHEMA', pointer: '/budgets/0/max', message: expect.stringContaining('-1') },
    ]);
    expect(problems[0]).toMatchObject(positionOf(text, '"max"', 1));
  });

  it('a problem of a duplicated kind points at the kind that is used', async () => {
    const text = document('"max": 2', '"kind": "task", "kind": "tusk"');
    const { problems } = await loadDagText(text, 'dup.jsonld');
    const kind = problems.find((p: Problem) => p.pointer === '/placements/0/kind');
    expect(kind).toMatchObject({ code: 'E_SCHEMA', ...positionOf(text, '"kind"', 1) });
  });

  it('a problem inside a duplicated list points into the list that is used', async () => {
    const text = document('"max": 2', '"kind": "task"').replace(
      '"budgets": [',
      '"budgets": [{ "name": "first", "max": 1 }],\n  "budgets": [',
    );
    const parsed = parseJson(text);
    expect(parsed.value).toMatchObject({ budgets: [{ name: 'b' }] });
    const broken = text.replace('{ "name": "b", "max": 2 }', '{ "name": "b", "max": "two" }');
    const { problems } = await loadDagText(broken, 'dup.jsonld');
    expect(problems).toMatchObject([{ code: 'E_SCHEMA', pointer: '/budgets/0/max' }]);
    expect(problems[0]).toMatchObject(positionOf(broken, '"max"', 1));
  });
});

describe('a name written twice in a policy', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchyard-dup-policy-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('the problem points at the value that is used, in a nested override', async () => {
    const text = `{
  "defaults": { "deadlineMs": 100 },
  "placements": {
    "compose": { "deadlineMs": 5, "backoff": { "baseMs": 1, "baseMs": -1 } }
  }
}`;
    const file = join(dir, 'dup.policy.json');
    await writeFile(file, text);
    const error = await loadPolicyFile(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isSwitchyardError(error) && error.code).toBe('E_POLICY');
    const problems = (error as { problems: Problem[] }).problems;
    expect(problems).toMatchObject([{ pointer: '/placements/compose/backoff/baseMs' }]);
    expect(problems[0]).toMatchObject(positionOf(text, '"baseMs"', 1));
  });
});
