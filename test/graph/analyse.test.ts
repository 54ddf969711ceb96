import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { loadDagFile } from '../../src/document/load.ts';
import type { Dag, Placement } from '../../src/document/model.ts';
import type { ProblemCode } from '../../src/errors.ts';
import { analyse } from '../../src/graph/analyse.ts';
import type { NodeCatalog } from '../../src/graph/references.ts';
import { INVALID_DIR, libraryOf, readDag, sampleDags, sketch } from './helpers.ts';

const samples = sampleDags();
const library = libraryOf(samples.values());
const catalog: NodeCatalog = {
  outputsOf: (iri) => ({ 'urn:test:node:step': ['ok', 'skip'] })[iri],
};

interface Expectation {
  readonly pointer: string;
  readonly placement?: string;
  /** Other codes the document rightly raises as well. */
  readonly also?: readonly ProblemCode[];
  readonly nodes?: true;
}

const expected: Record<string, Expectation> = {
  E_DUPLICATE_KEY: { pointer: '/placements/3/key', placement: 'work' },
  E_DUPLICATE_BUDGET: { pointer: '/budgets/1/name' },
  E_DUPLICATE_OUTPUT: { pointer: '/placements/2/routes/1/output', placement: 'start' },
  E_DANGLING_ROUTE: { pointer: '/placements/1/routes/1/to', placement: 'start' },
  E_DANGLING_ENTRYPOINT: { pointer: '/entrypoints/1', placement: 'missing' },
  E_DANGLING_EXHAUSTION: { pointer: '/placements/1/routes/1/exhausted', placement: 'start' },
  E_ENTRYPOINT_KIND: { pointer: '/entrypoints/0', placement: 'done' },
  E_UNKNOWN_BUDGET: { pointer: '/placements/2/routes/1/resets/0', placement: 'start' },
  E_RETRY_WITHOUT_BUDGET: {
    pointer: '/placements/2/routes/1',
    placement: 'start',
    also: ['E_UNBOUNDED_LOOP'],
  },
  E_RETRY_WITHOUT_EXHAUSTION: { pointer: '/placements/1/routes/1', placement: 'start' },
  E_BUDGET_ON_NON_RETRY: { pointer: '/placements/3/routes/0/budget', placement: 'start' },
  E_UNREACHABLE: { pointer: '/placements/1', placement: 'orphan' },
  E_NO_TERMINAL_PATH: { pointer: '/placements/2', placement: 'stuck' },
  E_UNBOUNDED_LOOP: { pointer: '/placements/0/routes/1/to', placement: 'check' },
  E_RESET_CYCLE: { pointer: '/placements/3/routes/1/resets/0', placement: 'start' },
  E_SCATTER_WITHOUT_GATHER: { pointer: '/placements/2/routes/0/to', placement: 'start' },
  E_AWAIT_DEADLINE_ROUTE: { pointer: '/placements/0/routes', placement: 'approve' },
  E_UNKNOWN_NODE: { pointer: '/placements/1/node', placement: 'start', nodes: true },
  E_UNKNOWN_OUTPUT: { pointer: '/placements/1/routes/2/output', placement: 'merge' },
  E_UNKNOWN_DAG: { pointer: '/placements/2/dag', placement: 'start' },
  E_EMBED_CYCLE: { pointer: '/placements/2/dag', placement: 'start' },
  W_UNUSED_BUDGET: { pointer: '/budgets/0' },
  W_UNROUTED_OUTPUT: { pointer: '/placements/1/routes', placement: 'start', nodes: true },
  W_NO_COMPLETED_TERMINAL: { pointer: '/placements' },
};

const fixtures = readdirSync(INVALID_DIR)
  .filter((f) => f.endsWith('.jsonld'))
  .map((f) => f.replace(/\.jsonld$/, ''))
  .filter((code) => code in expected);

describe('invalid fixtures', () => {
  const schema = JSON.parse(readFileSync(new URL('../../schemas/dag.schema.json', import.meta.url), 'utf8'));
  const validate = new Ajv2020({ discriminator: true, strict: false }).compile(schema);

  it('has one fixture per graph-level code', () => {
    expect(fixtures.sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(fixtures)('%s passes the schema', (code) => {
    const json = JSON.parse(readFileSync(`${INVALID_DIR}${code}.jsonld`, 'utf8'));
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each(fixtures)('%s loads without problems into the same model', async (code) => {
    const loaded = await loadDagFile(`${INVALID_DIR}${code}.jsonld`);
    expect(loaded.problems).toEqual([]);
    expect(loaded.dag).toEqual(readDag(`${INVALID_DIR}${code}.jsonld`));
  });

  it.each(fixtures)('%s raises exactly its code', (code) => {
    const want = expected[code] as Expectation;
    const dag = readDag(`${INVALID_DIR}${code}.jsonld`);
    const problems = analyse(dag, {
      library,
      ...(want.nodes ? { nodes: catalog } : {}),
      file: `${code}.jsonld`,
    });
    expect(new Set(problems.map((p) => p.code))).toEqual(new Set([code, ...(want.also ?? [])]));
    const found = problems.find((p) => p.code === code);
    expect(found).toMatchObject({
      pointer: want.pointer,
      file: `${code}.jsonld`,
      severity: code.startsWith('W_') ? 'warning' : 'error',
    });
    if (want.placement !== undefined) expect(found?.placement).toBe(want.placement);
    expect(found?.message).not.toContain('\n');
    expect(found?.message).toMatch(/; /);
  });
});

describe('analyse', () => {
  it.each([...samples.keys()])('finds no problem in dags/%s', (name) => {
    expect(analyse(samples.get(name) as Dag, { library })).toEqual([]);
  });

  it('names the cycle of an unbounded loop', () => {
    const dag = readDag(`${INVALID_DIR}E_UNBOUNDED_LOOP.jsonld`);
    const loop = analyse(dag).find((p) => p.code === 'E_UNBOUNDED_LOOP');
    expect(loop?.cycle).toEqual(['check', 'start']);
    expect(loop?.message).toContain('check → start → check');
    expect(loop?.message).toContain("kind 'retry' with a budget and an exhaustion target");
  });

  it('collects every problem of a document, sorted errors first and in document order', () => {
    const dag = sketch({
      budgets: { spare: 1 },
      nodes: {
        a: [{ to: 'b' }, { to: 'ghost' }],
        b: [{ to: 'a' }, { output: 'retry', kind: 'retry', to: 'b' }],
        c: [{ to: 'end' }],
        end: [],
      },
    });
    const problems = analyse(dag);
    expect(problems.map((p) => [p.code, p.pointer])).toEqual([
      ['E_NO_TERMINAL_PATH', '/placements/0'],
      ['E_UNBOUNDED_LOOP', '/placements/0/routes/0/to'],
      ['E_DANGLING_ROUTE', '/placements/0/routes/1/to'],
      ['E_NO_TERMINAL_PATH', '/placements/1'],
      ['E_RETRY_WITHOUT_BUDGET', '/placements/1/routes/1'],
      ['E_RETRY_WITHOUT_EXHAUSTION', '/placements/1/routes/1'],
      ['E_UNREACHABLE', '/placements/2'],
      ['E_UNREACHABLE', '/placements/3'],
      ['W_UNUSED_BUDGET', '/budgets/0'],
    ]);
    expect(analyse(dag)).toEqual(problems);
  });

  it('reports the unbounded loop an exhaustion edge closes', () => {
    const dag = sketch({
      budgets: { tries: 2 },
      nodes: {
        a: [{ to: 'end' }, { output: 'retry', kind: 'retry', to: 'a', budget: 'tries', exhausted: 'b' }],
        b: [{ to: 'a' }],
        end: [],
      },
    });
    const loop = analyse(dag).filter((p) => p.code === 'E_UNBOUNDED_LOOP');
    expect(loop).toHaveLength(1);
    expect(loop[0]).toMatchObject({ cycle: ['a', 'b'], pointer: '/placements/0/routes/1/exhausted' });
  });

  it('checks task outputs against the node and the engine outputs', () => {
    const dag = sketch({
      nodes: {
        start: [
          { output: 'ok', to: 'end' },
          { output: 'error', to: 'end' },
          { output: 'nope', to: 'end' },
        ],
        end: [],
      },
    });
    const task = { ...dag.placements[1], node: 'urn:test:node:step' } as Placement;
    const problems = analyse(
      { ...dag, placements: [dag.placements[0] as Placement, task] },
      { nodes: catalog },
    );
    expect(problems.map((p) => [p.code, p.pointer])).toEqual([
      ['E_UNKNOWN_OUTPUT', '/placements/1/routes/1/output'],
      ['W_UNROUTED_OUTPUT', '/placements/1/routes'],
    ]);
    expect(problems[0]?.message).toContain("use one of: 'retry', 'error', 'ok', 'skip'");
  });

  it('reports a scatter without a done route and unknown phase and scatter nodes', () => {
    const dag: Dag = {
      id: 'urn:test:scatter',
      name: 'scatter',
      version: '1',
      entrypoints: ['fan'],
      budgets: [],
      placements: [
        { key: 'end', kind: 'terminal', outcome: 'completed', routes: [] },
        {
          key: 'fan',
          kind: 'scatter',
          items: '/xs',
          node: 'urn:test:node:nobody',
          routes: [{ output: 'error', to: 'end', kind: 'next' }],
        },
        { key: 'setup', kind: 'phase', when: 'pre', node: 'urn:test:node:nobody', routes: [] },
      ],
    };
    const problems = analyse(dag, { nodes: catalog });
    expect(problems.map((p) => [p.code, p.placement])).toEqual([
      ['E_UNKNOWN_NODE', 'fan'],
      ['E_SCATTER_WITHOUT_GATHER', 'fan'],
      ['E_UNKNOWN_NODE', 'setup'],
    ]);
  });

  it('rejects routes into a phase, which items never enter', () => {
    const dag = sketch({
      budgets: { tries: 1 },
      nodes: {
        a: [
          { to: 'end' },
          { output: 'retry', kind: 'retry', to: 'a', budget: 'tries', exhausted: 'hook' },
          { to: 'hook' },
        ],
        end: [],
      },
    });
    const hook: Placement = {
      key: 'hook',
      kind: 'phase',
      when: 'post',
      node: 'urn:test:node:hook',
      routes: [],
    };
    const problems = analyse({ ...dag, placements: [...dag.placements, hook] });
    expect(problems.map((p) => [p.code, p.pointer])).toEqual([
      ['E_DANGLING_ROUTE', '/placements/0/routes/1/to'],
      ['E_DANGLING_EXHAUSTION', '/placements/0/routes/2/exhausted'],
    ]);
    expect(problems[0]?.message).toContain("targets the phase 'hook'");
  });

  it('finds an embedding cycle through another document', () => {
    const embed = (id: string, child: string): Dag => ({
      id,
      name: id,
      version: '1',
      entrypoints: ['run'],
      budgets: [],
      placements: [
        { key: 'end', kind: 'terminal', outcome: 'completed', routes: [] },
        {
          key: 'run',
          kind: 'embed',
          dag: child,
          input: [],
          result: [],
          routes: [
            { output: 'completed', to: 'end', kind: 'next' },
            { output: 'failed', to: 'end', kind: 'next' },
          ],
        },
      ],
    });
    const a = embed('urn:test:a', 'urn:test:b');
    const b = embed('urn:test:b', 'urn:test:a');
    const problems = analyse(a, { library: libraryOf([b]) });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'E_EMBED_CYCLE', cycle: ['urn:test:b', 'urn:test:a'] });
  });
});
