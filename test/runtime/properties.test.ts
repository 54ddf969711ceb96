import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dag as buildDag } from '../../src/document/builder.ts';
import type { Dag, Placement } from '../../src/document/model.ts';
import { analyse } from '../../src/graph/analyse.ts';
import { compile } from '../../src/graph/compile.ts';
import { seededRandom } from '../../src/policy/random.ts';
import { resolvePolicy, timingFor } from '../../src/policy/resolve.ts';
import type { RuntimePolicy } from '../../src/policy/types.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { createRegistry, defineNode } from '../../src/runtime/node.ts';
import {
  type Element,
  type GeneratedDag,
  type GeneratedPolicy,
  generatedDagArbitrary,
  generatedPolicyArbitrary,
  listsArbitrary,
} from './arbitraries.ts';
import { propertySettings } from './property-settings.ts';
import { type NodeMode, nodeMode, randomNodes } from './random-nodes.ts';
import { type HintLog, hintKey, routingViolations } from './routing-oracle.ts';
import { expectRunGuarantees, worldOf } from './run-checks.ts';

/** Sized and seeded from the environment (`PROPERTY_RUNS`, `PROPERTY_SEED`, `PROPERTY_PATH`). */
const { runs: RUNS, replay: REPLAY } = propertySettings(80);
/** `PROPERTY_DEBUG=<file>` writes the events of each run there (the last one is the failing run). */
const DEBUG_FILE = process.env.PROPERTY_DEBUG;
/** Time for one property: about a second a run, on a shared machine. */
const TIMEOUT_MS = 30_000 + RUNS * 1000;
/** A failing property stops shrinking in time to report what it found before the test times out. */
const SHRINK_LIMIT_MS = TIMEOUT_MS - 20_000;

/** The wall time the virtual clock starts at: not on a whole second, so HTTP-dates round. */
const WALL_START = Date.UTC(2026, 0, 1, 12, 0, 0) + 437;

interface Case {
  readonly generated: GeneratedDag;
  readonly seed: number;
  readonly timing: GeneratedPolicy;
  readonly inputs: readonly { readonly n: number; readonly lists: Element[][] }[];
}

/** A generated DAG, a policy, and 1–6 input items, each with lists deep enough for every sub-DAG body. */
const caseArbitrary: fc.Arbitrary<Case> = generatedDagArbitrary.chain((generated) =>
  fc
    .record({
      generated: fc.constant(generated),
      seed: fc.nat(),
      timing: generatedPolicyArbitrary,
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

/** What the runs of one property saw, to show that the generators reach every case they are meant to. */
interface Coverage {
  modes: Set<NodeMode>;
  hintedRetries: number;
  backoffRetries: number;
  spentExhaustions: number;
  deadlineExhaustions: number;
  /** Task executions that started with the placement's limit reached, so later items queued. */
  saturated: number;
  /** The same for the children of scatters. */
  saturatedScatters: number;
}

const newCoverage = (): Coverage => ({
  modes: new Set(),
  hintedRetries: 0,
  backoffRetries: 0,
  spentExhaustions: 0,
  deadlineExhaustions: 0,
  saturated: 0,
  saturatedScatters: 0,
});

/**
 * At most `concurrency` items run a task placement at once (batch nodes excepted: their batch size is their
 * limit), and at most `concurrency` children of a node-bodied scatter placement run in the whole run at once;
 * returns how many executions of each started with every slot taken (so that later ones queued).
 */
function expectWithinConcurrency(
  c: Case,
  policy: RuntimePolicy,
  events: readonly RunEvent[],
  documents: readonly Dag[],
): { tasks: number; scatters: number } {
  const byDag = new Map(documents.map((d) => [d.id, new Map(d.placements.map((p) => [p.key, p]))]));
  const running = new Map<string, number>();
  const at = new Map<string, string>();
  const openScatter = new Map<string, string>();
  const saturated = { tasks: 0, scatters: 0 };
  // The items inside a cancelled child give their slots back before the child's item.cancelled event, at a
  // point no event marks: they are left out of the count.
  const cancelled = events.flatMap((e) => (e.type === 'item.cancelled' ? [e.item] : []));
  const insideCancelled = (item: string) =>
    cancelled.some((c) => item.startsWith(`${c}.`) || item.startsWith(`${c}/`));
  for (const e of events) {
    if (e.type !== 'placement.start' && e.type !== 'placement.end' && e.type !== 'item.cancelled') continue;
    if (e.type !== 'item.cancelled' && insideCancelled(e.item)) continue;
    const placement = byDag.get(e.dag)?.get(e.placement);
    const where = `${e.dag}|${e.placement}`;
    const parent = /^(.*)\.\d+$/.exec(e.item)?.[1];
    const body =
      placement?.kind === 'scatter' &&
      placement.node !== undefined &&
      parent !== undefined &&
      openScatter.get(parent) === where;
    if (placement?.kind === 'scatter' && !body && e.type !== 'item.cancelled') {
      if (e.type === 'placement.start') openScatter.set(e.item, where);
      else openScatter.delete(e.item);
      continue;
    }
    if (e.type === 'item.cancelled') {
      // A cancelled child stops where it stands: its slot is free.
      const held = at.get(e.item);
      if (held !== undefined) running.set(held, (running.get(held) ?? 1) - 1);
      at.delete(e.item);
      continue;
    }
    const counted = body || (placement?.kind === 'task' && nodeMode(c.seed, e.dag, e.placement) !== 'batch');
    if (!counted) continue;
    if (e.type === 'placement.start' && placement !== undefined) {
      const n = (running.get(where) ?? 0) + 1;
      running.set(where, n);
      at.set(e.item, where);
      const node = 'node' in placement ? placement.node : undefined;
      const limit = timingFor(policy, e.dag, e.placement, node).concurrency;
      expect(n, `${body ? 'children' : 'items'} running ${where} at once`).toBeLessThanOrEqual(limit);
      if (n === limit) saturated[body ? 'scatters' : 'tasks']++;
    } else {
      const held = at.get(e.item);
      if (held === undefined) continue;
      running.set(held, (running.get(held) ?? 1) - 1);
      at.delete(e.item);
    }
  }
  return saturated;
}

async function runCase(c: Case, coverage: Coverage, abortAt?: number) {
  const clock = createVirtualClock({ auto: true, wallStart: WALL_START });
  const { dag, library } = c.generated;
  const documents = [dag, ...library];
  const hints: HintLog = new Map();
  const policy = resolvePolicy(c.timing.policy);
  const dispatcher = createDispatcher({
    nodes: randomNodes(documents, c.seed, clock, hints),
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
    {
      // Copies: the engine hands the input objects to the nodes, which write into them.
      items: structuredClone(c.inputs),
      signal: controller.signal,
      onEvent: (e) => events.push(e),
      ...(c.timing.runDeadlineMs === undefined ? {} : { deadlineMs: c.timing.runDeadlineMs }),
    },
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
  if (DEBUG_FILE !== undefined) writeFileSync(DEBUG_FILE, events.map((e) => JSON.stringify(e)).join('\n'));
  expectRunGuarantees(world, result, events, c.inputs.length, listLength);
  const oracle = { documents, policy, runDeadlineMs: c.timing.runDeadlineMs, hints, wallStart: WALL_START };
  expect(routingViolations(oracle, events)).toEqual([]);
  const saturated = expectWithinConcurrency(c, policy, events, documents);
  coverage.saturated += saturated.tasks;
  coverage.saturatedScatters += saturated.scatters;
  for (const e of events) {
    if (e.type === 'placement.start' && e.item !== 'run')
      coverage.modes.add(nodeMode(c.seed, e.dag, e.placement));
    if (e.type === 'retry.scheduled') {
      if (e.delaySource === 'retry-after') coverage.hintedRetries++;
      else coverage.backoffRetries++;
    }
    if (e.type === 'budget.exhausted') {
      if (e.why === 'spent') coverage.spentExhaustions++;
      else coverage.deadlineExhaustions++;
    }
  }
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

  it(
    'conservation, budgets, worst-case executions, phases and event/stat agreement hold for every run',
    async () => {
      let scattered = 0;
      let embedded = 0;
      const coverage = newCoverage();
      await fc.assert(
        fc.asyncProperty(caseArbitrary, async (c) => {
          const { events } = await runCase(c, coverage);
          if (events.some((e) => e.type === 'placement.start' && e.item.includes('.'))) scattered++;
          if (events.some((e) => e.type === 'placement.start' && e.item.includes('/'))) embedded++;
        }),
        { numRuns: RUNS, interruptAfterTimeLimit: SHRINK_LIMIT_MS, ...REPLAY },
      );
      expect(scattered).toBeGreaterThan(RUNS / 5);
      expect(embedded).toBeGreaterThan(RUNS / 10);
      expect([...coverage.modes].sort()).toEqual(['async', 'batch', 'sync']);
      expect(coverage.hintedRetries).toBeGreaterThan(RUNS / 10);
      expect(coverage.backoffRetries).toBeGreaterThan(RUNS / 10);
      expect(coverage.spentExhaustions).toBeGreaterThan(RUNS / 10);
      expect(coverage.deadlineExhaustions).toBeGreaterThan(0);
      expect(coverage.saturated).toBeGreaterThan(RUNS / 10);
      expect(coverage.saturatedScatters).toBeGreaterThan(RUNS / 10);
    },
    TIMEOUT_MS,
  );

  it(
    'an abort at a random virtual time keeps every item in exactly one list, the aborted ones included',
    async () => {
      let abortedRuns = 0;
      await fc.assert(
        fc.asyncProperty(caseArbitrary, fc.integer({ min: 0, max: 120 }), async (c, abortAt) => {
          const { result } = await runCase(c, newCoverage(), abortAt);
          if (result.status === 'aborted') {
            abortedRuns++;
            for (const a of result.aborted) expect(['backoff', 'node', 'queue']).toContain(a.waitingFor);
          }
        }),
        { numRuns: RUNS, interruptAfterTimeLimit: SHRINK_LIMIT_MS, ...REPLAY },
      );
      expect(abortedRuns).toBeGreaterThan(RUNS / 15);
    },
    TIMEOUT_MS,
  );
});

describe('the routing oracle', () => {
  const document = buildDag('urn:test:oracle', { name: 'oracle', version: '1' })
    .entry('work')
    .budget('tries', 2)
    .task('work', 'urn:test:work')
    .retry('again', 'work', { budget: 'tries', exhausted: 'rescue' })
    .route('ok', 'done')
    .task('rescue', 'urn:test:rescue')
    .salvage('ok', 'done')
    .terminal('done', 'completed')
    .build();
  const policy = resolvePolicy({
    defaults: { backoff: { strategy: 'constant', baseMs: 5, factor: 1, capMs: 5 }, jitter: 'none' },
  });

  /** `work` asks for a retry three times: first with a Retry-After of 7 ms, then plainly; `rescue` answers ok. */
  async function oracleRun(runDeadlineMs?: number) {
    const clock = createVirtualClock({ auto: true });
    const hints: HintLog = new Map();
    const work = defineNode({
      id: 'urn:test:work',
      outputs: ['again', 'ok'],
      run: (item, ctx) => {
        if (ctx.visit > 1) return 'again';
        hints.set(hintKey(ctx.dag, ctx.placement, item.id, ctx.visit), { ms: 7 });
        return { output: 'again', retryAfter: 7 };
      },
    });
    const rescue = defineNode({ id: 'urn:test:rescue', outputs: ['ok'], run: async () => 'ok' });
    const dispatcher = createDispatcher({ nodes: [work, rescue], clock, policy });
    const events: RunEvent[] = [];
    const options = runDeadlineMs === undefined ? {} : { deadlineMs: runDeadlineMs };
    await dispatcher.run(document, {}, { ...options, onEvent: (e) => events.push(e) });
    const input = { documents: [document], policy, runDeadlineMs, hints };
    return { events, check: (stream: readonly RunEvent[]) => routingViolations(input, stream) };
  }

  const find = (events: readonly RunEvent[], match: (e: RunEvent) => boolean): number => {
    const index = events.findIndex(match);
    expect(index).toBeGreaterThanOrEqual(0);
    return index;
  };
  const replaced = (events: readonly RunEvent[], index: number, ...by: RunEvent[]): RunEvent[] => [
    ...events.slice(0, index),
    ...by,
    ...events.slice(index + 1),
  ];

  it('accepts a real run: a Retry-After wait, a back-off wait, exhaustion once spent, the salvage after it', async () => {
    const { events, check } = await oracleRun();
    expect(check(events)).toEqual([]);
    const retries = events.filter((e) => e.type === 'retry.scheduled');
    expect(retries.map((e) => [e.attempt, e.delayMs, e.delaySource])).toEqual([
      [1, 7, 'retry-after'],
      [2, 5, 'backoff'],
    ]);
    expect(events.filter((e) => e.type === 'budget.exhausted').map((e) => e.why)).toEqual(['spent']);
  });

  it('accepts a deadline exhaustion only when the wait would not end before the run deadline', async () => {
    // Waits 7 ms (hint), then the 5 ms back-off would end at 12 ≥ 10: exhausted with budget left.
    const { events, check } = await oracleRun(10);
    expect(check(events)).toEqual([]);
    const exhausted = events.find((e) => e.type === 'budget.exhausted');
    expect(exhausted).toMatchObject({ why: 'deadline', time: 7 });
    // The same exhaustion with a deadline far away has no excuse.
    const far = await oracleRun(1000);
    const moved = replaced(
      far.events,
      find(far.events, (e) => e.type === 'budget.exhausted'),
      {
        ...(exhausted as RunEvent),
        seq: -1,
      },
    );
    expect(far.check(moved).join('\n')).toMatch(/ends before the run deadline/);
  });

  it('reports a dropped exhaustion, a changed target, a spend past the budget and an exhaustion with budget left', async () => {
    const { events, check } = await oracleRun();
    const exhaustion = find(events, (e) => e.type === 'budget.exhausted');
    expect(check(events.filter((_, i) => i !== exhaustion)).join('\n')).toMatch(/without budget\.exhausted/);

    const salvage = find(events, (e) => e.type === 'route' && e.kind === 'salvage');
    const wrongTarget = replaced(events, salvage, {
      ...(events[salvage] as RunEvent),
      to: 'work',
    } as RunEvent);
    expect(check(wrongTarget).join('\n')).toMatch(
      /routes 'rescue' on 'ok' as salvage to 'done', not salvage to 'work'/,
    );

    // One spend too many: the engine retries a third time instead of taking the exhaustion route.
    const retry = events.find((e) => e.type === 'retry.scheduled') as RunEvent & { type: 'retry.scheduled' };
    const route = events.find((e) => e.type === 'route' && e.kind === 'retry') as RunEvent;
    const overspent = [
      ...events.slice(0, exhaustion),
      { ...route, seq: -2 },
      { ...retry, attempt: 3, delayMs: 5, delaySource: 'backoff' as const, seq: -1 },
    ];
    expect(check(overspent).join('\n')).toMatch(/retried with budget 'tries' already spent \(2 of 2\)/);

    // Exhausted too early: the first retry becomes an exhaustion while the budget is untouched.
    const firstRetry = find(events, (e) => e.type === 'route' && e.kind === 'retry');
    const early = [
      ...events.slice(0, firstRetry),
      { ...(events[exhaustion] as RunEvent), seq: -2 },
      { ...(events[exhaustion + 1] as RunEvent), seq: -1 },
    ];
    expect(check(early).join('\n')).toMatch(/exhausted 'tries' with budget left \(0 of 2\)/);
  });

  it('reports a wait that ignores the Retry-After, a back-off out of bounds and a deadline exhaustion without a deadline', async () => {
    const { events, check } = await oracleRun();
    const [hinted, plain] = events.filter((e) => e.type === 'retry.scheduled');
    const at = (e: RunEvent | undefined) => events.indexOf(e as RunEvent);
    const ignored = replaced(events, at(hinted), {
      ...(hinted as RunEvent),
      delayMs: 5,
      delaySource: 'backoff',
    } as RunEvent);
    expect(check(ignored).join('\n')).toMatch(
      /honoured Retry-After asks 7 ms, the wait is 5 ms from backoff/,
    );
    const long = replaced(events, at(plain), { ...(plain as RunEvent), delayMs: 6 } as RunEvent);
    expect(check(long).join('\n')).toMatch(/back-off for attempt 2 lies in \[5, 5\] ms, the wait is 6 ms/);
    const exhaustion = find(events, (e) => e.type === 'budget.exhausted');
    const excuse = replaced(events, exhaustion, {
      ...(events[exhaustion] as RunEvent),
      why: 'deadline',
    } as RunEvent);
    expect(check(excuse).join('\n')).toMatch(/for the deadline though it was spent/);
  });
});
