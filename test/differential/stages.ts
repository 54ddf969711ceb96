/**
 * The stages a generated document is made of, each added to the document's builder with its routes, its
 * node's plan and its policy overrides: a task (or a loop task that goes back to an earlier stage), an
 * embed, and a scatter over a node or a sub-DAG with its gather.
 */
import type { DagBuilder } from '../../src/document/builder.ts';
import type { GatherRequirement, Reducer } from '../../src/document/model.ts';
import type { TimingOverride } from '../../src/policy/types.ts';
import { feature, type Gen } from './draw.ts';
import type { Action, BodyAction, TaskPlan } from './plans.ts';
import { BODY_ACTIONS, drawScripts, scriptFeatures } from './scripts.ts';

export type StageKind = 'task' | 'loop' | 'embed' | 'scatter-node' | 'scatter-dag';
export type Role = 'root' | 'embed' | 'body';

/** A deadline no answering node reaches, and every hanging one does. */
export const PLACEMENT_DEADLINE_MS = 40;

/** The document being built, as its stages see it. */
export interface Doc {
  readonly g: Gen;
  readonly b: DagBuilder;
  readonly iri: string;
  readonly depth: number;
  readonly role: Role;
  /** Where the document's data lives: '' for an input or embedded item, '/item' for a scatter child. */
  readonly dataRoot: '' | '/item';
  readonly kinds: readonly StageKind[];
  /** The placement keys of each stage: the one items enter first (a scatter's gather second). */
  readonly keys: readonly (readonly string[])[];
  /** Budgets in the order declared: a loop resets only budgets declared before its own. */
  readonly declared: readonly string[];
  declare(name: string, max: number): DagBuilder;
  /** The placement after stage `i` (or `done`). */
  next(i: number): string;
  /** A placement after stage `i` or a terminal, for salvage and exhaustion routes. */
  forward(i: number): string;
  timing(key: string, override: TimingOverride): void;
  nodeIri(key: string): string;
  /** Makes a child document one level down and returns its IRI. */
  child(role: Role): string;
}

/** A task; a loop task also retries back to an earlier stage, rewriting the lists as it goes round. */
export function addTask(doc: Doc, i: number, loop: boolean): void {
  const { g, b, iri, keys, kinds, declared, declare, forward, next, timing, dataRoot } = doc;
  const key = keys[i]?.[0] as string;
  const node = doc.nodeIri(key);
  const timed = !loop && g.draw.chance(0.25);
  const mode =
    loop || timed
      ? 'async'
      : g.draw.weighted<TaskPlan['mode']>([
          ['sync', 1],
          ['async', 2.2],
          ['batch', 0.8],
        ]);
  b.task(key, node).route('go', next(i));
  const routed = new Set(['go']);
  const budget = `b_${key}`;
  const max = g.draw.weighted([
    [0, 1],
    [1, 2],
    [2, 3],
    [3, 2],
  ] as const);
  if (g.draw.chance(loop ? 0.3 : 0.7)) {
    declare(budget, max).retry('again', key, { budget, exhausted: forward(i) });
    routed.add('again');
  }
  if (mode !== 'sync' || g.draw.chance(0.5)) {
    if (g.draw.chance(0.5)) {
      if (!routed.has('again')) declare(budget, max);
      b.retry('retry', key, { budget, exhausted: forward(i) });
    }
    if (g.draw.chance(0.6)) b.salvage('error', forward(i));
  }
  if (g.draw.chance(0.3)) {
    b.salvage('alt', forward(i));
    routed.add('alt');
  }
  let plan: TaskPlan = {
    kind: 'task',
    mode,
    step: mode !== 'sync' && !timed && g.draw.chance(0.45),
    dataRoot,
    scripts: drawScripts(g, routed, { mode }, timed),
  };
  if (loop) {
    const earlier = keys.slice(0, i).filter((_k, j) => kinds[j] !== 'task' && kinds[j] !== 'loop');
    const to = g.draw.pick(earlier.length > 0 ? earlier : keys.slice(0, i)) as readonly string[];
    const loopBudget = `loop_${key}`;
    const loopMax = g.draw.int(1, 2);
    const resets = declared.filter((name) => !name.startsWith('loop_') && g.draw.chance(0.3));
    declare(loopBudget, loopMax).retry('redo', to[0] as string, {
      budget: loopBudget,
      exhausted: forward(i),
      ...(resets.length > 0 ? { resets } : {}),
    });
    const scripts = g.draw.pick<Action[][]>([
      [[{ kind: 'redo' }, { kind: 'go', output: 'go' }]],
      [[{ kind: 'redo' }, { kind: 'redo' }, { kind: 'go', output: 'go' }], [{ kind: 'go', output: 'go' }]],
      [[{ kind: 'redo' }], [{ kind: 'redo' }, { kind: 'go', output: 'go' }]],
      [
        [{ kind: 'redo' }, { kind: 'stray' }],
        [{ kind: 'redo' }, { kind: 'go', output: 'go' }],
      ],
    ]);
    plan = { ...plan, scripts, loop: { budget: loopBudget, max: loopMax } };
    feature(g, 'loop back to an earlier placement');
    for (let j = keys.findIndex((k) => k[0] === to[0]); j < i; j++) {
      if (kinds[j] !== 'task' && kinds[j] !== 'loop') g.reentered.add(`${iri}#${keys[j]?.[0]}`);
    }
  }
  if (timed) {
    timing(key, { deadlineMs: PLACEMENT_DEADLINE_MS });
    feature(g, 'placement deadline');
  }
  if (plan.scripts.some((s) => s.some((a) => a.kind === 'long')))
    timing(key, { retryAfter: { capMs: 60_000 } });
  if (g.draw.chance(0.2)) {
    timing(key, { concurrency: g.draw.int(1, 2) });
    feature(g, 'task concurrency limit');
  }
  if (mode === 'batch') feature(g, 'batch node');
  if (plan.step) feature(g, 'journalled step');
  scriptFeatures(g, plan.scripts);
  g.plans.set(node, plan);
}

/** An embed of a child document, retried on `failed` or on a retryable error, or salvaged. */
export function addEmbed(doc: Doc, i: number): void {
  const { g, b, iri, depth, declare, forward, next, dataRoot } = doc;
  const key = doc.keys[i]?.[0] as string;
  const child = doc.child('embed');
  feature(g, depth > 0 ? 'nested embed' : 'embed');
  const result = [{ from: '/out', to: `/got_${key}` }];
  if (g.draw.chance(0.4)) result.push({ from: '/gathered', to: `/sub_${key}` });
  b.embed(key, child, {
    input: ['k', 'round', 'list', 'fixed'].map((name) => ({
      from: `${dataRoot}/${name}`,
      to: `/${name}`,
    })),
    result,
  }).route('completed', next(i));
  const budget = `b_${key}`;
  const failed = g.draw.weighted([
    ['retry', 4.5],
    ['forward', 4],
    ['none', 0.8],
  ] as const);
  if (failed === 'retry') {
    declare(budget, g.draw.int(1, 2)).retry('failed', key, { budget, exhausted: forward(i) });
    feature(g, 'embed retried when its document fails');
    g.reentered.add(`${iri}#${key}`);
  } else if (failed === 'forward') b.salvage('failed', forward(i));
  if (g.draw.chance(0.35)) {
    if (failed !== 'retry') declare(budget, g.draw.int(1, 2));
    b.retry('retry', key, { budget, exhausted: forward(i) });
    g.reentered.add(`${iri}#${key}`);
  }
  if (g.draw.chance(0.5)) b.salvage('error', forward(i));
  g.runs.set(`${iri}#${key}`, child);
}

/** A scatter over a node or a child document, and its gather. */
export function addScatter(doc: Doc, i: number, overDag: boolean): void {
  const { g, b, iri, role, declare, forward, next, timing, dataRoot } = doc;
  const [scatter, gather] = doc.keys[i] as [string, string];
  // At the root, a node scatter over `/fixed` is one the oracle can check (see `oracle.ts`).
  const fixed = g.draw.chance(role === 'root' && !overDag ? 0.7 : 0.4);
  const list = `${dataRoot}/${fixed ? 'fixed' : 'list'}`;
  if (!overDag) {
    const node = doc.nodeIri(scatter);
    const table: BodyAction[] = [];
    for (let n = g.draw.int(1, 3); n > 0; n--) table.push(g.draw.weighted(BODY_ACTIONS));
    g.plans.set(node, { kind: 'body', table, mode: g.draw.chance(0.4) ? 'sync' : 'async' });
    b.scatter(scatter, { items: list, node });
    feature(g, 'scatter over a node');
  } else {
    const child = doc.child('body');
    b.scatter(scatter, { items: list, dag: child });
    feature(g, 'scatter over a sub-DAG');
    g.runs.set(`${iri}#${scatter}`, child);
  }
  b.route('done', gather);
  if (g.draw.chance(0.6)) b.salvage('error', forward(i));
  // The oracle's scatters lean to `quorum`, whose ties it checks.
  const oracle = role === 'root' && !overDag && fixed;
  const reducer = g.draw.weighted<Reducer>([
    ['collect', 1],
    ['partition', 1],
    ['first', 1],
    ['quorum', oracle ? 2.5 : 1],
  ]);
  const require = g.draw.pick<GatherRequirement>(['all', 'any', 'quorum']);
  const quorum = require === 'quorum' && g.draw.chance(0.4) ? g.draw.int(1, 3) : undefined;
  const into = role === 'body' && g.draw.chance(0.5) ? '/result' : `${dataRoot}/gathered/${gather}`;
  b.gather(gather, { reducer, require, into, ...(quorum === undefined ? {} : { quorum }) }).route(
    'completed',
    next(i),
  );
  feature(g, `gather ${reducer}`);
  feature(g, `require ${require}`);
  const failed = g.draw.weighted([
    ['retry', 3],
    ['forward', 5],
    ['none', 1],
  ] as const);
  if (failed === 'retry') {
    const budget = `b_${gather}`;
    declare(budget, 1).retry('failed', scatter, { budget, exhausted: forward(i) });
    g.reentered.add(`${iri}#${scatter}`);
  } else if (failed === 'forward') b.salvage('failed', forward(i));
  // A `first` gather takes the first child to complete: one child at a time makes that the same everywhere.
  if (reducer === 'first') timing(scatter, { concurrency: 1 });
  else if (g.draw.chance(0.3)) {
    timing(scatter, { concurrency: g.draw.int(1, 2) });
    feature(g, 'scatter concurrency limit');
  }
}
