import { fileURLToPath } from 'node:url';
import { dag } from '../../src/document/builder.ts';
import { loadDagFile, loadDagFolder } from '../../src/document/load.ts';
import type { Dag, DagLibrary } from '../../src/document/model.ts';
import { createVirtualClock, type VirtualClock } from '../../src/policy/virtual-clock.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import {
  defineNode,
  type NodeContext,
  type NodeDefinition,
  type NodeResult,
} from '../../src/runtime/node.ts';

/** The project's dags/ folder. */
export const DAGS = fileURLToPath(new URL('../../dags/', import.meta.url));

/** Loads dags/<name>.jsonld, failing the test on any problem. */
export async function loadDag(name: string): Promise<Dag> {
  const { dag, problems } = await loadDagFile(`${DAGS}${name}.jsonld`);
  if (!dag) throw new Error(`dags/${name}.jsonld: ${problems.map((p) => p.message).join('; ')}`);
  return dag;
}

/** Every document of dags/ as a library. */
export async function dagsLibrary(): Promise<DagLibrary> {
  return (await loadDagFolder([DAGS])).library;
}

/** An auto-advancing virtual clock starting at 0. */
export function virtualClock(): VirtualClock {
  return createVirtualClock({ auto: true });
}

type Step = (
  item: { id: string; data: Record<string, unknown> },
  ctx: NodeContext,
) => NodeResult | Promise<NodeResult>;

/** A node whose n-th execution (per item) does `script[n - 1]`, repeating the last step after the end. */
export function scripted(
  id: string,
  outputs: readonly string[],
  script: readonly Step[],
): NodeDefinition & { calls: number } {
  const node = {
    calls: 0,
    ...defineNode({
      id,
      outputs,
      run: (item, ctx) => {
        node.calls++;
        const step = script[Math.min(ctx.visit, script.length) - 1] as Step;
        return step(item, ctx);
      },
    }),
  };
  return node;
}

/** An error with an HTTP status (and optional headers), as an HTTP client would throw. */
export function httpError(status: number, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error(`HTTP ${status}`), { status, headers });
}

/** A promise that never settles (a hung node). */
export function never<T>(): Promise<T> {
  return new Promise<T>(() => undefined);
}

/** Collects events of a run. */
export function recorder(): {
  events: RunEvent[];
  onEvent: (e: RunEvent) => void;
  of<T extends RunEvent['type']>(type: T): Extract<RunEvent, { type: T }>[];
} {
  const events: RunEvent[] = [];
  return {
    events,
    onEvent: (e) => events.push(e),
    of: <T extends RunEvent['type']>(type: T) =>
      events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type),
  };
}

/**
 * A run with one phase around one task: `work` (node `urn:test:work`, output `ok`) → `done`, and the phase
 * `key` (node `urn:test:pre` or `urn:test:post`) run `when` given.
 */
export function phaseDag(when: 'pre' | 'post', key: string): Dag {
  return dag('urn:test:phases', { name: 'p', version: '1' })
    .entry('work')
    .phase(key, when, `urn:test:${when}`)
    .task('work', 'urn:test:work')
    .route('ok', 'done')
    .terminal('done', 'completed')
    .build();
}
