/**
 * fast-check arbitraries for dispatcher properties: random valid DAG documents (tasks in a topological order,
 * forward `next`/`salvage` routes, budgeted `retry` routes backward or to self, resets only towards budgets
 * declared earlier so the resets relation stays acyclic), and nodes whose behaviour per item and visit comes
 * from a seeded stream, so that it does not depend on the order in which items are scheduled.
 */
import fc from 'fast-check';
import { dag as buildDag, type DagBuilder } from '../../src/document/builder.ts';
import type { Dag } from '../../src/document/model.ts';
import { seededRandom } from '../../src/policy/random.ts';
import type { Clock } from '../../src/policy/types.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import { httpError } from './helpers.ts';

/** The node IRI of task `t<i>`. */
export const nodeIri = (key: string): string => `urn:prop:node:${key}`;

/** The output every node may take that no route leaves on. */
export const STRAY_OUTPUT = 'stray';

type RouteChoice = 'next' | 'salvage' | 'retry';

/** One extra output of a task; the numbers pick targets and budgets modulo what is allowed there. */
interface OutputSpec {
  readonly kind: RouteChoice;
  readonly to: number;
  readonly exhausted: number;
  readonly budget: number;
  /** A bit mask over the budgets declared before the spent one. */
  readonly resets: number;
}

/** How an engine output (`retry` after a retryable throw, `error` after another) is routed, if at all. */
interface EngineRouteSpec {
  readonly present: boolean;
  readonly route: OutputSpec;
}

interface TaskSpec {
  readonly outputs: readonly OutputSpec[];
  readonly retry: EngineRouteSpec;
  readonly error: EngineRouteSpec;
}

/** The shape a random DAG is built from. */
export interface DagSpec {
  readonly budgets: readonly number[];
  readonly terminals: readonly boolean[];
  readonly tasks: readonly TaskSpec[];
}

const outputSpec = (kinds: readonly RouteChoice[]): fc.Arbitrary<OutputSpec> =>
  fc.record({
    kind: fc.constantFrom(...kinds),
    to: fc.nat(20),
    exhausted: fc.nat(20),
    budget: fc.nat(5),
    resets: fc.nat(7),
  });

const engineRoute = (kinds: readonly RouteChoice[]): fc.Arbitrary<EngineRouteSpec> =>
  fc.record({ present: fc.boolean(), route: outputSpec(kinds) });

/** Shapes of 2–10 tasks, 1–3 terminals (true = completed) and 1–3 budgets of max 0–3. */
export const dagSpecArbitrary: fc.Arbitrary<DagSpec> = fc.record({
  budgets: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 3 }),
  terminals: fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }),
  tasks: fc.array(
    fc.record({
      outputs: fc.array(outputSpec(['next', 'salvage', 'retry', 'retry']), { maxLength: 3 }),
      retry: engineRoute(['retry', 'retry', 'next']),
      error: engineRoute(['salvage', 'next']),
    }),
    { minLength: 2, maxLength: 10 },
  ),
});

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length] as T;

/**
 * Builds the DAG of a shape. Task `t<i>` always has output `go` to `t<i+1>` (the last one to `end0`), so every
 * task is reachable and reaches a terminal; terminals no route targets get a `to_end<j>` output on some task.
 */
export function buildSpec(spec: DagSpec, id = 'urn:prop:dag'): Dag {
  const n = spec.tasks.length;
  const budgets = spec.budgets.map((_, b) => `b${b}`);
  const tasks = spec.tasks.map((_, i) => `t${i}`);
  const terminals = spec.terminals.map((_, j) => `end${j}`);
  const targeted = new Set<string>();
  let builder: DagBuilder = buildDag(id, { name: 'generated', version: '1' }).entry('t0');
  spec.budgets.forEach((max, b) => {
    builder = builder.budget(budgets[b] as string, max);
  });
  const route = (i: number, output: string, o: OutputSpec): void => {
    const forward = [...tasks.slice(i + 1), ...terminals];
    if (o.kind === 'retry') {
      const b = o.budget % budgets.length;
      const resets = budgets.slice(0, b).filter((_, r) => (o.resets >> r) & 1);
      const exhausted = pick(forward, o.exhausted);
      targeted.add(exhausted);
      builder = builder.retry(output, pick(tasks.slice(0, i + 1), o.to), {
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
  spec.tasks.forEach((task, i) => {
    const key = tasks[i] as string;
    builder = builder.task(key, nodeIri(key));
    const next = i + 1 < n ? (tasks[i + 1] as string) : 'end0';
    targeted.add(next);
    builder = builder.route('go', next);
    for (const [k, o] of task.outputs.entries()) route(i, `o${k}`, o);
    if (task.retry.present) route(i, 'retry', task.retry.route);
    if (task.error.present) route(i, 'error', task.error.route);
  });
  terminals.forEach((key, j) => {
    if (!targeted.has(key)) builder = builder.from(tasks[j % n] as string).route(`to_${key}`, key);
  });
  spec.terminals.forEach((completed, j) => {
    builder = builder.terminal(terminals[j] as string, completed ? 'completed' : 'failed');
  });
  return builder.build();
}

/** Random valid DAG documents. */
export const dagArbitrary: fc.Arbitrary<Dag> = dagSpecArbitrary.map((spec) => buildSpec(spec));

/** A 32-bit FNV-1a hash, to seed one random stream per (run seed, item, placement, visit). */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The virtual sleep a hung node ends with, when its deadline does not cut it first. */
const HANG_MS = 1_000_000;

/**
 * One node per task of `dag`. For each (item, visit) the node draws from its own seeded stream and either takes
 * one of its routed outputs (at once, or after a short virtual sleep), takes `stray` (no route), throws a
 * retryable 503 or a non-retryable 400, or hangs on the clock until the placement deadline cuts it.
 */
export function randomNodes(dag: Dag, seed: number, clock: Clock): NodeDefinition<string, never>[] {
  return dag.placements.flatMap((placement) => {
    if (placement.kind !== 'task') return [];
    const routed = placement.routes.map((r) => r.output).filter((o) => o !== 'retry' && o !== 'error');
    const node = defineNode({
      id: placement.node,
      outputs: [...routed, STRAY_OUTPUT],
      run: async (item, ctx) => {
        const random = seededRandom(hash32(`${seed}|${item.id}|${ctx.placement}|${ctx.visit}`));
        const r = random();
        item.data[ctx.placement] = ctx.visit;
        if (r < 0.07) await clock.sleep(HANG_MS, ctx.signal);
        if (r < 0.17) throw httpError(503);
        if (r < 0.25) throw httpError(400);
        if (r < 0.3) return STRAY_OUTPUT;
        if (r < 0.65) await clock.sleep(1 + Math.floor(random() * 5), ctx.signal);
        return pick(routed, Math.floor(random() * routed.length));
      },
    });
    return [node as NodeDefinition<string, never>];
  });
}
