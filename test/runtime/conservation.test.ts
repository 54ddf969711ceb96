import { describe, expect, it } from 'vitest';
import type { Dag } from '../../src/document/model.ts';
import { computeBounds } from '../../src/graph/bounds.ts';
import { compile } from '../../src/graph/compile.ts';
import { seededRandom } from '../../src/policy/random.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { runViolations } from '../../src/runtime/invariants.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import { dagsLibrary, httpError, loadDag, virtualClock } from './helpers.ts';

/** Nodes for every task of `dag` that pick an output at random, or throw a retryable / fatal error, or hang. */
function chaoticNodes(dag: Dag, seed: number): NodeDefinition<string, never>[] {
  const random = seededRandom(seed);
  const ids = new Set(dag.placements.flatMap((p) => (p.kind === 'task' ? [p.node] : [])));
  return [...ids].map((id) => {
    const outputs = [
      ...new Set(
        dag.placements.flatMap((p) =>
          p.kind === 'task' && p.node === id ? p.routes.map((r) => r.output) : [],
        ),
      ),
    ].filter((o) => o !== 'retry' && o !== 'error');
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
        return outputs[Math.floor(random() * outputs.length)] ?? 'none';
      },
    }) as NodeDefinition<string, never>;
  });
}

describe('item conservation, budgets and worst-case bounds', () => {
  for (const name of ['compose-validate', 'nested-retry', 'checkout']) {
    it(`holds for dags/${name}.jsonld under chaotic nodes`, async () => {
      const dag = await loadDag(name);
      const compiled = compile(dag);
      const bounds = computeBounds(compiled, await dagsLibrary());
      for (let seed = 1; seed <= 5; seed++) {
        const dispatcher = createDispatcher({
          nodes: chaoticNodes(dag, seed),
          clock: virtualClock(),
          random: seededRandom(seed),
          policy: { defaults: { deadlineMs: 50, backoff: { baseMs: 1, capMs: 20 } } },
        });
        const result = await dispatcher.run(compiled, {}, { items: Array.from({ length: 40 }, () => ({})) });
        expect(runViolations(result, compiled, 40, bounds)).toEqual([]);
        expect(result.items.length + result.failures.length).toBe(40);
        const executions = result.items.reduce(
          (n, i) => n + Object.values(i.state.visits).reduce((a, b) => a + b, 0),
          0,
        );
        expect(executions).toBeLessThanOrEqual(40 * bounds.total);
      }
    });
  }

  it('holds when the run is aborted and when the run deadline passes', async () => {
    const dag = await loadDag('nested-retry');
    const compiled = compile(dag);
    const controller = new AbortController();
    const clock = virtualClock();
    const dispatcher = createDispatcher({
      nodes: chaoticNodes(dag, 9),
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
