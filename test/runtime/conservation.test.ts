import { describe, expect, it } from 'vitest';
import type { Dag, DagLibrary } from '../../src/document/model.ts';
import { computeBounds } from '../../src/graph/bounds.ts';
import { compile } from '../../src/graph/compile.ts';
import { seededRandom } from '../../src/policy/random.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { runViolations } from '../../src/runtime/invariants.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import { dagsLibrary, httpError, loadDag, virtualClock } from './helpers.ts';
import { expectRunGuarantees, worldOf } from './run-checks.ts';

/** `dag` and, transitively, the library documents it embeds or scatters over. */
function withChildren(dag: Dag, library: DagLibrary): Dag[] {
  const found = new Map<string, Dag>([[dag.id, dag]]);
  const queue = [dag];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const p of next.placements) {
      if ((p.kind !== 'embed' && p.kind !== 'scatter') || p.dag === undefined) continue;
      const child = library.get(p.dag);
      if (child === undefined || found.has(child.id)) continue;
      found.set(child.id, child);
      queue.push(child);
    }
  }
  return [...found.values()];
}

/**
 * Nodes for every task and scatter body of `dags` that pick an output at random (a body: `hits`, or
 * `failed`), or throw a retryable / fatal error, or hang.
 */
function chaoticNodes(dags: readonly Dag[], seed: number): NodeDefinition<string, never>[] {
  const random = seededRandom(seed);
  const outputsOf = new Map<string, Set<string>>();
  for (const p of dags.flatMap((d) => d.placements)) {
    if (p.kind === 'task') {
      const outputs = outputsOf.get(p.node) ?? new Set();
      for (const r of p.routes) if (r.output !== 'retry' && r.output !== 'error') outputs.add(r.output);
      outputsOf.set(p.node, outputs);
    } else if (p.kind === 'scatter' && p.node !== undefined) {
      outputsOf.set(p.node, new Set(['hits', 'failed']));
    }
  }
  return [...outputsOf].map(([id, set]) => {
    const outputs = [...set];
    return defineNode({
      id,
      outputs,
      run: (item) => {
        const r = random();
        if (r < 0.1) return Promise.reject(httpError(503));
        if (r < 0.15) throw httpError(400);
        if (r < 0.2) return new Promise<string>(() => undefined);
        if (r < 0.22) return 'unrouted-output';
        item.data.seen = ((item.data.seen as number | undefined) ?? 0) + 1;
        item.data.result = Math.floor(random() * 3);
        return outputs[Math.floor(random() * outputs.length)] ?? 'none';
      },
    }) as NodeDefinition<string, never>;
  });
}

/** Input items for each document: the lists and fields its placements read. */
function inputsFor(name: string, n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => {
    if (name === 'scatter-gather') return { queries: Array.from({ length: i % 6 }, (_, q) => `q${q}`) };
    if (name === 'review') return { topic: `topic ${i}` };
    return {};
  });
}

describe('item conservation, budgets and worst-case bounds', () => {
  for (const name of ['compose-validate', 'nested-retry', 'checkout', 'scatter-gather', 'review']) {
    it(`holds for dags/${name}.jsonld under chaotic nodes`, async () => {
      const library = await dagsLibrary();
      const dag = await loadDag(name);
      const compiled = compile(dag);
      const dags = withChildren(dag, library);
      const world = worldOf(compiled, dags.slice(1));
      const bounds = computeBounds(compiled, library);
      let childEvents = 0;
      for (let seed = 1; seed <= 5; seed++) {
        const dispatcher = createDispatcher({
          nodes: chaoticNodes(dags, seed),
          clock: virtualClock(),
          random: seededRandom(seed),
          library,
          policy: { defaults: { deadlineMs: 50, backoff: { baseMs: 1, capMs: 20 } } },
        });
        const events: RunEvent[] = [];
        const inputs = inputsFor(name, 40);
        const result = await dispatcher.run(compiled, {}, { items: inputs, onEvent: (e) => events.push(e) });
        expect(runViolations(result, compiled, 40, bounds)).toEqual([]);
        expect(result.items.length + result.failures.length).toBe(40);
        expectRunGuarantees(world, result, events, 40, (item) => {
          const queries = inputs[Number(item) - 1]?.queries;
          return Array.isArray(queries) ? queries.length : undefined;
        });
        childEvents += events.filter((e) => 'item' in e && /[./]/.test(e.item)).length;
        const executions = result.items.reduce(
          (n, i) => n + Object.values(i.state.visits).reduce((a, b) => a + b, 0),
          0,
        );
        expect(BigInt(executions)).toBeLessThanOrEqual(40n * (bounds.total as bigint));
      }
      if (name === 'scatter-gather' || name === 'review') expect(childEvents).toBeGreaterThan(0);
    });
  }

  it('holds when the run is aborted and when the run deadline passes', async () => {
    const dag = await loadDag('nested-retry');
    const compiled = compile(dag);
    const controller = new AbortController();
    const clock = virtualClock();
    const dispatcher = createDispatcher({
      nodes: chaoticNodes([dag], 9),
      clock,
      policy: { defaults: { deadlineMs: 1_000 } },
    });
    const aborting = dispatcher.run(
      compiled,
      {},
      { items: Array.from({ length: 30 }, () => ({})), signal: controller.signal },
    );
    await clock.sleep(150);
    controller.abort();
    const aborted = await aborting;
    expect(aborted.status).toBe('aborted');
    expect(aborted.aborted.length).toBeGreaterThan(0);
    expect(runViolations(aborted, compiled, 30)).toEqual([]);
    const late = await dispatcher.run(
      compiled,
      {},
      { items: Array.from({ length: 30 }, () => ({})), deadlineMs: 300 },
    );
    expect(runViolations(late, compiled, 30)).toEqual([]);
    expect(late.failures.some((f) => f.error.code === 'E_RUN_DEADLINE')).toBe(true);
  });

  it('reports missing nodes before the run starts', async () => {
    const run = createDispatcher({ nodes: [] }).run(await loadDag('checkout'), {});
    await expect(run).rejects.toThrow(/urn:switchyard:node:checkout/);
  });
});
