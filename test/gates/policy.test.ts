import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import type { Dag } from '../../src/document/model.ts';
import { SwitchyardError } from '../../src/errors.ts';
import { gatePolicyProblems } from '../../src/gates/check.ts';
import { gateMemberProblems } from '../../src/gates/members.ts';
import { gateOfPlacement, resolveGates } from '../../src/gates/resolve.ts';
import { compile } from '../../src/graph/compile.ts';
import { parsePolicyText } from '../../src/policy/load.ts';
import { resolvePolicy } from '../../src/policy/resolve.ts';
import { sampleDags } from '../graph/helpers.ts';
import { phaseDag } from '../runtime/helpers.ts';

const chain: Dag = dag('urn:test:gates', { name: 'gates', version: '1' })
  .entry('call')
  .task('call', 'urn:test:call')
  .route('ok', 'lookup')
  .task('lookup', 'urn:test:lookup')
  .route('ok', 'done')
  .terminal('done', 'completed')
  .build();

function refused(run: () => unknown): SwitchyardError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SwitchyardError);
    return error as SwitchyardError;
  }
  throw new Error('expected a refusal');
}

describe('gate problems of a policy as written', () => {
  it('finds a member listed by two gates at the second listing', () => {
    const problems = gatePolicyProblems({
      a: { placements: ['call'], nodes: ['urn:n'] },
      b: { nodes: ['urn:x', 'urn:n'] },
    });
    expect(problems.map((p) => [p.code, p.pointer])).toEqual([['E_GATE_OVERLAP', '/gates/b/nodes/1']]);
    expect(problems[0]?.message).toBe(
      "node 'urn:n' is listed by gates 'a' and 'b'; an execution passes through one gate: list it under one of them",
    );
  });

  it('refuses keys that are not a regular expression, and a rate with no finite pace', () => {
    const problems = gatePolicyProblems({
      k: { keys: '((' },
      r: { rate: { limit: 1e-300, periodMs: 1e300 } },
      fine: { rate: { limit: 1e300, periodMs: 1e-300 } },
    });
    expect(problems.map((p) => [p.code, p.pointer])).toEqual([
      ['E_GATE_KEYS', '/gates/k/keys'],
      ['E_GATE_RATE', '/gates/r/rate'],
    ]);
    expect(problems[1]?.message).toContain('one start every Infinity ms');
    expect(problems.every((p) => p.severity === 'error')).toBe(true);
  });

  it('resolveGates throws the first problem with its code, all of them attached', () => {
    const error = refused(() =>
      resolveGates({ a: { placements: ['x'] }, b: { placements: ['x'] }, c: { keys: '[' } }),
    );
    expect(error.code).toBe('E_GATE_OVERLAP');
    expect(error.problems.map((p) => p.code)).toEqual(['E_GATE_OVERLAP', 'E_GATE_KEYS']);
    expect(refused(() => resolvePolicy({ gates: { r: { rate: { limit: 1e-320 } } } })).code).toBe(
      'E_GATE_RATE',
    );
  });

  it('takes prototype names as gate names and members, and empty lists, as written', () => {
    const text =
      '{"gates":{"__proto__":{"placements":["__proto__"],"nodes":["constructor"]},"constructor":{"placements":["toString"],"nodes":[]},"empty":{"placements":[],"nodes":[]}}}';
    const { policy, input } = parsePolicyText(text, 'p.json');
    expect(Object.keys(policy.gates).sort()).toEqual(['__proto__', 'constructor', 'empty']);
    expect(Object.getOwnPropertyDescriptor(policy.gates, '__proto__')?.value.placements).toEqual([
      '__proto__',
    ]);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    const problems = gateMemberProblems(input, [chain]);
    expect(problems.map((p) => [p.code, p.pointer])).toEqual([
      ['W_GATE_UNKNOWN_MEMBER', '/gates/__proto__/placements/0'],
      ['W_GATE_UNKNOWN_MEMBER', '/gates/__proto__/nodes/0'],
      ['W_GATE_UNKNOWN_MEMBER', '/gates/constructor/placements/0'],
    ]);
    // The same member under both prototype-named gates is an overlap, not a crash.
    const twice = gatePolicyProblems({
      ['__proto__']: { placements: ['constructor'] },
      constructor: { placements: ['constructor'] },
    } as never);
    expect(twice.map((p) => p.code)).toEqual(['E_GATE_OVERLAP']);
  });

  it('refuses huge and non-finite numbers in one line, through the schema or the pace', () => {
    for (const [text, code] of [
      ['{"gates":{"g":{"rate":{"limit":1e400}}}}', 'E_POLICY'],
      ['{"gates":{"g":{"maxClosedMs":1e400}}}', 'E_POLICY'],
      ['{"gates":{"g":{"concurrency":1e400}}}', 'E_POLICY'],
      ['{"gates":{"g":{"rate":{"limit":0}}}}', 'E_POLICY'],
      ['{"gates":{"g":{"rate":{"limit":-1}}}}', 'E_POLICY'],
      ['{"gates":{"g":{"rate":{"limit":1,"periodMs":0}}}}', 'E_POLICY'],
      ['{"gates":{"g":{"rate":{"limit":1,"burst":0}}}}', 'E_POLICY'],
      ['{"gates":{"g":{"concurrency":0}}}', 'E_POLICY'],
      ['{"gates":{"g":{"maxClosedMs":-5}}}', 'E_POLICY'],
      ['{"gates":{"g":{"rate":{"limit":5e-324,"periodMs":1e308}}}}', 'E_GATE_RATE'],
    ] as const) {
      const error = refused(() => parsePolicyText(text, 'p.json'));
      expect([text, error.code]).toEqual([text, code]);
      expect(error.message).not.toContain('\n');
      expect(error.message.startsWith('p.json: the policy has 1 problem: ')).toBe(true);
    }
    expect(
      refused(() => parsePolicyText('{"gates":{"g":{"rate":{"limit":-1e999}}}}', 'p.json')).message,
    ).toBe(
      'p.json: the policy has 1 problem: /gates/g/rate/limit is written as a number too large to hold (it reads as -Infinity) — write a finite number (line 1, column 24)',
    );
    // Huge but finite limits are a pace of (almost) nothing, and huge concurrency no limit.
    expect(
      parsePolicyText('{"gates":{"g":{"rate":{"limit":1e308},"concurrency":9007199254740991}}}', 'p.json')
        .policy.gates.g?.rate,
    ).toEqual({ limit: 1e308, periodMs: 1000, burst: 1 });
  });

  it('gives the line and column of a gate problem in a policy file', () => {
    const text =
      '{\n  "gates": {\n    "a": { "placements": ["call"] },\n    "b": { "placements": ["call"] }\n  }\n}';
    const error = refused(() => parsePolicyText(text, 'p.json'));
    expect(error.code).toBe('E_GATE_OVERLAP');
    expect(error.problems[0]).toMatchObject({ file: 'p.json', line: 4, column: 27 });
    expect(error.message).toBe(
      "p.json: the policy has 1 problem: placement 'call' is listed by gates 'a' and 'b'; an execution passes through one gate: list it under one of them (line 4, column 27)",
    );
  });
});

describe('gate members against the documents', () => {
  it('warns of a member naming nothing, with a guess when one is close', () => {
    const problems = gateMemberProblems(
      {
        gates: {
          api: {
            placements: ['cal', 'urn:test:gates#lookup', 'urn:test:gates#nope'],
            nodes: ['urn:test:cal'],
          },
        },
      },
      [chain],
    );
    expect(problems.map((p) => [p.code, p.severity, p.pointer])).toEqual([
      ['W_GATE_UNKNOWN_MEMBER', 'warning', '/gates/api/placements/0'],
      ['W_GATE_UNKNOWN_MEMBER', 'warning', '/gates/api/placements/2'],
      ['W_GATE_UNKNOWN_MEMBER', 'warning', '/gates/api/nodes/0'],
    ]);
    expect(problems[0]?.message).toBe(
      "gate 'api' lists placement 'cal', which names no placement of urn:test:gates, so no execution passes the gate through it — did you mean 'call'?",
    );
    expect(problems[2]?.message).toContain("did you mean 'urn:test:call'?");
  });

  it('warns of a member naming only placements that pass no gate: a phase, an embed, a terminal', () => {
    const phased = phaseDag('pre', 'audit');
    const input = {
      gates: { g: { placements: ['audit', 'done', 'work'], nodes: ['urn:test:pre', 'urn:test:work'] } },
    };
    const problems = gateMemberProblems(input, [phased]);
    expect(problems.map((p) => [p.code, p.pointer])).toEqual([
      ['W_GATE_UNGATED_MEMBER', '/gates/g/placements/0'],
      ['W_GATE_UNGATED_MEMBER', '/gates/g/placements/1'],
      ['W_GATE_UNGATED_MEMBER', '/gates/g/nodes/0'],
    ]);
    expect(problems[0]?.message).toBe(
      "gate 'g' lists placement 'audit', whose executions pass no gate (a phase placement) — only task placements and scatters with a node body pass gates: list those whose calls the gate should limit, or remove it",
    );
    expect(problems[2]?.message).toContain("lists node 'urn:test:pre', which is placed only as a phase");
    const review = sampleDags().get('review.jsonld') as Dag;
    const embed = review.placements.find((p) => p.kind === 'embed')?.key as string;
    const warned = gateMemberProblems({ gates: { g: { placements: [embed] } } }, [review]);
    expect(warned.map((p) => p.severity)).toEqual(['warning']);
    expect(warned[0]?.message).toContain('(an embed placement)');
  });

  it('says nothing of members that name placements and nodes', () => {
    const input = { gates: { a: { placements: ['call'] }, b: { nodes: ['urn:test:lookup'] } } };
    expect(gateMemberProblems(input, [chain])).toEqual([]);
  });

  it('finds a placement in one gate whose node is in another, as preparing the document does', () => {
    const input = {
      gates: { a: { placements: ['lookup', 'call'] }, b: { nodes: ['urn:test:call'] } },
    };
    const locate = (pointer: string) =>
      pointer === '/gates/a/placements/1' ? { line: 3, column: 7 } : undefined;
    const problems = gateMemberProblems(input, [chain], { file: 'p.json', locate });
    expect(problems).toEqual([
      {
        code: 'E_GATE_OVERLAP',
        severity: 'error',
        message:
          "placement 'call' of urn:test:gates is listed by gate 'a' and its node urn:test:call by gate 'b'; an execution passes through one gate: list one of them only",
        pointer: '/gates/a/placements/1',
        placement: 'call',
        file: 'p.json',
        line: 3,
        column: 7,
      },
    ]);
    const policy = resolvePolicy(input);
    const compiled = compile(chain);
    const error = refused(() =>
      gateOfPlacement(policy.gates, chain.id, compiled.byKey.get('call') as never, 'urn:test:call'),
    );
    expect(error.code).toBe('E_GATE_OVERLAP');
  });

  it('finds a placement listed by two gates, once bare and once with its document', () => {
    const input = { gates: { a: { placements: ['call'] }, b: { placements: ['urn:test:gates#call'] } } };
    // Two different strings: the policy alone cannot see it.
    expect(gatePolicyProblems(input.gates)).toEqual([]);
    const problems = gateMemberProblems(input, [chain]);
    expect(problems.map((p) => [p.code, p.pointer, p.placement])).toEqual([
      ['E_GATE_OVERLAP', '/gates/b/placements/0', 'call'],
    ]);
    const policy = resolvePolicy(input);
    const error = refused(() =>
      gateOfPlacement(policy.gates, chain.id, compile(chain).byKey.get('call') as never, 'urn:test:call'),
    );
    expect(error.code).toBe('E_GATE_OVERLAP');
    expect(error.message).toContain("listed by gates 'a' and 'b'");
  });
});
