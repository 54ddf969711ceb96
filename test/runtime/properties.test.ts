import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Dag, Placement } from '../../src/document/model.ts';
import { analyse } from '../../src/graph/analyse.ts';
import { compile } from '../../src/graph/compile.ts';
import { seededRandom } from '../../src/policy/random.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { createRegistry } from '../../src/runtime/node.ts';
import { type Element, type GeneratedDag, generatedDagArbitrary, listsArbitrary } from './arbitraries.ts';
import { randomNodes } from './random-nodes.ts';
import { expectRunGuarantees, worldOf } from './run-checks.ts';

const DEADLINE_MS = 50;
const policy: PolicyInput = {
  defaults: {
    deadlineMs: DEADLINE_MS,
    backoff: { strategy: 'exponential', baseMs: 2, factor: 2, capMs: 20 },
    jitter: 'full',
  },
  // Some scatters run their children a few at a time.
  placements: { s0: { concurrency: 1 }, s2: { concurrency: 2 }, s5: { concurrency: 3 } },
};

interface Case {
  readonly generated: GeneratedDag;
  readonly seed: number;
  readonly inputs: readonly { readonly n: number; readonly lists: Element[][] }[];
}

/** A generated DAG and 1–6 input items, each with lists deep enough for every sub-DAG body. */
const caseArbitrary: fc.Arbitrary<Case> = generatedDagArbitrary.chain((generated) =>
  fc
    .record({
      generated: fc.constant(generated),
      seed: fc.nat(),
      inputs: fc.array(
        listsArbitrary(generated.depth).map((lists) => ({ lists })),
        { minLength: 1, maxLength: 6 },
      ),
    })
    .map((c) => ({ ...c, inputs: c.inputs.map((input, n) => ({ n, lists: input.lists })) })),
);

const libraryOf = (dags: readonly Dag[]) => {
  const byId = new Map(dags.map((d) => [d.id, d]));
  return { get: (id: string) => byId.get(id) };
};

async function runCase(c: Case, abortAt?: number) {
  const clock = createVirtualClock({ auto: true });
  const { dag, library } = c.generated;
  const dispatcher = createDispatcher({
    nodes: randomNodes([dag, ...library], c.seed, clock),
    clock,
    random: seededRandom(c.seed),
    policy,
    library: libraryOf(library),
  });
  const compiled = compile(dag);
  const events: RunEvent[] = [];
  const controller = new AbortController();
  const run = dispatcher.run(
    compiled,
    {},
    // Copies: the engine hands the input objects to the nodes, which write into them.
    { items: structuredClone(c.inputs), signal: controller.signal, onEvent: (e) => events.push(e) },
  );
  if (abortAt !== undefined) {
    await clock.sleep(abortAt);
    controller.abort();
  }
  const result = await run;
  const world = worldOf(compiled, library);
  const listLength = (item: string, scatter: string): number | undefined => {
    const placement = dag.placements.find((p) => p.key === scatter) as Placement & { items: string };
    const k = placement.items.split('/').at(-1);
    const list = c.inputs[Number(item) - 1]?.lists[Number(k)];
    return list === undefined ? undefined : list.length;
  };
  expectRunGuarantees(world, result, events, c.inputs.length, listLength);
  return { result, events };
}

const kinds = (generated: GeneratedDag): Set<string> =>
  new Set(
    [generated.dag, ...generated.library].flatMap((d) =>
      d.placements.map((p) =>
        p.kind === 'scatter' ? `scatter:${p.node === undefined ? 'dag' : 'node'}` : p.kind,
      ),
    ),
  );

describe('dispatcher properties over random valid DAGs of every placement kind', () => {
  it('the generator only produces DAGs that analyse accepts, with every kind, reducer and route kind', () => {
    const sample = fc.sample(generatedDagArbitrary, { numRuns: 300, seed: 7 });
    for (const generated of sample) {
      const all = [generated.dag, ...generated.library];
      const library = libraryOf(all);
      const nodes = createRegistry(randomNodes(all, 0, createVirtualClock()));
      for (const d of all) {
        expect(analyse(d, { library, nodes }).filter((p) => p.severity === 'error')).toEqual([]);
      }
    }
    const seen = new Set(sample.flatMap((g) => [...kinds(g)]));
    expect([...seen].sort()).toEqual(
      ['embed', 'gather', 'phase', 'scatter:dag', 'scatter:node', 'task', 'terminal'].sort(),
    );
    const placements = sample.flatMap((g) => [g.dag, ...g.library].flatMap((d) => d.placements));
    const gathers = placements.filter((p) => p.kind === 'gather');
    for (const reducer of ['collect', 'partition', 'first', 'quorum']) {
      expect(gathers.some((g) => g.reducer === reducer)).toBe(true);
    }
    for (const require of ['all', 'any', 'quorum']) {
      expect(gathers.some((g) => g.require === require)).toBe(true);
    }
    const embeds = placements.filter((p) => p.kind === 'embed');
    expect(embeds.some((e) => e.result.length > 0 && e.input.length > 1)).toBe(true);
    expect(placements.some((p) => p.kind === 'phase' && p.when === 'pre')).toBe(true);
    expect(placements.some((p) => p.kind === 'phase' && p.when === 'post')).toBe(true);
    // Children that retry (their own budgets) inside parents that retry the embed.
    const childRetries = sample.some(
      (g) =>
        g.library.some((d) => d.placements.some((p) => p.routes.some((r) => r.kind === 'retry'))) &&
        g.dag.placements.some((p) => p.kind === 'embed' && p.routes.some((r) => r.kind === 'retry')),
    );
    expect(childRetries).toBe(true);
    const routes = placements.flatMap((p) => p.routes);
    expect(routes.some((r) => (r.resets?.length ?? 0) > 0)).toBe(true);
    expect(routes.some((r) => r.kind === 'salvage')).toBe(true);
    expect(routes.some((r) => r.output === 'retry') && routes.some((r) => r.output === 'error')).toBe(true);
  });

  it('conservation, budgets, worst-case executions, phases and event/stat agreement hold for every run', async () => {
    let scattered = 0;
    let embedded = 0;
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async (c) => {
        const { events } = await runCase(c);
        if (events.some((e) => e.type === 'placement.start' && e.item.includes('.'))) scattered++;
        if (events.some((e) => e.type === 'placement.start' && e.item.includes('/'))) embedded++;
      }),
      { numRuns: 150 },
    );
    expect(scattered).toBeGreaterThan(30);
    expect(embedded).toBeGreaterThan(15);
  });

  it('an abort at a random virtual time keeps every item in exactly one list, the aborted ones included', async () => {
    let abortedRuns = 0;
    await fc.assert(
      fc.asyncProperty(caseArbitrary, fc.integer({ min: 0, max: 120 }), async (c, abortAt) => {
        const { result } = await runCase(c, abortAt);
        if (result.status === 'aborted') {
          abortedRuns++;
          for (const a of result.aborted) expect(['backoff', 'node', 'queue']).toContain(a.waitingFor);
        }
      }),
      { numRuns: 150 },
    );
    expect(abortedRuns).toBeGreaterThan(10);
  });
});
