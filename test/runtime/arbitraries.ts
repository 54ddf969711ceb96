/**
 * fast-check arbitraries for dispatcher properties: random valid DAG documents built from stages in a
 * topological order (a task, an embed of a generated child DAG, or a scatter/gather pair with a node or
 * sub-DAG body), forward `next`/`salvage` routes, budgeted `retry` routes backward or to self, resets only
 * towards budgets declared earlier so the resets relation stays acyclic, and pre/post phases at the root.
 * Child documents are generated the same way, one level shallower.
 */
import fc from 'fast-check';
import { dag as buildDag, type DagBuilder } from '../../src/document/builder.ts';
import type { Dag, GatherRequirement, Reducer } from '../../src/document/model.ts';
import type { PolicyInput, TimingOverride } from '../../src/policy/types.ts';

type RouteChoice = 'next' | 'salvage' | 'retry';

/** One routed output; the numbers pick targets and budgets modulo what is allowed there. */
interface OutputSpec {
  readonly kind: RouteChoice;
  readonly to: number;
  readonly exhausted: number;
  readonly budget: number;
  /** A bit mask over the budgets declared before the spent one. */
  readonly resets: number;
}

/** An output that may be left unrouted (items taking it then fail with E_UNROUTED_OUTPUT). */
interface OptionalRoute {
  readonly present: boolean;
  readonly route: OutputSpec;
}

/** One stage: a task, an embed, or a scatter/gather pair (fields a kind does not use are ignored). */
interface StageSpec {
  readonly kind: 'task' | 'embed' | 'scatter';
  /** Extra outputs of a task. */
  readonly outputs: readonly OutputSpec[];
  /** `failed` of an embed or of a gather. */
  readonly failed: OptionalRoute;
  /** `retry` of a task or an embed (after a retryable error). */
  readonly retry: OptionalRoute;
  /** `error` of a task, an embed or a scatter. */
  readonly error: OptionalRoute;
  /** Which child document an embed or a sub-DAG scatter runs. */
  readonly child: number;
  readonly body: 'node' | 'dag';
  /** The list a scatter fans out: `lists/<list>`; {@link LIST_COUNT} names a list that is not there. */
  readonly list: number;
  readonly reducer: Reducer;
  readonly require: GatherRequirement;
  /** 0: no `quorum` field (a majority). */
  readonly quorum: number;
  readonly into: 'result' | 'gathered';
  readonly mapLists: boolean;
  readonly mapResult: boolean;
}

/** The shape a random DAG (and the child documents it runs) is built from. */
export interface DagSpec {
  readonly budgets: readonly number[];
  readonly terminals: readonly boolean[];
  readonly stages: readonly StageSpec[];
  readonly pre: number;
  readonly post: number;
  readonly children: readonly DagSpec[];
}

/** Lists each input item carries under `/lists`; scatters read `/lists/<k>`, and `k = LIST_COUNT` is absent. */
export const LIST_COUNT = 3;

/** What a generated root needs to run: the root document and every document it embeds or scatters over. */
export interface GeneratedDag {
  readonly dag: Dag;
  readonly library: readonly Dag[];
  /** How many levels of child documents the root may run. */
  readonly depth: number;
}

const outputSpec = (kinds: readonly RouteChoice[]): fc.Arbitrary<OutputSpec> =>
  fc.record({
    kind: fc.constantFrom(...kinds),
    to: fc.nat(20),
    exhausted: fc.nat(20),
    budget: fc.nat(5),
    resets: fc.nat(7),
  });

const optionalRoute = (kinds: readonly RouteChoice[], present = fc.boolean()): fc.Arbitrary<OptionalRoute> =>
  fc.record({ present, route: outputSpec(kinds) });

const stageSpec: fc.Arbitrary<StageSpec> = fc.record({
  kind: fc.constantFrom('task', 'task', 'embed', 'scatter', 'scatter'),
  outputs: fc.array(outputSpec(['next', 'salvage', 'retry', 'retry']), { maxLength: 3 }),
  failed: optionalRoute(['next', 'salvage', 'retry'], fc.constantFrom(true, true, true, false)),
  retry: optionalRoute(['retry', 'retry', 'next']),
  error: optionalRoute(['salvage', 'next']),
  child: fc.nat(3),
  body: fc.constantFrom('node', 'dag'),
  list: fc.constantFrom(0, 0, 1, 1, 2, 2, LIST_COUNT),
  reducer: fc.constantFrom('collect', 'partition', 'first', 'quorum'),
  require: fc.constantFrom('all', 'any', 'quorum'),
  quorum: fc.nat(3),
  into: fc.constantFrom('result', 'gathered'),
  mapLists: fc.constantFrom(true, true, true, false),
  mapResult: fc.boolean(),
});

/** Shapes with 1–6 stages (2–8 at the root), 1–3 terminals, 1–3 budgets of max 0–3, children down to `depth`. */
export function dagSpecArbitrary(depth: number, root = true): fc.Arbitrary<DagSpec> {
  return fc.record({
    budgets: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 3 }),
    terminals: fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }),
    stages: fc.array(stageSpec, { minLength: root ? 2 : 1, maxLength: root ? 8 : 5 }),
    pre: root ? fc.nat(2) : fc.constant(0),
    post: root ? fc.nat(2) : fc.constant(0),
    children:
      depth > 0
        ? fc.array(dagSpecArbitrary(depth - 1, false), { minLength: 1, maxLength: 2 })
        : fc.constant([]),
  });
}

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length] as T;

/** The node IRI of placement `key` of document `dagId`; unique across the generated documents. */
export const nodeIri = (dagId: string, key: string): string =>
  `${dagId.replace('urn:prop:dag:', 'urn:prop:node:')}:${key}`;

/** The IRI of the root document. */
export const ROOT_IRI = 'urn:prop:dag:root';

/** Where a document finds its scatter lists: `''` when its data has `/lists`, `/item` as a scatter body. */
type DataRoot = '' | '/item';

/** The placement keys of each stage: the one items enter and the one they leave from. */
function stageKeys(stage: StageSpec, i: number, hasChildren: boolean): string[] {
  const kind = stage.kind === 'embed' && !hasChildren ? 'task' : stage.kind;
  if (kind === 'task') return [`t${i}`];
  if (kind === 'embed') return [`e${i}`];
  return [`s${i}`, `g${i}`];
}

/** Builds a document and, into `out`, the child documents it runs (one per child and role used). */
function build(spec: DagSpec, id: string, dataRoot: DataRoot, out: Map<string, Dag>): Dag {
  const hasChildren = spec.children.length > 0;
  const childIri = (k: number, role: DataRoot): string => {
    const index = k % spec.children.length;
    const iri = `${id}-c${index}${role === '' ? 'e' : 'b'}`;
    if (!out.has(iri)) out.set(iri, build(spec.children[index] as DagSpec, iri, role, out));
    return iri;
  };
  const budgets = spec.budgets.map((_, b) => `b${b}`);
  const keys = spec.stages.map((stage, i) => stageKeys(stage, i, hasChildren));
  const order = keys.flat();
  const terminals = spec.terminals.map((_, j) => `end${j}`);
  const targeted = new Set<string>();
  let builder: DagBuilder = buildDag(id, { name: 'generated', version: '1' }).entry(order[0] as string);
  spec.budgets.forEach((max, b) => {
    builder = builder.budget(budgets[b] as string, max);
  });
  // Routes leave the placement selected last; `at` is its key, for the forward/backward split.
  const route = (at: string, output: string, o: OutputSpec): void => {
    const p = order.indexOf(at);
    const forward = [...order.slice(p + 1), ...terminals];
    if (o.kind === 'retry') {
      const b = o.budget % budgets.length;
      const resets = budgets.slice(0, b).filter((_, r) => (o.resets >> r) & 1);
      const exhausted = pick(forward, o.exhausted);
      targeted.add(exhausted);
      builder = builder.retry(output, pick(order.slice(0, p + 1), o.to), {
        budget: budgets[b] as string,
        exhausted,
        ...(resets.length > 0 ? { resets } : {}),
      });
      return;
    }
    const to = pick(forward, o.to);
    targeted.add(to);
    builder = o.kind === 'salvage' ? builder.salvage(output, to) : builder.route(output, to);
  };
  const optional = (at: string, output: string, o: OptionalRoute): void => {
    if (o.present) route(at, output, o.route);
  };
  const next = (i: number): string => {
    const following = keys[i + 1]?.[0] ?? 'end0';
    targeted.add(following);
    return following;
  };
  const listPointer = (list: number): string =>
    `${dataRoot}/lists/${list === LIST_COUNT ? 'absent' : String(list)}`;

  spec.stages.forEach((stage, i) => {
    const [first, second] = keys[i] as [string, string | undefined];
    if (first.startsWith('t')) {
      builder = builder.task(first, nodeIri(id, first)).route('go', next(i));
      for (const [k, o] of stage.outputs.entries()) route(first, `o${k}`, o);
      optional(first, 'retry', stage.retry);
      optional(first, 'error', stage.error);
    } else if (first.startsWith('e')) {
      builder = builder.embed(first, childIri(stage.child, ''), {
        input: [
          { from: '/n', to: '/n' },
          ...(stage.mapLists ? [{ from: `${dataRoot}/lists`, to: '/lists' }] : []),
        ],
        result: stage.mapResult ? [{ from: '/result', to: `/out/${first}` }] : [],
      });
      builder = builder.route('completed', next(i));
      optional(first, 'failed', stage.failed);
      optional(first, 'retry', stage.retry);
      optional(first, 'error', stage.error);
    } else {
      const gather = second as string;
      const body =
        stage.body === 'dag' && hasChildren
          ? { dag: childIri(stage.child, '/item') }
          : { node: nodeIri(id, first) };
      builder = builder.scatter(first, { items: listPointer(stage.list), ...body }).route('done', gather);
      optional(first, 'error', stage.error);
      builder = builder.gather(gather, {
        reducer: stage.reducer,
        require: stage.require,
        ...(stage.quorum > 0 ? { quorum: stage.quorum } : {}),
        into: stage.into === 'result' ? '/result' : `/gathered/${gather}`,
      });
      builder = builder.route('completed', next(i));
      optional(gather, 'failed', stage.failed);
    }
  });
  const tasks = order.filter((key) => key.startsWith('t'));
  const kept = terminals.filter((key, j) => {
    if (targeted.has(key)) return true;
    if (tasks.length === 0) return false;
    builder = builder.from(pick(tasks, j)).route(`to_${key}`, key);
    return true;
  });
  spec.terminals.forEach((completed, j) => {
    const key = terminals[j] as string;
    if (kept.includes(key)) builder = builder.terminal(key, completed ? 'completed' : 'failed');
  });
  for (let k = 0; k < spec.pre; k++) builder = builder.phase(`pre${k}`, 'pre', nodeIri(id, `pre${k}`));
  for (let k = 0; k < spec.post; k++) builder = builder.phase(`post${k}`, 'post', nodeIri(id, `post${k}`));
  return builder.build();
}

/** The root document of a shape and every document it runs. */
export function buildSpec(spec: DagSpec, depth: number): GeneratedDag {
  const children = new Map<string, Dag>();
  const dag = build(spec, ROOT_IRI, '', children);
  return { dag, library: [...children.values()], depth };
}

/** Random valid DAG documents with their child documents, nested up to two levels. */
export const generatedDagArbitrary: fc.Arbitrary<GeneratedDag> = fc
  .integer({ min: 0, max: 2 })
  .chain((depth) => dagSpecArbitrary(depth).map((spec) => buildSpec(spec, depth)));

/** A list element: a small value, and lists of its own for the scatters of a sub-DAG body. */
export interface Element {
  readonly v: number;
  readonly lists?: readonly (readonly Element[])[];
}

/** {@link LIST_COUNT} lists of 0–5 elements, whose elements carry lists `depth` levels down. */
export function listsArbitrary(depth: number): fc.Arbitrary<Element[][]> {
  const element: fc.Arbitrary<Element> =
    depth === 0 ? fc.record({ v: fc.nat(2) }) : fc.record({ v: fc.nat(2), lists: listsArbitrary(depth - 1) });
  return fc.array(fc.array(element, { maxLength: 5 }), { minLength: LIST_COUNT, maxLength: LIST_COUNT });
}

/** A runtime policy for a generated run, and the run deadline it is given. */
export interface GeneratedPolicy {
  readonly policy: PolicyInput;
  /** The run deadline in virtual ms; undefined for none. */
  readonly runDeadlineMs: number | undefined;
}

const backoffArbitrary = fc.record({
  strategy: fc.constantFrom('exponential', 'constant', 'decorrelated'),
  baseMs: fc.integer({ min: 0, max: 6 }),
  factor: fc.constantFrom(1, 1.5, 2, 3),
  capMs: fc.integer({ min: 0, max: 40 }),
});

/** The placement keys generated documents use: tasks `t<i>`, embeds `e<i>`, scatters `s<i>`. */
const STAGE_KEYS = Array.from({ length: 8 }, (_, i) => i);

/**
 * Policies over every back-off strategy and jitter mode, Retry-After honoured or not with caps that cut some
 * hints, a per-placement deadline, concurrency limits of 1–3 on some tasks and scatters (so that items
 * queue), timing overrides on some placements, and sometimes a run deadline short enough to end retries.
 */
export const generatedPolicyArbitrary: fc.Arbitrary<GeneratedPolicy> = fc
  .record({
    backoff: backoffArbitrary,
    jitter: fc.constantFrom('none', 'full', 'equal'),
    honour: fc.constantFrom(true, true, true, false),
    retryAfterCapMs: fc.constantFrom(0, 25, 1500, 60_000),
    limits: fc.array(fc.option(fc.integer({ min: 1, max: 3 }), { freq: 2 }), {
      minLength: STAGE_KEYS.length,
      maxLength: STAGE_KEYS.length,
    }),
    overridden: fc.nat(7),
    override: fc.record({ backoff: backoffArbitrary, jitter: fc.constantFrom('none', 'full', 'equal') }),
    runDeadlineMs: fc.option(fc.integer({ min: 1, max: 4000 }), { freq: 2 }),
  })
  .map((g) => {
    const placements: Record<string, TimingOverride> = Object.create(null);
    g.limits.forEach((limit, i) => {
      if (limit === null) return;
      placements[`t${i}`] = { concurrency: limit };
      placements[`s${i}`] = { concurrency: limit };
    });
    placements[`t${g.overridden}`] = { ...placements[`t${g.overridden}`], ...g.override };
    placements[`e${g.overridden}`] = g.override;
    const policy: PolicyInput = {
      defaults: {
        deadlineMs: 50,
        backoff: g.backoff,
        jitter: g.jitter,
        retryAfter: { honour: g.honour, capMs: g.retryAfterCapMs },
      },
      placements,
    };
    return { policy, runDeadlineMs: g.runDeadlineMs ?? undefined };
  });
