/**
 * Small DAGs with retry loops, scatters (node and sub-DAG bodies), gathers and an embed, and nodes for them
 * that log every execution and every step call of the "process" that runs them. A process that died (its
 * store froze) runs nothing more: its nodes and steps hang, as they would in a killed process.
 */
import { dag } from '../../src/document/builder.ts';
import type { Dag, DagLibrary } from '../../src/document/model.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import type { VirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher, type Dispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode, type NodeContext, type NodeDefinition } from '../../src/runtime/node.ts';
import type { RunStore } from '../../src/store/types.ts';
import { httpError } from '../runtime/helpers.ts';
import { never } from './helpers.ts';

/** Back-off of one second, no jitter: waits are exact. */
export const POLICY: PolicyInput = {
  defaults: { backoff: { strategy: 'constant', baseMs: 1000, capMs: 1000 }, jitter: 'none' },
};

/** compose → validate; `invalid` retries compose (budget 3), then salvage → done. */
export const retryDag: Dag = dag('urn:t:retry', { name: 'retry', version: '1' })
  .budget('compose', 3)
  .entry('compose')
  .task('compose', 'urn:t:compose')
  .route('drafted', 'validate')
  .task('validate', 'urn:t:validate')
  .route('valid', 'done')
  .retry('invalid', 'compose', { budget: 'compose', exhausted: 'salvage' })
  .task('salvage', 'urn:t:salvage')
  .salvage('salvaged', 'done')
  .terminal('done', 'completed')
  .build();

/** One task that retries itself (budget 3) until `tries`, inside scatters and embeds. */
export const childDag: Dag = dag('urn:t:child', { name: 'child', version: '1' })
  .budget('again', 3)
  .entry('work')
  .task('work', 'urn:t:work')
  .route('ok', 'done')
  .retry('again', 'work', { budget: 'again', exhausted: 'gave_up' })
  .terminal('done', 'completed')
  .terminal('gave_up', 'failed')
  .build();

/** A scatter over `/xs` with the body `body` (a node or `urn:t:child`), gathered into `/out`. */
export function fanDag(
  id: string,
  body: 'node' | 'dag',
  gather: { reducer?: 'collect' | 'partition' | 'first'; require?: 'all' | 'any' } = {},
): Dag {
  const scatter =
    body === 'node' ? { items: '/xs', node: 'urn:t:body' } : { items: '/xs', dag: 'urn:t:child' };
  return dag(id, { name: id, version: '1' })
    .entry('fan')
    .scatter('fan', scatter)
    .route('done', 'join')
    .gather('join', { into: '/out', ...gather })
    .route('completed', 'ok')
    .route('failed', 'bad')
    .terminal('ok', 'completed')
    .terminal('bad', 'failed')
    .build();
}

/** compose, then the child document embedded as `inner` (retried once on failure), then done. */
export const embedDag: Dag = dag('urn:t:outer', { name: 'outer', version: '1' })
  .budget('inner', 1)
  .entry('compose')
  .task('compose', 'urn:t:compose')
  .route('drafted', 'inner')
  .embed('inner', 'urn:t:child', {
    input: [
      { from: '/tries', to: '/tries' },
      { from: '/draft', to: '/draft' },
    ],
    result: [{ from: '/result', to: '/inner' }],
  })
  .route('completed', 'done')
  .retry('failed', 'inner', { budget: 'inner', exhausted: 'done' })
  .terminal('done', 'completed')
  .build();

/**
 * compose, then the child document embedded as `inner`, whose item fails with the error its node throws
 * (`/throws`): a retryable one retries the embed once (then done), any other goes to `bad`.
 */
export const embedErrorDag: Dag = dag('urn:t:outer-errors', { name: 'outer-errors', version: '1' })
  .budget('inner', 1)
  .entry('compose')
  .task('compose', 'urn:t:compose')
  .route('drafted', 'inner')
  .embed('inner', 'urn:t:child', { input: [{ from: '/throws', to: '/throws' }] })
  .route('completed', 'done')
  .route('failed', 'bad')
  .retry('retry', 'inner', { budget: 'inner', exhausted: 'done' })
  .route('error', 'bad')
  .terminal('done', 'completed')
  .terminal('bad', 'failed')
  .build();

/** A pre phase `setup` running `node` (`urn:t:phase`, or `urn:t:phase-fails`), compose, done; a post phase. */
export function phasedDag(node: 'urn:t:phase' | 'urn:t:phase-fails'): Dag {
  return dag(`urn:t:phased:${node.slice(6)}`, { name: 'phased', version: '1' })
    .entry('compose')
    .phase('setup', 'pre', node)
    .phase('teardown', 'post', 'urn:t:phase')
    .task('compose', 'urn:t:compose')
    .route('drafted', 'done')
    .terminal('done', 'completed')
    .build();
}

/** The documents embeds and scatters name. */
export const LIBRARY: DagLibrary = { get: (iri) => (iri === childDag.id ? childDag : undefined) };

/** What every process's nodes did. */
export interface Log {
  /** `<process>|<item>|<placement>|<visit>|<wall time>` per node execution. */
  readonly executions: string[];
  /** `<process>|<idempotency key>` per step `fn` call. */
  readonly steps: string[];
}

/** A fresh log. */
export const newLog = (): Log => ({ executions: [], steps: [] });

/** One process: its number, its clock, whether it died. */
export interface Process {
  readonly n: number;
  readonly clock: VirtualClock;
  dead(): boolean;
}

/**
 * The nodes of the scenarios for `process`:
 * - compose: step `charge` (value: the visit), `data.draft = d<visit>/<value>`; after `sleepMs` when set;
 * - validate: `valid` once the visit reaches `data.passAt` (never when absent), else `invalid` (with a
 *   Retry-After of `data.retryAfterMs` when set);
 * - salvage: `salvaged`;
 * - body (scatter node body, element `{ ms, v, fail?, throws? }`): sleeps `ms`, throws an HTTP error of
 *   status `throws` when set, step `charge` (value `v * 10`), `data.result` = that value, `failed` when `fail`;
 * - phase, phase-fails (phases): sleep 100 ms; phase-fails then throws an HTTP 400;
 * - work (child document; settings `{ ms, tries, throws }` in its scatter element or its data): sleeps `ms`,
 *   throws an HTTP error of status `throws` when set, step `try<visit>`, `again` until the visit reaches
 *   `tries` (default 1), then `data.result = w<visit>` and `ok`.
 */
export function scenarioNodes(process: Process, log: Log): NodeDefinition<string, never>[] {
  const { clock } = process;
  const executed = (item: { id: string }, ctx: NodeContext) => {
    log.executions.push(`${process.n}|${item.id}|${ctx.placement}|${ctx.visit}|${clock.wallNow()}`);
  };
  const step = <T>(ctx: NodeContext, key: string, value: () => T): Promise<T> =>
    ctx.step(key, (info) => {
      if (process.dead()) return never<T>();
      log.steps.push(`${process.n}|${info.idempotencyKey}`);
      return value();
    });
  const live = async (ms: number, ctx: NodeContext): Promise<boolean> => {
    if (ms > 0) await clock.sleep(ms, ctx.signal);
    return !process.dead();
  };
  return [
    defineNode({
      id: 'urn:t:compose',
      outputs: ['drafted'],
      run: async (item, ctx) => {
        if (!(await live(Number(item.data.sleepMs ?? 0), ctx))) return never();
        executed(item, ctx);
        const v = await step(ctx, 'charge', () => ctx.visit);
        item.data.draft = `d${ctx.visit}/${v}`;
        return 'drafted';
      },
    }),
    defineNode({
      id: 'urn:t:validate',
      outputs: ['valid', 'invalid'],
      run: (item, ctx) => {
        if (process.dead()) return never();
        executed(item, ctx);
        if (ctx.visit >= Number(item.data.passAt ?? Number.POSITIVE_INFINITY)) return 'valid';
        const hint = item.data.retryAfterMs;
        return typeof hint === 'number' ? { output: 'invalid', retryAfter: hint } : 'invalid';
      },
    }),
    defineNode({
      id: 'urn:t:salvage',
      outputs: ['salvaged'],
      run: (item, ctx) => {
        if (process.dead()) return never();
        executed(item, ctx);
        return 'salvaged';
      },
    }),
    defineNode({
      id: 'urn:t:body',
      outputs: ['ok', 'failed'],
      run: async (item, ctx) => {
        const element = item.data.item as { ms?: number; v: number; fail?: boolean; throws?: number };
        if (!(await live(element.ms ?? 0, ctx))) return never();
        executed(item, ctx);
        if (element.throws !== undefined) throw httpError(element.throws);
        item.data.result = await step(ctx, 'charge', () => element.v * 10);
        return element.fail === true ? 'failed' : 'ok';
      },
    }),
    defineNode({
      id: 'urn:t:work',
      outputs: ['ok', 'again'],
      run: async (item, ctx) => {
        // A scatter child finds its settings in its element, an embedded item in its data.
        const element = item.data.item;
        const own = (typeof element === 'object' && element !== null ? element : item.data) as {
          ms?: number;
          tries?: number;
          throws?: number;
        };
        if (!(await live(own.ms ?? 0, ctx))) return never();
        executed(item, ctx);
        if (own.throws !== undefined) throw httpError(own.throws);
        await step(ctx, `try${ctx.visit}`, () => ctx.visit);
        if (ctx.visit < (own.tries ?? 1)) return 'again';
        item.data.result = `w${ctx.visit}`;
        return 'ok';
      },
    }),
    ...['urn:t:phase', 'urn:t:phase-fails'].map((id) =>
      defineNode({
        id,
        outputs: ['done'],
        run: async (item, ctx) => {
          if (!(await live(100, ctx))) return never();
          executed(item, ctx);
          if (id === 'urn:t:phase-fails') throw httpError(400);
          return 'done';
        },
      }),
    ),
  ] as NodeDefinition<string, never>[];
}

/** A dispatcher of the scenarios for `process`, recording into `store`. */
export function scenarioDispatcher(process: Process, log: Log, store: RunStore): Dispatcher {
  return createDispatcher({
    nodes: scenarioNodes(process, log),
    clock: process.clock,
    policy: POLICY,
    library: LIBRARY,
    store,
  });
}
