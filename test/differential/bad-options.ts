/**
 * The "bad options refused alike" table: run options, inputs, policies and documents that one dispatcher
 * might take and the other refuse, each put to `createDispatcher` (in memory) and to
 * `createDistributedDispatcher` (with the suite's worker). Both must give the same verdict: refused with
 * the same code and message, or accepted with the same endings.
 */
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { dag as build } from '../../src/document/builder.ts';
import { libraryOf } from '../../src/document/load.ts';
import type { Dag } from '../../src/document/model.ts';
import { isSwitchyardError } from '../../src/errors.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import type { RunResult } from '../../src/runtime/run.ts';
import { TEST_REDIS } from '../store/redis-scratch.ts';
import { bounded, TimedOut } from './executors.ts';

const WORK = 'urn:diff:options:node:work';

/** The node of the table's documents: every item goes on to `done`. */
export const OPTION_NODES: readonly NodeDefinition<string, never>[] = [
  defineNode({ id: WORK, outputs: ['ok'], run: () => 'ok' }) as NodeDefinition<string, never>,
];

const plain = build('urn:diff:options:plain', { name: 'plain', version: '1' })
  .entry('work')
  .task('work', WORK)
  .route('ok', 'done')
  .terminal('done', 'completed')
  .build();

const inner = build('urn:diff:options:inner', { name: 'inner', version: '1' })
  .entry('work')
  .task('work', WORK)
  .route('ok', 'done')
  .terminal('done', 'completed')
  .build();

/** Embeds `inner`, which a row may leave out of the library. */
const embedding = build('urn:diff:options:embedding', { name: 'embedding', version: '1' })
  .entry('inner')
  .embed('inner', inner.id)
  .route('completed', 'done')
  .terminal('done', 'completed')
  .build();

/** A loop without a budget: not a valid document (the builder checks the schema only). */
const looping = build('urn:diff:options:loop', { name: 'loop', version: '1' })
  .entry('work')
  .task('work', WORK)
  .route('ok', 'work')
  .build();

/** One row: what is handed to both dispatchers. */
export interface OptionRow {
  readonly name: string;
  readonly dag?: Dag;
  readonly input?: unknown;
  readonly options?: Record<string, unknown>;
  readonly policy?: PolicyInput;
  /** Leaves `inner` out of the library. */
  readonly noLibrary?: boolean;
  /** Registers no node. */
  readonly noNodes?: boolean;
  /**
   * A bad value of an option only a run in process has: both refuse it with the same code, the distributed
   * dispatcher naming the option as none of its own, so the messages differ.
   */
  readonly localOnly?: boolean;
}

/** A value as a row's name shows it: NaN, -0, 10n, Infinity, a Date and the like told apart from JSON. */
function label(value: unknown): string {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol' || typeof value === 'function') return `a ${typeof value}`;
  if (value === undefined) return 'undefined';
  if (value instanceof Date) return 'a Date';
  if (value instanceof Map) return 'a Map';
  if (value instanceof Set) return 'a Set';
  if (Array.isArray(value)) return `[${value.map(label).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const proto = Object.getPrototypeOf(value) as unknown;
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${label(v)}`);
    return `${proto === null ? 'null-prototype ' : ''}{${entries.join(', ')}}`;
  }
  return JSON.stringify(value);
}

const runOption = (name: string, value: unknown): OptionRow => ({
  name: `run option ${name} = ${label(value)}`,
  options: { [name]: value },
});

/**
 * The table. Both dispatchers must give each row the same verdict, and a refusal must carry a stable code.
 * Options that are not run options (`concurrency`, `seed`) are refused by name alike.
 */
export const OPTION_ROWS: readonly OptionRow[] = [
  ...[
    0,
    -0,
    -5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    '5',
    '',
    null,
    true,
    10n,
    {},
    [5],
    30_000.5,
    Number.MAX_SAFE_INTEGER,
  ].map((v) => runOption('deadlineMs', v)),
  ...['nowhere', '', 'done', 7, null, {}, ' work'].map((v) => runOption('entrypoint', v)),
  ...[
    'abc',
    {},
    [],
    [1],
    [null],
    [[]],
    ['x'],
    new Set([{}]),
    { length: 1, 0: {} },
    [{}, 'x'],
    [new Date(0)],
    [new Map()],
    [{ n: 10n }],
    [{ n: Number.NaN }],
    [{ list: [1, undefined] }],
    [{ fn: () => 1 }],
    [{ a: { b: { when: new Date(0) } } }],
    [{ gone: undefined, z: -0 }],
    [Object.assign(Object.create(null) as object, { a: 1 })],
    [JSON.parse('{"__proto__":{"x":1}}') as unknown],
  ].map((v) => ({ name: `run option items = ${label(v)}`, options: { items: v } })),
  ...[
    'text',
    null,
    [1],
    42,
    new Date(0),
    { n: 10n },
    { n: Number.POSITIVE_INFINITY },
    { gone: undefined },
  ].map((v) => ({ name: `input = ${label(v)}`, input: v })),
  ...['', 42, null, 'a{b}', 'x'.repeat(201), 'line\nbreak', ['r']].map((v) => runOption('runId', v)),
  ...['listen', {}, null].map((v) => runOption('onEvent', v)),
  ...[0, -1, 1.5].map((v) => runOption('concurrency', v)),
  ...[1.5, -1, 'x'].map((v) => runOption('seed', v)),
  ...['events', 'policy', 'deadline', 'onevent', 'item'].map((name) => runOption(name, {})),
  ...(
    [
      ['signal', 'stop'],
      ['store', {}],
      ['store', 'memory'],
      ['files', 3],
      ['resume', 'x'],
    ] as const
  ).map(([name, value]) => ({ ...runOption(name, value), localOnly: true })),
  { name: 'run options = "fast"', options: 'fast' as unknown as Record<string, unknown> },
  { name: 'run options = []', options: [] as unknown as Record<string, unknown> },
  { name: 'run options = null', options: null as unknown as Record<string, unknown> },
  ...[0, -1, 1.5].map((v) => ({
    name: `policy defaults.concurrency = ${v}`,
    policy: { defaults: { concurrency: v } },
  })),
  ...[0, -5].map((v) => ({ name: `policy run.deadlineMs = ${v}`, policy: { run: { deadlineMs: v } } })),
  { name: 'policy defaults.deadlineMs = -1', policy: { defaults: { deadlineMs: -1 } } },
  { name: 'a document with a loop without budget', dag: looping },
  { name: 'an embedded document missing from the library', dag: embedding, noLibrary: true },
  { name: 'a node that is not registered', noNodes: true },
];

/** What a dispatcher made of a row. */
export type Verdict =
  | { readonly refused: string; readonly message: string }
  | { readonly accepted: { status: RunResult['status']; endings: string[] } }
  | { readonly hung: true };

function refusal(error: unknown): Verdict {
  if (!isSwitchyardError(error))
    return { refused: `a ${typeof error} that is no SwitchyardError`, message: '' };
  return { refused: error.code, message: error.message };
}

async function verdictOf(start: () => Promise<RunResult>): Promise<Verdict> {
  try {
    const result = await bounded(start(), 5_000, 'the run');
    const endings = [
      ...result.items.map((i) => `${i.id}:${i.terminal}`),
      ...result.failures.map((f) => `${f.id}:${f.error.code}`),
      ...result.aborted.map((a) => `${a.item}:aborted`),
    ];
    return { accepted: { status: result.status, endings } };
  } catch (error) {
    return error instanceof TimedOut ? { hung: true } : refusal(error);
  }
}

function parts(row: OptionRow) {
  const dag = row.dag ?? plain;
  const library = libraryOf(row.noLibrary === true ? [] : [inner]);
  const nodes = row.noNodes === true ? [] : OPTION_NODES;
  const input = (row.input === undefined ? {} : row.input) as Record<string, unknown>;
  return { dag, library, nodes, input, options: 'options' in row ? row.options : {} };
}

/** The verdict of `createDispatcher` on a row. */
export function localVerdict(row: OptionRow): Promise<Verdict> {
  const { dag, library, nodes, input, options } = parts(row);
  return verdictOf(async () => {
    const clock = createVirtualClock({ auto: true });
    const dispatcher = createDispatcher({
      nodes,
      library,
      clock,
      ...(row.policy ? { policy: row.policy } : {}),
    });
    return dispatcher.run(dag, input, options).result;
  });
}

/** The verdict of `createDistributedDispatcher` on a row, with the worker under `prefix`. */
export async function distributedVerdict(row: OptionRow, prefix: string): Promise<Verdict> {
  const { dag, library, nodes, input, options } = parts(row);
  let dispatcher: Awaited<ReturnType<typeof createDistributedDispatcher>>;
  try {
    dispatcher = await createDistributedDispatcher({
      connection: TEST_REDIS,
      nodes,
      library,
      prefix,
      ...(row.policy ? { policy: row.policy } : {}),
    });
  } catch (error) {
    return refusal(error);
  }
  try {
    const run = dispatcher.run(dag, input, options);
    const verdict = await verdictOf(() => run.result);
    if ('hung' in verdict) {
      await bounded(dispatcher.abort(run.id, { waitMs: 2_000 }), 5_000, 'the abort').catch(() => undefined);
    }
    return verdict;
  } finally {
    await dispatcher.close();
  }
}
