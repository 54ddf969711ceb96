/**
 * Nodes for generated DAGs whose behaviour per item and visit comes from a seeded stream, so that it does
 * not depend on the order in which items are scheduled: task nodes, scatter body nodes and phase nodes.
 */
import type { Dag } from '../../src/document/model.ts';
import { seededRandom } from '../../src/policy/random.ts';
import type { Clock } from '../../src/policy/types.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import { httpError } from './helpers.ts';

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

const pick = <T>(list: readonly T[], r: number): T => list[Math.floor(r * list.length)] as T;

/**
 * One node per task, node-bodied scatter and phase of `dags`. For each (item, visit) a task node draws from
 * its own stream and either takes one of its routed outputs (at once, or after a short virtual sleep), takes
 * `stray` (no route), throws a retryable 503 or a non-retryable 400, or hangs on the clock until the
 * placement deadline cuts it; it may set `data.result` to a small value (a scatter child's value). A body
 * node does the same with outputs `ok` / `failed`; a phase node throws, hangs or answers after a sleep.
 */
export function randomNodes(
  dags: readonly Dag[],
  seed: number,
  clock: Clock,
): NodeDefinition<string, never>[] {
  const nodes: NodeDefinition<string, never>[] = [];
  const add = (node: unknown) => nodes.push(node as NodeDefinition<string, never>);
  for (const dag of dags) {
    for (const placement of dag.placements) {
      if (placement.kind === 'task') {
        const routed = placement.routes.map((r) => r.output).filter((o) => o !== 'retry' && o !== 'error');
        add(
          defineNode({
            id: placement.node,
            outputs: [...routed, STRAY_OUTPUT],
            run: async (item, ctx) => {
              const random = seededRandom(
                hash32(`${seed}|${item.id}|${ctx.dag}|${ctx.placement}|${ctx.visit}`),
              );
              const r = random();
              item.data[ctx.placement] = ctx.visit;
              if (r < 0.07) await clock.sleep(HANG_MS, ctx.signal);
              if (r < 0.17) throw httpError(503);
              if (r < 0.25) throw httpError(400);
              if (r < 0.3) return STRAY_OUTPUT;
              if (random() < 0.5) item.data.result = Math.floor(random() * 3);
              if (r < 0.65) await clock.sleep(1 + Math.floor(random() * 5), ctx.signal);
              return pick(routed, random());
            },
          }),
        );
      } else if (placement.kind === 'scatter' && placement.node !== undefined) {
        add(
          defineNode({
            id: placement.node,
            outputs: ['ok', 'failed'],
            run: async (item, ctx) => {
              const random = seededRandom(hash32(`${seed}|${item.id}|${ctx.dag}|${ctx.placement}|body`));
              const r = random();
              if (r < 0.05) await clock.sleep(HANG_MS, ctx.signal);
              if (r < 0.12) throw httpError(503);
              if (r < 0.16) throw httpError(400);
              if (r < 0.26) return 'failed';
              const element = item.data.item as { v?: unknown } | null;
              item.data.result = random() < 0.7 ? (element?.v ?? null) : Math.floor(random() * 3);
              if (r < 0.6) await clock.sleep(1 + Math.floor(random() * 5), ctx.signal);
              return 'ok';
            },
          }),
        );
      } else if (placement.kind === 'phase') {
        add(
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
          }),
        );
      }
    }
  }
  return nodes;
}
