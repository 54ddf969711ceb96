/**
 * Odd nodes for fuzzed runs. Each node answers per (seed, item, placement, visit) from a seeded stream, so a
 * failing case reruns the same way: it takes each of its outputs, throws retryable and non-retryable errors
 * and things that are not errors, returns outputs it never declared or values that are not outputs, gives
 * odd `retryAfter` hints, journals steps, and puts values that are not JSON into item data. In one case in
 * three the nodes are stubborn: they take a retry output whenever they have one. A node whose
 * IRI hashes to a batch node answers through `batch`, sometimes with the wrong number of results. With
 * `probe`, nodes also ask `ctx.attempts` and `ctx.step` about prototype names; when the engine answers
 * something impossible (a function for a count, nothing for a recorded step), the node throws an error
 * whose message starts with {@link ANOMALY}, which the case checks look for in every output.
 */
import { seededRandom } from '../../src/policy/random.ts';
import type { NodeContext, NodeDefinition, NodeResult } from '../../src/runtime/node.ts';

/** What a generated nodes module declares: one entry per node IRI, with the outputs routes leave on. */
export interface FuzzNodeSpec {
  readonly id: string;
  readonly outputs: readonly string[];
  /** The outputs some placement of the node routes with a `retry` route. */
  readonly retry?: readonly string[];
}

/** The start of an error message that means the engine broke a promise to a node. */
export const ANOMALY = 'FUZZ_ANOMALY';

/** Hints that are not a plain number of milliseconds, or are numbers no wait should take. */
const ODD_RETRY_AFTER: readonly unknown[] = [
  -1,
  0,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  1e308,
  2 ** 53 + 1,
  'garbage',
  '',
  '-5',
  '1e400',
  'Wed, 21 Oct 2015 07:28:00 GMT',
  'Fri, 31 Dec 9999 23:59:59 GMT',
  {},
  true,
  [1],
  null,
];

const ENGINE_OUTPUTS = new Set(['retry', 'error']);
const PROTO_KEYS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype'];

/** A 32-bit FNV-1a hash of `text`. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** An error with an HTTP status, as an HTTP client would throw it. */
function httpError(status: number, retryAfter?: unknown): Error {
  return Object.assign(new Error(`HTTP ${status}`), {
    status,
    ...(retryAfter === undefined ? {} : { headers: { 'retry-after': retryAfter } }),
  });
}

const pick = <T>(list: readonly T[], r: number): T => list[Math.floor(r * list.length) % list.length] as T;

/** Checks what the engine promises a node; throws an {@link ANOMALY} error when a promise is broken. */
function checkContext(ctx: NodeContext, random: () => number): void {
  const name = pick(PROTO_KEYS, random());
  const attempts = ctx.attempts(name);
  if (typeof attempts !== 'number' || !Number.isSafeInteger(attempts) || attempts < 0) {
    throw new Error(`${ANOMALY}: ctx.attempts('${name}') gave ${typeof attempts} at '${ctx.placement}'`);
  }
  if (typeof ctx.visit !== 'number' || ctx.visit < 1) {
    throw new Error(`${ANOMALY}: ctx.visit is ${String(ctx.visit)} at '${ctx.placement}'`);
  }
}

/** One answer: an output, a hinted output, a throw, or a value that is not an output. */
async function answer(
  spec: FuzzNodeSpec,
  item: { id: string; data: Record<string, unknown> },
  ctx: NodeContext,
  seed: number,
  probe: boolean,
): Promise<NodeResult> {
  const random = seededRandom(hash32(`${seed}|${item.id}|${ctx.dag}|${ctx.placement}|${ctx.visit}`));
  if (probe) checkContext(ctx, random);
  item.data.v = 'fuzz';
  const outputs = spec.outputs.length > 0 ? spec.outputs : ['fuzz-none'];
  // A stubborn node takes a retry output every time it has one, so only the budget can end the loop.
  if (hash32(`${seed}|stubborn`) % 3 === 0 && spec.retry !== undefined && spec.retry.length > 0) {
    return pick(spec.retry, random()) as NodeResult;
  }
  const r = random();
  if (r < 0.45) return pick(outputs, random()) as NodeResult;
  if (r < 0.53)
    return { output: pick(outputs, random()), retryAfter: pick(ODD_RETRY_AFTER, random()) as number };
  if (r < 0.61) throw httpError(pick([429, 503, 500], random()), pick(ODD_RETRY_AFTER, random()));
  if (r < 0.66) throw httpError(400);
  if (r < 0.7) throw pick(['a string', null, undefined, 42, { message: 7 }, Symbol('odd')], random());
  if (r < 0.74) return 'fuzz-undeclared' as NodeResult;
  if (r < 0.77)
    return pick([42, null, undefined, { output: 7 }, {}, ['x']], random()) as unknown as NodeResult;
  if (r < 0.87) {
    const key = probe ? pick(PROTO_KEYS, random()) : 'fuzz-step';
    const value = await ctx.step(key, () => ({ at: ctx.placement, visit: ctx.visit }));
    if (value === null || typeof value !== 'object') {
      throw new Error(`${ANOMALY}: ctx.step('${key}') gave back ${typeof value} at '${ctx.placement}'`);
    }
    return pick(outputs, random()) as NodeResult;
  }
  if (r < 0.9) {
    item.data.odd = pick([10n, new Date(0), () => 1, Number.NaN, undefined], random());
    return pick(outputs, random()) as NodeResult;
  }
  return { output: pick(outputs, random()), reason: 'x'.repeat(Math.floor(random() * 10_000)) };
}

/**
 * The node definitions of a generated nodes module; `seed` varies their behaviour between cases, and
 * `probe` has every execution check `ctx.attempts` of a prototype name.
 */
export function fuzzNodes(
  specs: readonly FuzzNodeSpec[],
  seed: number,
  probe = false,
): NodeDefinition<string, never>[] {
  return specs.map((spec) => {
    const outputs = spec.outputs.filter((o) => !ENGINE_OUTPUTS.has(o));
    const declared = { id: spec.id, outputs };
    if (hash32(`${seed}|${spec.id}`) % 4 !== 0) {
      return { ...declared, run: (item, ctx) => answer(spec, item, ctx, seed, probe) } as NodeDefinition<
        string,
        never
      >;
    }
    return {
      ...declared,
      maxBatch: 1 + (hash32(spec.id) % 3),
      batch: async (items, ctx) => {
        const random = seededRandom(hash32(`${seed}|${ctx.placement}|${items.map((i) => i.id).join(',')}`));
        const r = random();
        if (r < 0.05) throw httpError(503);
        if (r < 0.1) return items.slice(1).map(() => pick(outputs.length > 0 ? outputs : ['x'], random()));
        return Promise.all(
          items.map((item, i) =>
            answer(spec, item, ctx.contexts[i] as NodeContext, seed, probe).catch((error: unknown) => {
              if (error instanceof Error && error.message.startsWith(ANOMALY)) throw error;
              return 'fuzz-thrown-in-batch';
            }),
          ),
        );
      },
    } as NodeDefinition<string, never>;
  });
}
