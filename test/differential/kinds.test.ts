/**
 * What each placement kind does, held to fixed answers in every executor (in memory, durable over SQLite,
 * distributed over BullMQ): the child an embed starts and the result mapping it takes back, the children a
 * scatter makes (ids, `{ item, index }` data, journal scopes) and the results they give, and the gather
 * reductions (collect order, the `first` winner, a `quorum` tie, partition's failed children). The
 * differential suite compares the executors with each other, so a change to a kind's module that all three
 * share is not seen there; here it fails each executor's tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import type { Dag } from '../../src/document/model.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { scatterSegment } from '../../src/runtime/journal-key.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import type { RunResult } from '../../src/runtime/run.ts';
import { removeScratchKeys } from '../store/redis-scratch.ts';
import type { DiffCase } from './corpus.ts';
import { DistributedExecutor, type Executed, runDurable, runInMemory } from './executors.ts';

const NODE = 'urn:kinds:node:';
const DAG = 'urn:kinds:dag:';
const HEADER = { name: 'kinds', version: '1' };

interface Element {
  readonly v: string;
  readonly fail?: boolean;
  /** The output the `verdict` body takes (`ok` when absent). */
  readonly out?: string;
}

const NODES: readonly NodeDefinition<string, never>[] = [
  // An embedded document's node: reads what the input mappings gave it, journals a step.
  defineNode({
    id: `${NODE}double`,
    outputs: ['ok'],
    run: async (item, ctx) => {
      const twice = await ctx.step('twice', () => (item.data.x as number) * 2);
      item.data.out = { twice, id: item.id, y: 'y' in item.data };
      return 'ok';
    },
  }),
  // A scatter body that reports what its child is (id, index, element) and journals a step.
  defineNode({
    id: `${NODE}child`,
    outputs: ['ok', 'failed'],
    run: async (item, ctx) => {
      const element = item.data.item as Element;
      const seen = await ctx.step('seen', () => element.v);
      item.data.result = { id: item.id, index: item.data.index, v: seen };
      return element.fail === true ? 'failed' : 'ok';
    },
  }),
  // A scatter body (or a body document's task) whose result is the element's value.
  defineNode({
    id: `${NODE}value`,
    outputs: ['ok', 'failed'],
    run: (item) => {
      const element = item.data.item as Element;
      item.data.result = element.v;
      return element.fail === true ? 'failed' : 'ok';
    },
  }),
  // A scatter body that takes the output its element names.
  defineNode({
    id: `${NODE}verdict`,
    outputs: ['ok', 'failed', 'error', 'odd'],
    run: (item) => {
      const element = item.data.item as Element;
      item.data.result = element.v;
      return element.out ?? 'ok';
    },
  }),
];

const twice = dag(`${DAG}double`, HEADER)
  .task('work', `${NODE}double`)
  .terminal('end', 'completed')
  .entry('work')
  .from('work')
  .route('ok', 'end')
  .build();

const body = dag(`${DAG}body`, HEADER)
  .task('judge', `${NODE}value`)
  .terminal('good', 'completed')
  .terminal('poor', 'failed')
  .entry('judge')
  .from('judge')
  .route('ok', 'good')
  .route('failed', 'poor')
  .build();

/** A root document: the placement under test at `start`, routed on `completed` / `failed` to two terminals. */
function root(name: string, build: (d: ReturnType<typeof dag>) => ReturnType<typeof dag>, last: string): Dag {
  return build(dag(`${DAG}${name}`, HEADER).terminal('ok', 'completed').terminal('bad', 'failed'))
    .entry('start')
    .from(last)
    .route('completed', 'ok')
    .route('failed', 'bad')
    .build();
}

/** A scatter `start` over `/list` (a node or a body document) into gather `g`. */
function fanned(name: string, over: { node: string } | { dag: string }, gather: object): Dag {
  return root(
    name,
    (d) =>
      d
        .scatter('start', { items: '/list', ...over } as Parameters<typeof d.scatter>[1])
        .gather('g', { into: '/gathered', ...gather })
        .from('start')
        .route('done', 'g'),
    'g',
  );
}

interface KindCase {
  readonly name: string;
  readonly root: Dag;
  readonly items: readonly Record<string, unknown>[];
  readonly policy?: PolicyInput;
  readonly check: (result: RunResult) => void;
}

const list = (...values: Element[]) => values;

const CASES: readonly KindCase[] = [
  {
    name: 'an embed maps its input in and its result out, and its steps join the parent journal',
    root: root(
      'embed',
      (d) =>
        d.embed('start', `${DAG}double`, {
          input: [
            { from: '/a', to: '/x' },
            { from: '/absent', to: '/y' },
          ],
          result: [
            { from: '/out', to: '/got' },
            { from: '/x', to: '/echo/x' },
            // Sorted after '/out' (a document keeps its mappings in canonical order): every mapping but
            // the last is seen in the result.
            { from: '/unset', to: '/none' },
          ],
        }),
      'start',
    ),
    items: [{ a: 3 }],
    check: (result) => {
      expect(result.items.map((i) => [i.terminal, i.data])).toEqual([
        ['ok', { a: 3, got: { twice: 6, id: '1/start', y: false }, echo: { x: 3 } }],
      ]);
      expect(Object.keys(result.items[0]?.state.journal ?? {})).toEqual(['start/twice']);
    },
  },
  {
    name: 'a scatter makes child <parent>.<i> with { item, index }, scoped by placement, index and element',
    root: fanned('fan', { node: `${NODE}child` }, { reducer: 'collect', require: 'all' }),
    items: [{ list: list({ v: 'a' }, { v: 'b', fail: true }, { v: 'c' }) }],
    check: (result) => {
      const [item] = result.items;
      expect(item?.terminal).toBe('bad');
      expect(item?.data.gathered).toEqual([
        { id: '1.0', index: 0, v: 'a' },
        { id: '1.2', index: 2, v: 'c' },
      ]);
      const elements = item?.data.list as Element[];
      const keys = elements.map((element, i) => `${scatterSegment('start', i, element)}seen`);
      expect(Object.keys(item?.state.journal ?? {}).sort()).toEqual(keys.sort());
    },
  },
  {
    name: "a 'first' gather takes the first child to complete, the rest having run",
    root: fanned('first', { node: `${NODE}value` }, { reducer: 'first', require: 'all' }),
    policy: { placements: { [`${DAG}first#start`]: { concurrency: 1 } } },
    items: [{ list: list({ v: 'x' }, { v: 'y' }, { v: 'z' }) }],
    check: (result) => {
      expect(result.items.map((i) => [i.terminal, i.data.gathered])).toEqual([['ok', 'x']]);
    },
  },
  {
    name: "a 'quorum' tie goes to the value whose first child comes first",
    root: fanned('quorum', { node: `${NODE}value` }, { reducer: 'quorum', require: 'any' }),
    items: [
      { list: list({ v: 'b' }, { v: 'a' }, { v: 'a' }, { v: 'b' }) },
      { list: list({ v: 'a', fail: true }, { v: 'c' }, { v: 'a' }, { v: 'a' }, { v: 'c' }) },
    ],
    check: (result) => {
      expect(result.items.map((i) => [i.id, i.terminal, i.data.gathered])).toEqual([
        ['1', 'ok', 'b'],
        ['2', 'ok', 'c'],
      ]);
    },
  },
  {
    name: "a node body's 'failed' and 'error' outputs fail its child, any other output completes it",
    root: fanned('verdict', { node: `${NODE}verdict` }, { reducer: 'partition', require: 'any' }),
    items: [
      {
        list: list({ v: 'a' }, { v: 'b', out: 'error' }, { v: 'c', out: 'failed' }, { v: 'd', out: 'odd' }),
      },
    ],
    check: (result) => {
      expect(result.items.map((i) => [i.terminal, i.data.gathered])).toEqual([
        ['ok', { completed: ['a', 'd'], failed: [{ index: 1 }, { index: 2 }] }],
      ]);
    },
  },
  {
    name: "a 'partition' over a body document keeps input order and names the failed children's terminals",
    root: fanned('partition', { dag: `${DAG}body` }, { reducer: 'partition', require: 'any' }),
    items: [{ list: list({ v: 'p' }, { v: 'q', fail: true }, { v: 'r' }, { v: 's', fail: true }) }],
    check: (result) => {
      expect(result.items.map((i) => [i.terminal, i.data.gathered])).toEqual([
        [
          'ok',
          {
            completed: ['p', 'r'],
            failed: [
              { index: 1, terminal: 'poor' },
              { index: 3, terminal: 'poor' },
            ],
          },
        ],
      ]);
    },
  },
];

/** A kind's case as a differential case, for the differential suite's executors. */
function diffCase(c: KindCase, seed: number): DiffCase {
  return {
    seed,
    root: c.root,
    library: [twice, body],
    plans: new Map(),
    nodes: NODES,
    items: c.items,
    policy: c.policy ?? {},
    deadlineMs: undefined,
    features: new Map(),
  };
}

let distributed: DistributedExecutor | undefined;
let folder = '';

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'switchyard-kinds-'));
  distributed = await DistributedExecutor.start(NODES);
});

afterAll(async () => {
  await distributed?.close();
  await removeScratchKeys();
  if (folder !== '') rmSync(folder, { recursive: true, force: true });
});

const EXECUTORS: Readonly<Record<string, (c: DiffCase) => Promise<Executed>>> = {
  memory: runInMemory,
  durable: (c) => runDurable(c, folder),
  distributed: (c) => (distributed as DistributedExecutor).run(c),
};

for (const [executor, run] of Object.entries(EXECUTORS)) {
  describe(`placement kinds, ${executor}`, () => {
    CASES.forEach((c, i) => {
      it(c.name, { timeout: 60_000 }, async () => {
        const { result } = await run(diffCase(c, 9000 + i));
        expect(result.failures).toEqual([]);
        c.check(result);
      });
    });
  });
}
