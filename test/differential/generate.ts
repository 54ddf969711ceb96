/**
 * A seeded generator of valid documents for the differential suite: a root document of stages (tasks,
 * embeds, scatters over a node or over a sub-DAG with their gathers) and the child documents it runs, two
 * levels down at most; self-retry loops with budgets, loops that go back to an earlier scatter or embed,
 * salvage and exhaustion routes, pre/post phases; with the plans of their nodes (see `plans.ts`) and the
 * policy overrides each placement needs. The same seed always gives the same case.
 */
import { dag as build, type DagBuilder } from '../../src/document/builder.ts';
import type { GatherRequirement, Reducer } from '../../src/document/model.ts';
import type { TimingOverride } from '../../src/policy/types.ts';
import { feature, type Gen } from './draw.ts';
import type { Action, BodyAction, TaskPlan } from './plans.ts';
import { BODY_ACTIONS, drawScripts, scriptFeatures } from './scripts.ts';

type StageKind = 'task' | 'loop' | 'embed' | 'scatter-node' | 'scatter-dag';
type Role = 'root' | 'embed' | 'body';
const TERMINALS = ['done', 'failed', 'rescued'] as const;
/** The deepest level a document may be at (the root is 0). */
const MAX_DEPTH = 2;
/** A deadline no answering node reaches, and every hanging one does. */
export const PLACEMENT_DEADLINE_MS = 40;

function pickKind(g: Gen, depth: number): StageKind {
  const deeper = depth < MAX_DEPTH;
  return g.draw.weighted<StageKind>([
    ['task', 3],
    ['embed', deeper ? 2 : 0],
    ['scatter-node', 2],
    ['scatter-dag', deeper ? 1.5 : 0],
  ]);
}

/**
 * Builds one document (and, through {@link generateDocument}, every child it runs) and returns its IRI.
 * `role` says what data the document sees: the input item's, an embed's mapped copy, or a scatter child's
 * `{ item, index }`.
 */
export function generateDocument(g: Gen, depth: number, role: Role): string {
  const index = g.made++;
  const iri = index === 0 ? `urn:diff:${g.seed}:root` : `urn:diff:${g.seed}:d${index}`;
  const dataRoot = role === 'body' ? '/item' : '';
  const kinds: StageKind[] = [];
  for (let n = role === 'root' ? g.draw.int(2, 4) : g.draw.int(1, 3); n > 0; n--)
    kinds.push(pickKind(g, depth));
  const fanning = kinds.findIndex((k) => k === 'embed' || k.startsWith('scatter'));
  if (fanning >= 0 && g.draw.chance(role === 'root' ? 0.65 : 0.35)) {
    kinds.splice(g.draw.int(fanning + 1, kinds.length), 0, 'loop');
  }
  const keys = kinds.map((kind, i) =>
    kind === 'task'
      ? [`t${i}`]
      : kind === 'loop'
        ? [`L${i}`]
        : kind === 'embed'
          ? [`e${i}`]
          : [`s${i}`, `g${i}`],
  );
  const targeted = new Set<string>(['done']);
  const next = (i: number): string => keys[i + 1]?.[0] ?? 'done';
  const forward = (i: number): string => {
    const to = g.draw.pick([...keys.slice(i + 1).map((k) => k[0] as string), ...TERMINALS, 'failed']);
    targeted.add(to);
    return to;
  };
  const built: DagBuilder = build(iri, { name: `generated ${index}`, version: '1' }).entry(
    keys[0]?.[0] as string,
  );
  // Budgets in the order declared: a loop resets only budgets declared before its own.
  const declared: string[] = [];
  const b = built;
  const declare = (name: string, max: number): DagBuilder => {
    declared.push(name);
    return b.budget(name, max);
  };
  const nodeIri = (key: string) => `${iri}:node:${key}`;
  const timing = (key: string, override: TimingOverride) => {
    const name = `${iri}#${key}`;
    g.placements[name] = { ...g.placements[name], ...override };
  };

  kinds.forEach((kind, i) => {
    const [key, second] = keys[i] as [string, string | undefined];
    if (kind === 'task' || kind === 'loop') {
      const node = nodeIri(key);
      const loop = kind === 'loop';
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
          [
            [{ kind: 'redo' }, { kind: 'redo' }, { kind: 'go', output: 'go' }],
            [{ kind: 'go', output: 'go' }],
          ],
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
      return;
    }
    if (kind === 'embed') {
      const child = generateDocument(g, depth + 1, 'embed');
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
      return;
    }
    const scatter = key;
    const gather = second as string;
    // At the root, a node scatter over `/fixed` is one the oracle can check (see `oracle.ts`).
    const fixed = g.draw.chance(role === 'root' && kind === 'scatter-node' ? 0.7 : 0.4);
    const list = `${dataRoot}/${fixed ? 'fixed' : 'list'}`;
    if (kind === 'scatter-node') {
      const node = nodeIri(scatter);
      const table: BodyAction[] = [];
      for (let n = g.draw.int(1, 3); n > 0; n--) table.push(g.draw.weighted(BODY_ACTIONS));
      g.plans.set(node, { kind: 'body', table, mode: g.draw.chance(0.4) ? 'sync' : 'async' });
      b.scatter(scatter, { items: list, node });
      feature(g, 'scatter over a node');
    } else {
      const child = generateDocument(g, depth + 1, 'body');
      b.scatter(scatter, { items: list, dag: child });
      feature(g, 'scatter over a sub-DAG');
      g.runs.set(`${iri}#${scatter}`, child);
    }
    b.route('done', gather);
    if (g.draw.chance(0.6)) b.salvage('error', forward(i));
    // The oracle's scatters lean to `quorum`, whose ties it checks.
    const oracle = role === 'root' && kind === 'scatter-node' && fixed;
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
  });

  if (role === 'root') {
    for (const when of ['pre', 'post'] as const) {
      if (!g.draw.chance(0.3)) continue;
      const node = nodeIri(`${when}0`);
      const action = g.draw.weighted([
        ['ok', 6],
        ['step', 2.5],
        ['throw', 1.5],
      ] as const);
      b.phase(`${when}0`, when, node);
      g.plans.set(node, { kind: 'phase', action });
      feature(g, action === 'throw' ? `${when} phase fails` : `${when} phase`);
    }
  }
  if (targeted.has('done')) b.terminal('done', 'completed');
  if (targeted.has('failed')) b.terminal('failed', 'failed');
  if (targeted.has('rescued')) b.terminal('rescued', 'completed');
  const dag = b.build();
  // The root goes first, whatever order the children were made in.
  if (role === 'root') g.docs.unshift(dag);
  else g.docs.push(dag);
  return iri;
}

/**
 * Counts what retry routes enter again: scatters and embeds, and those whose document fans out once more
 * (an embed or a scatter inside it), whose children must belong to the visit that made them.
 */
export function noteReentries(g: Gen): void {
  const byIri = new Map(g.docs.map((d) => [d.id, d]));
  const fansOut = (iri: string | undefined) =>
    byIri.get(iri ?? '')?.placements.some((p) => p.kind === 'embed' || p.kind === 'scatter') === true;
  for (const where of g.reentered) {
    const key = where.slice(where.lastIndexOf('#') + 1);
    const kind = key.startsWith('e') ? 'an embed' : 'a scatter';
    feature(g, `retry re-enters ${kind}`);
    if (fansOut(g.runs.get(where))) feature(g, `retry re-enters ${kind} whose document fans out again`);
  }
}
