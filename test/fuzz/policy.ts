/**
 * Hostile runtime policies and run input for fuzz cases: a policy file beside the document (which `run`
 * picks up) with prototype names as placement and node keys, deadlines of 0, -1 or 1e308, back-off that
 * overflows, misspelt keys and wrong types; and input nested thousands deep, with prototype keys, or with a
 * long list for a scatter.
 */
import fc from 'fast-check';
import { nested } from './mutate.ts';
import { emit, Obj, Raw, type Tree } from './tree.ts';

/** One hostile policy, as the choices it is built from. */
export interface PolicySpec {
  readonly keyed: 'placements' | 'nodes';
  readonly key: string;
  readonly deadline: string;
  readonly backoff: readonly [string, string, string];
  readonly strategy: string;
  readonly runDeadline: string;
  readonly concurrency: string;
  readonly retryAfterCap: string;
}

const odd = ['0', '-1', '1', '1e308', '0.5', 'null', '"1000"', '{}', '9007199254740993', '1e400'] as const;

export const policyArbitrary: fc.Arbitrary<PolicySpec> = fc.record({
  keyed: fc.constantFrom('placements' as const, 'nodes' as const),
  key: fc.constantFrom('__proto__', 'constructor', 'toString', 'compose', 'execute', 'search', 'nowhere', ''),
  deadline: fc.constantFrom(...odd),
  backoff: fc.tuple(fc.constantFrom(...odd), fc.constantFrom(...odd), fc.constantFrom(...odd)),
  strategy: fc.constantFrom('"exponential"', '"constant"', '"decorrelated"', '"linear"', '7'),
  runDeadline: fc.constantFrom(...odd),
  concurrency: fc.constantFrom('0', '-1', '1', '1e308', '0.5', '"2"'),
  retryAfterCap: fc.constantFrom(...odd),
});

/** The policy file's text. */
export function policyText(spec: PolicySpec): string {
  const raw = (text: string) => new Raw(text);
  const timing = new Obj([
    ['deadlineMs', raw(spec.deadline)],
    [
      'backoff',
      new Obj([
        ['strategy', raw(spec.strategy)],
        ['baseMs', raw(spec.backoff[0])],
        ['factor', raw(spec.backoff[1])],
        ['capMs', raw(spec.backoff[2])],
      ]),
    ],
    ['retryAfter', new Obj([['capMs', raw(spec.retryAfterCap)]])],
    ['concurrency', raw(spec.concurrency)],
  ]);
  const tree: Tree = new Obj([
    ['defaults', new Obj([['deadlineMs', raw(spec.deadline)]])],
    [spec.keyed, new Obj([[spec.key, timing]])],
    ['run', new Obj([['deadlineMs', raw(spec.runDeadline)]])],
  ]);
  return emit(tree);
}

/** What the run input looks like. */
export type InputShape = 'deep' | 'deep-list' | 'long-list' | 'prototype-keys' | 'odd-values';

export const inputShapeArbitrary: fc.Arbitrary<InputShape> = fc.constantFrom(
  'deep',
  'deep-list',
  'long-list',
  'prototype-keys',
  'odd-values',
);

/** Input text of `shape` for one item, with the lists the shipped documents scatter over. */
export function inputText(shape: InputShape): string {
  const lists = ['queries', 'strategies', 'lists'];
  switch (shape) {
    case 'deep':
      return `{"v":1,"topic":${nested(5_000, 'object').text},"question":"x","queries":[1]}`;
    case 'deep-list':
      return `{"v":1,${lists.map((l) => `"${l}":[${nested(5_000, 'array').text}]`).join(',')}}`;
    case 'long-list':
      return `{"v":1,${lists.map((l) => `"${l}":[${Array.from({ length: 2_000 }, (_, i) => `{"v":${i}}`).join(',')}]`).join(',')}}`;
    case 'prototype-keys':
      return '{"__proto__":{"polluted":"input"},"constructor":{"prototype":{"polluted":"input"}},"queries":[{"__proto__":{"polluted":"item"}}],"topic":"x"}';
    case 'odd-values':
      return `{"v":1e308,"topic":"\\u0000\\ud800","question":${JSON.stringify('q'.repeat(100_000))},"queries":[null,-0,1e400,{}],"strategies":"not a list"}`;
  }
}
