/**
 * Nodes for generated DAGs whose every answer depends only on the run seed, the item, the placement and the
 * visit, never on the schedule or on the process: so a run interrupted and resumed must end as the same run
 * uninterrupted. Task and body nodes record step values with `ctx.step`; a node of a dead process hangs.
 */
import type { Dag, Placement } from '../../src/document/model.ts';
import { seededRandom } from '../../src/policy/random.ts';
import type { Random } from '../../src/policy/types.ts';
import { defineNode, type ItemView, type NodeContext, type NodeDefinition } from '../../src/runtime/node.ts';
import { httpError } from '../runtime/helpers.ts';
import { hash32, STRAY_OUTPUT } from '../runtime/random-nodes.ts';
import { never } from './helpers.ts';
import type { Log, Process } from './helpers-scenarios.ts';

const pick = <T>(list: readonly T[], r: number): T => list[Math.floor(r * list.length)] as T;

/**
 * The generated documents with every `first` gather made a `collect`: which child completes first depends
 * on when each ran, and a restart changes that.
 */
export function withoutFirstGathers(dags: readonly Dag[]): Dag[] {
  return dags.map((d) => ({
    ...d,
    placements: d.placements.map(
      (p): Placement => (p.kind === 'gather' && p.reducer === 'first' ? { ...p, reducer: 'collect' } : p),
    ),
  }));
}

/**
 * One execution: a retryable 503 (sometimes with a Retry-After), a 400, a stray output, or a routed output;
 * on the way it may sleep a few virtual ms, record a step value (under a key of this visit or one shared by
 * every visit) and write to the item's data.
 */
async function execute(
  process: Process,
  log: Log,
  random: Random,
  item: ItemView,
  ctx: NodeContext,
  outputs: readonly string[],
): Promise<string> {
  const sleepMs = random() < 0.4 ? 1 + Math.floor(random() * 5) : 0;
  if (sleepMs > 0) await process.clock.sleep(sleepMs, ctx.signal);
  if (process.dead()) return never();
  log.executions.push(`${process.n}|${item.id}|${ctx.placement}|${ctx.visit}`);
  item.data[ctx.placement] = ctx.visit;
  if (random() < 0.6) {
    const key = random() < 0.5 ? `${ctx.placement}-${ctx.visit}` : ctx.placement;
    const drawn = Math.floor(random() * 1000);
    const value = await ctx.step(key, (info) => {
      if (process.dead()) return never<number>();
      log.steps.push(`${process.n}|${info.idempotencyKey}`);
      return drawn;
    });
    item.data[`${ctx.placement}-step`] = value;
  }
  const r = random();
  if (r < 0.12)
    throw httpError(503, random() < 0.4 ? { 'retry-after-ms': String(Math.floor(random() * 20)) } : {});
  if (r < 0.17) throw httpError(400);
  if (r < 0.2) return STRAY_OUTPUT;
  if (random() < 0.5) item.data.result = Math.floor(random() * 3);
  return pick(outputs, random());
}

/** The nodes of every task, node-bodied scatter and phase of `dags`, for one process of a run seeded `seed`. */
export function interruptedNodes(
  dags: readonly Dag[],
  seed: number,
  process: Process,
  log: Log,
): NodeDefinition<string, never>[] {
  const nodes: NodeDefinition<string, never>[] = [];
  const streamOf = (item: ItemView, ctx: NodeContext) =>
    seededRandom(hash32(`${seed}|${item.id}|${ctx.dag}|${ctx.placement}|${ctx.visit}`));
  for (const dag of dags) {
    for (const placement of dag.placements) {
      if (placement.kind === 'task') {
        const routed = placement.routes.map((r) => r.output).filter((o) => o !== 'retry' && o !== 'error');
        nodes.push(
          defineNode({
            id: placement.node,
            outputs: [...routed, STRAY_OUTPUT],
            run: (item, ctx) => execute(process, log, streamOf(item, ctx), item, ctx, routed),
          }) as NodeDefinition<string, never>,
        );
      } else if (placement.kind === 'scatter' && placement.node !== undefined) {
        nodes.push(
          defineNode({
            id: placement.node,
            outputs: ['ok', 'failed'],
            run: (item, ctx) => execute(process, log, streamOf(item, ctx), item, ctx, ['ok', 'ok', 'failed']),
          }) as NodeDefinition<string, never>,
        );
      } else if (placement.kind === 'phase') {
        nodes.push(
          defineNode({
            id: placement.node,
            outputs: ['done'],
            run: async (_item, ctx) => {
              const r = seededRandom(hash32(`${seed}|${ctx.dag}|${ctx.placement}`))();
              if (r < 0.5) await process.clock.sleep(1 + Math.floor(r * 10), ctx.signal);
              if (process.dead()) return never();
              if (r < 0.1) throw httpError(503);
              return 'done';
            },
          }) as NodeDefinition<string, never>,
        );
      }
    }
  }
  return nodes;
}
