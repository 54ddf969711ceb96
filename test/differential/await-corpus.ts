/**
 * The await corpus of the differential suite: documents that park items at await placements (at the entry,
 * after a task, inside a scatter's sub-DAG, inside an embed, in a retry loop, with a salvage route for the
 * deadline), each with its items and an answer script (see `answer-script.ts`): answers with and without
 * data, and parked items left to their deadline.
 */
import { dag } from '../../src/document/builder.ts';
import type { Dag } from '../../src/document/model.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import type { AnswerScript } from './answer-script.ts';
import type { DiffCase } from './corpus.ts';

const HEADER = { name: 'await-diff', version: '1' };
const IRI = 'urn:await-diff:';
const STEP = `${IRI}node:step`;

/**
 * An await's deadline, ms: long beside the durable executor's looks in its store for answers (the first
 * after 250 ms), so that an answer given as its item parks is always taken before it.
 */
export const AWAIT_DEADLINE_MS = 3_600_000;

/** The one node of the corpus: notes the placement it ran at in the item's `trace`. */
export const AWAIT_NODES: readonly NodeDefinition<string, never>[] = [
  defineNode({
    id: STEP,
    outputs: ['done'],
    run: (item, ctx) => {
      const trace = Array.isArray(item.data.trace) ? item.data.trace : [];
      item.data.trace = [...trace, ctx.placement];
      return 'done';
    },
  }) as never,
];

/** A review await of `doc` (answers approved | rejected, data at `into`) routed to three terminals. */
function reviewed(id: string, into: string | undefined, before: boolean): Dag {
  let d = dag(`${IRI}${id}`, HEADER);
  if (before) d = d.task('draft', STEP);
  d = d
    .await('review', { answers: ['approved', 'rejected'], ...(into === undefined ? {} : { into }) })
    .terminal('publish', 'completed')
    .terminal('drop', 'failed')
    .terminal('escalate', 'failed')
    .entry(before ? 'draft' : 'review');
  if (before) d = d.from('draft').route('done', 'review');
  return d
    .from('review')
    .route('approved', 'publish')
    .route('rejected', 'drop')
    .route('deadline', 'escalate')
    .build();
}

const atEntry = reviewed('entry', '/review', false);
const afterTask = reviewed('after-task', undefined, true);
const body = reviewed('body', '/result', true);
const inner = reviewed('inner', '/verdict', true);

const fan = dag(`${IRI}fan`, HEADER)
  .scatter('fan', { items: '/list', dag: body.id })
  .gather('g', { into: '/gathered', reducer: 'partition', require: 'any' })
  .terminal('ok', 'completed')
  .terminal('bad', 'failed')
  .entry('fan')
  .from('fan')
  .route('done', 'g')
  .from('g')
  .route('completed', 'ok')
  .route('failed', 'bad')
  .build();

const embedding = dag(`${IRI}embed`, HEADER)
  .embed('sub', inner.id, {
    input: [{ from: '/title', to: '/title' }],
    result: [
      { from: '/trace', to: '/trace' },
      { from: '/verdict', to: '/review' },
    ],
  })
  .terminal('ok', 'completed')
  .terminal('bad', 'failed')
  .entry('sub')
  .from('sub')
  .route('completed', 'ok')
  .route('failed', 'bad')
  .build();

const loop = dag(`${IRI}loop`, HEADER)
  .budget('rounds', 2)
  .task('draft', STEP)
  .await('review', { answers: ['approved', 'revise'], into: '/review' })
  .terminal('publish', 'completed')
  .terminal('drop', 'failed')
  .terminal('escalate', 'failed')
  .entry('draft')
  .from('draft')
  .route('done', 'review')
  .from('review')
  .route('approved', 'publish')
  .retry('revise', 'draft', { budget: 'rounds', exhausted: 'drop' })
  .route('deadline', 'escalate')
  .build();

const salvaged = dag(`${IRI}salvage`, HEADER)
  .task('draft', STEP)
  .await('review', { answers: ['approved'] })
  .task('fallback', STEP)
  .terminal('publish', 'completed')
  .terminal('done', 'completed')
  .entry('draft')
  .from('draft')
  .route('done', 'review')
  .from('review')
  .route('approved', 'publish')
  .salvage('deadline', 'fallback')
  .from('fallback')
  .route('done', 'done')
  .build();

/**
 * An await's deadline on the workers, ms: they run on real time, so an item left to its deadline waits it
 * out; long beside the time a dispatcher takes to hear a park and answer it on a loaded machine.
 */
export const DISTRIBUTED_AWAIT_DEADLINE_MS = 2_000;

/** Every await of the corpus has the same deadline; retries wait 10 ms. */
function policyOf(docs: readonly Dag[], deadlineMs = AWAIT_DEADLINE_MS): PolicyInput {
  const placements: Record<string, { deadlineMs: number }> = {};
  for (const d of docs) placements[`${d.id}#review`] = { deadlineMs };
  return {
    defaults: { backoff: { strategy: 'constant', baseMs: 10 }, jitter: 'none' },
    placements,
  } as PolicyInput;
}

/** An await case: a differential case with its answer script. */
export interface AwaitCase extends DiffCase {
  readonly name: string;
  readonly answers: AnswerScript;
}

function awaitCase(
  seed: number,
  name: string,
  root: Dag,
  library: readonly Dag[],
  items: readonly Record<string, unknown>[],
  answers: AnswerScript,
): AwaitCase {
  return {
    seed,
    name,
    root,
    library,
    plans: new Map(),
    nodes: AWAIT_NODES,
    items,
    policy: policyOf([root, ...library]),
    deadlineMs: undefined,
    features: new Map(),
    answers,
  };
}

/** The case with every await's deadline `deadlineMs` (which routes nothing differently: no answer races it). */
export function withAwaitDeadline(c: AwaitCase, deadlineMs: number): AwaitCase {
  return { ...c, policy: policyOf([c.root, ...c.library], deadlineMs) };
}

const at = (d: Dag, item: string, visit = 1) => ({ item, dag: d.id, placement: 'review', visit });

/** The corpus. */
export const AWAIT_CASES: readonly AwaitCase[] = [
  awaitCase(
    8001,
    'an await at the entry: answered with data, without, and left to its deadline',
    atEntry,
    [],
    [{ n: 1 }, { n: 2 }, { n: 3 }],
    [
      { ...at(atEntry, '1'), output: 'approved', data: { by: 'ed' } },
      { ...at(atEntry, '2'), output: 'rejected' },
    ],
  ),
  awaitCase(
    8002,
    'an await after a task, taking no data',
    afterTask,
    [],
    [{ n: 1 }, { n: 2 }],
    [{ ...at(afterTask, '1'), output: 'approved' }],
  ),
  awaitCase(
    8003,
    "an await inside a scatter's sub-DAG: each child answered or left to its deadline",
    fan,
    [body],
    [{ list: ['a', 'b', 'c'] }, { list: ['x', 'y'] }],
    [
      { ...at(body, '1.0'), output: 'approved', data: { v: 'A' } },
      { ...at(body, '1.1'), output: 'rejected' },
    ],
  ),
  awaitCase(
    8004,
    'an await inside an embed: the parent takes the result mapping',
    embedding,
    [inner],
    [{ title: 'A' }, { title: 'B' }, { title: 'C' }],
    [
      { ...at(inner, '1/sub'), output: 'approved', data: { by: 'ed' } },
      { ...at(inner, '2/sub'), output: 'rejected', data: { why: 'thin' } },
    ],
  ),
  awaitCase(
    8005,
    'a retry loop through an await: revisions budgeted, exhausted, and a revisit left to its deadline',
    loop,
    [],
    [{ n: 1 }, { n: 2 }, { n: 3 }],
    [
      { ...at(loop, '1', 1), output: 'revise', data: { note: 'a' } },
      { ...at(loop, '1', 2), output: 'approved', data: { note: 'b' } },
      { ...at(loop, '2', 1), output: 'revise' },
      { ...at(loop, '2', 2), output: 'revise' },
      { ...at(loop, '2', 3), output: 'revise', data: { note: 'last' } },
      { ...at(loop, '3', 1), output: 'revise' },
    ],
  ),
  awaitCase(
    8006,
    'a deadline taken along a salvage route',
    salvaged,
    [],
    [{ n: 1 }, { n: 2 }],
    [{ ...at(salvaged, '1'), output: 'approved' }],
  ),
];
