/**
 * Nodes for generated DAGs whose behaviour per item and visit comes from a seeded stream, so that it does
 * not depend on the order in which items are scheduled: task nodes, scatter body nodes and phase nodes. Each
 * task and body node is synchronous, asynchronous or a batch node, chosen per placement from the seed.
 */
import type { Dag } from '../../src/document/model.ts';
import { seededRandom } from '../../src/policy/random.ts';
import type { Clock, Random } from '../../src/policy/types.ts';
import {
  type BatchContext,
  defineNode,
  type ItemView,
  type NodeContext,
  type NodeDefinition,
  type NodeResult,
} from '../../src/runtime/node.ts';
import { httpError } from './helpers.ts';
import { type HintLog, type HintRecord, hintKey } from './routing-oracle.ts';

/** The output every task node may take that no route leaves on. */
export const STRAY_OUTPUT = 'stray';

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

/** How a node answers: at once (`sync`), through a promise (`async`), or for a batch of items (`batch`). */
export type NodeMode = 'sync' | 'async' | 'batch';

/** The mode of the node of placement `key` of document `dag` in a run seeded with `seed`. */
export function nodeMode(seed: number, dag: string, key: string): NodeMode {
  const r = seededRandom(hash32(`${seed}|mode|${dag}|${key}`))();
  return r < 0.3 ? 'sync' : r < 0.7 ? 'async' : 'batch';
}

const pick = <T>(list: readonly T[], r: number): T => list[Math.floor(r * list.length)] as T;

/** What one execution does for one item. */
type Plan =
  | { readonly kind: 'hang' }
  | { readonly kind: 'throw'; readonly status: number; readonly hint: boolean }
  | { readonly kind: 'answer'; readonly output: string; readonly sleepMs: number; readonly hint: boolean };

/**
 * An HTTP-date between one second before and five seconds after wall time `base`, and the instant it names
 * (whole seconds, as the format has). The same draw names the same instant whenever the node answers, so
 * that every execution of one item path at one visit gives one hint.
 */
function httpDate(random: Random, base: number): { value: string; hint: HintRecord } {
  const value = new Date(base + Math.floor((random() * 6 - 1) * 1000)).toUTCString();
  return { value, hint: { at: Date.parse(value) } };
}

/**
 * A Retry-After as a node returns it beside an output, and what it means: milliseconds (a number), seconds
 * (a string of digits), an HTTP-date, or an unusable value (`ms` undefined) that the engine ignores in favour
 * of the back-off.
 */
function returnedHint(random: Random, base: number): { value: unknown; hint: HintRecord } {
  const r = random();
  if (r < 0.35) {
    const ms = Math.floor(random() * 40);
    return { value: ms, hint: { ms } };
  }
  if (r < 0.6) {
    const seconds = Math.floor(random() * 3);
    return { value: String(seconds), hint: { ms: seconds * 1000 } };
  }
  if (r < 0.85) return httpDate(random, base);
  return { value: pick([{}, true, [1], -5, 'soon', Number.NaN], random()), hint: { ms: undefined } };
}

/** The headers of a throttled response: `retry-after-ms`, or `retry-after` in seconds or as an HTTP-date. */
function hintHeaders(random: Random, base: number): { headers: Record<string, string>; hint: HintRecord } {
  const r = random();
  if (r < 0.35) {
    const ms = Math.floor(random() * 40);
    return { headers: { 'retry-after-ms': String(ms) }, hint: { ms } };
  }
  if (r < 0.65) {
    const seconds = Math.floor(random() * 3);
    return { headers: { 'retry-after': String(seconds) }, hint: { ms: seconds * 1000 } };
  }
  const date = httpDate(random, base);
  return { headers: { 'retry-after': date.value }, hint: date.hint };
}

/** Draws one task execution: hang, throw a 503 or a 400, stray, or one of `routed` (sometimes after a sleep). */
function taskPlan(random: Random, data: Record<string, unknown>, routed: readonly string[]): Plan {
  const r = random();
  if (r < 0.07) return { kind: 'hang' };
  if (r < 0.17) return { kind: 'throw', status: 503, hint: random() < 0.4 };
  if (r < 0.25) return { kind: 'throw', status: 400, hint: false };
  if (r < 0.3) return { kind: 'answer', output: STRAY_OUTPUT, sleepMs: 0, hint: false };
  if (random() < 0.5) data.result = Math.floor(random() * 3);
  const sleepMs = r < 0.65 ? 1 + Math.floor(random() * 5) : 0;
  return { kind: 'answer', output: pick(routed, random()), sleepMs, hint: random() < 0.4 };
}

/** Draws one scatter body execution: hang, throw, `failed`, or `ok` with the child's value. */
function bodyPlan(random: Random, data: Record<string, unknown>): Plan {
  const r = random();
  if (r < 0.05) return { kind: 'hang' };
  if (r < 0.12) return { kind: 'throw', status: 503, hint: false };
  if (r < 0.16) return { kind: 'throw', status: 400, hint: false };
  if (r < 0.26) return { kind: 'answer', output: 'failed', sleepMs: 0, hint: false };
  const element = data.item as { v?: unknown } | null;
  data.result = random() < 0.7 ? (element?.v ?? null) : Math.floor(random() * 3);
  return { kind: 'answer', output: 'ok', sleepMs: r < 0.6 ? 1 + Math.floor(random() * 5) : 0, hint: false };
}

/** What the nodes of {@link randomNodes} share: the seed, the clock, where hints are logged. */
interface Env {
  readonly seed: number;
  readonly clock: Clock;
  readonly hints: HintLog | undefined;
  /** The wall-clock reading when the nodes were made: HTTP-dates are drawn around it. */
  readonly wallBase: number;
}

type Planner = (random: Random, data: Record<string, unknown>) => Plan;

/** The stream of one execution. */
const streamOf = (env: Env, item: string, ctx: { dag: string; placement: string; visit: number }) =>
  seededRandom(hash32(`${env.seed}|${item}|${ctx.dag}|${ctx.placement}|${ctx.visit}`));

/** Carries out an answer or a throw at the time it is given, logging its Retry-After. */
function settle(env: Env, plan: Exclude<Plan, { kind: 'hang' }>, random: Random, key: string): NodeResult {
  if (plan.kind === 'throw') {
    if (!plan.hint) throw httpError(plan.status);
    const { headers, hint } = hintHeaders(random, env.wallBase);
    env.hints?.set(key, hint);
    throw httpError(plan.status, headers);
  }
  if (!plan.hint) return plan.output;
  const { value, hint } = returnedHint(random, env.wallBase);
  env.hints?.set(key, hint);
  return { output: plan.output, retryAfter: value as number };
}

/** A node of mode `mode` that carries out `planner`'s plans. */
function planned(
  env: Env,
  id: string,
  outputs: readonly string[],
  mode: NodeMode,
  planner: Planner,
): NodeDefinition<string, never> {
  if (mode === 'batch') {
    return defineNode({
      id,
      outputs,
      maxBatch: 3,
      batch: async (items: readonly ItemView[], ctx: BatchContext) => {
        const plans = items.map((item, i) => {
          const context = ctx.contexts[i] as NodeContext;
          const random = streamOf(env, item.id, context);
          return {
            random,
            plan: planner(random, item.data),
            key: hintKey(ctx.dag, ctx.placement, item.id, context.visit),
          };
        });
        // A batch answers when any of its items draws an answer (the others take a routed output), and only
        // a batch of items that all draw a failure hangs or throws, as its first item draws, with no
        // Retry-After. So an item that draws an answer always gives it, with its hint, whichever items share
        // its batch: the hint of an execution does not depend on the schedule.
        const first = plans[0];
        if (plans.every(({ plan }) => plan.kind !== 'answer')) {
          if (first?.plan.kind === 'hang') await env.clock.sleep(HANG_MS, ctx.signal);
          throw httpError(first?.plan.kind === 'throw' ? first.plan.status : 503);
        }
        const sleepMs = Math.max(0, ...plans.map(({ plan }) => (plan.kind === 'answer' ? plan.sleepMs : 0)));
        if (sleepMs > 0) await env.clock.sleep(sleepMs, ctx.signal);
        else await Promise.resolve();
        return plans.map(({ plan, random, key }) =>
          plan.kind === 'answer' ? settle(env, plan, random, key) : pick(outputs, random()),
        );
      },
    });
  }
  if (mode === 'sync') {
    return defineNode({
      id,
      outputs,
      run: (item: ItemView, ctx: NodeContext) => {
        const random = streamOf(env, item.id, ctx);
        item.data[ctx.placement] = ctx.visit;
        const plan = planner(random, item.data);
        // A synchronous node cannot hang: it fails at once instead.
        const now = plan.kind === 'hang' ? ({ kind: 'throw', status: 503, hint: false } as const) : plan;
        return settle(
          env,
          now.kind === 'answer' ? { ...now, sleepMs: 0 } : now,
          random,
          hintKey(ctx.dag, ctx.placement, item.id, ctx.visit),
        );
      },
    });
  }
  return defineNode({
    id,
    outputs,
    run: async (item: ItemView, ctx: NodeContext) => {
      const random = streamOf(env, item.id, ctx);
      item.data[ctx.placement] = ctx.visit;
      const plan = planner(random, item.data);
      if (plan.kind === 'hang') await env.clock.sleep(HANG_MS, ctx.signal);
      else if (plan.kind === 'answer' && plan.sleepMs > 0) await env.clock.sleep(plan.sleepMs, ctx.signal);
      else await Promise.resolve();
      if (plan.kind === 'hang') throw httpError(503);
      return settle(env, plan, random, hintKey(ctx.dag, ctx.placement, item.id, ctx.visit));
    },
  });
}

/**
 * One node per task, node-bodied scatter and phase of `dags`. For each (item, visit) a task node draws from
 * its own stream and either takes one of its routed outputs (at once, after a microtask or after a short
 * virtual sleep), takes `stray` (no route), throws a retryable 503 or a non-retryable 400, or hangs on the
 * clock until the placement deadline cuts it; it may set `data.result` to a small value (a scatter child's
 * value). Answers and 503s often carry a Retry-After (milliseconds, seconds, an HTTP-date against the clock's
 * wall time, or an unusable value), which is logged in `hints` with what it means. A body node does the same
 * with outputs `ok` / `failed`; a phase node throws, hangs or answers after a sleep. Task and body nodes are
 * synchronous, asynchronous or batch nodes as {@link nodeMode} says.
 */
export function randomNodes(
  dags: readonly Dag[],
  seed: number,
  clock: Clock,
  hints?: HintLog,
): NodeDefinition<string, never>[] {
  const env: Env = { seed, clock, hints, wallBase: clock.wallNow() };
  const nodes: NodeDefinition<string, never>[] = [];
  for (const dag of dags) {
    for (const placement of dag.placements) {
      const mode = nodeMode(seed, dag.id, placement.key);
      if (placement.kind === 'task') {
        const routed = placement.routes.map((r) => r.output).filter((o) => o !== 'retry' && o !== 'error');
        const outputs = [...routed, STRAY_OUTPUT];
        nodes.push(
          planned(env, placement.node, outputs, mode, (random, data) => taskPlan(random, data, routed)),
        );
      } else if (placement.kind === 'scatter' && placement.node !== undefined) {
        nodes.push(planned(env, placement.node, ['ok', 'failed'], mode, bodyPlan));
      } else if (placement.kind === 'phase') {
        nodes.push(
          defineNode({
            id: placement.node,
            outputs: ['done'],
            run: async (_item, ctx) => {
              const r = seededRandom(hash32(`${seed}|${ctx.dag}|${ctx.placement}`))();
              if (r < 0.04) await clock.sleep(HANG_MS, ctx.signal);
              if (r < 0.1) throw httpError(503);
              if (r < 0.5) await clock.sleep(1 + Math.floor(r * 10), ctx.signal);
              return 'done';
            },
          }) as NodeDefinition<string, never>,
        );
      }
    }
  }
  return nodes;
}
