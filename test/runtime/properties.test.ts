import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Dag } from '../../src/document/model.ts';
import { analyse } from '../../src/graph/analyse.ts';
import { type Bounds, computeBounds } from '../../src/graph/bounds.ts';
import { type CompiledDag, compile } from '../../src/graph/compile.ts';
import { seededRandom } from '../../src/policy/random.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import type { RunResult } from '../../src/runtime/run.ts';
import { dagArbitrary, randomNodes } from './arbitraries.ts';

const DEADLINE_MS = 50;
const policy: PolicyInput = {
  defaults: {
    deadlineMs: DEADLINE_MS,
    backoff: { strategy: 'exponential', baseMs: 2, factor: 2, capMs: 20 },
    jitter: 'full',
  },
};

interface Case {
  readonly dag: Dag;
  readonly seed: number;
  readonly items: number;
}

const caseArbitrary: fc.Arbitrary<Case> = fc.record({
  dag: dagArbitrary,
  seed: fc.nat(),
  items: fc.integer({ min: 1, max: 8 }),
});

async function runCase(c: Case, abortAt?: number) {
  const clock = createVirtualClock({ auto: true });
  const dispatcher = createDispatcher({
    nodes: randomNodes(c.dag, c.seed, clock),
    clock,
    random: seededRandom(c.seed),
    policy,
  });
  const compiled = compile(c.dag);
  const events: RunEvent[] = [];
  const controller = new AbortController();
  const items = Array.from({ length: c.items }, (_, i) => ({ n: i }));
  const run = dispatcher.run(
    compiled,
    {},
    { items, signal: controller.signal, onEvent: (e) => events.push(e) },
  );
  if (abortAt !== undefined) {
    await clock.sleep(abortAt);
    controller.abort();
  }
  const result = await run;
  return { compiled, result, events };
}

function count<T>(list: readonly T[], key: (t: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const x of list) counts.set(key(x), (counts.get(key(x)) ?? 0) + 1);
  return counts;
}

const ofType = <T extends RunEvent['type']>(events: readonly RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

/** Every input id in exactly one of items / failures / aborted; aborted only when the run was aborted. */
function expectConservation(result: RunResult, inputs: number): void {
  const ids = [
    ...result.items.map((i) => i.id),
    ...result.failures.map((f) => f.id),
    ...result.aborted.map((a) => a.item),
  ].sort((a, b) => Number(a) - Number(b));
  expect(ids).toEqual(Array.from({ length: inputs }, (_, i) => String(i + 1)));
  if (result.status !== 'aborted') expect(result.aborted).toEqual([]);
  const completed = result.items.every((i) => i.outcome === 'completed') && result.items.length === inputs;
  if (result.status !== 'aborted') expect(result.status).toBe(completed ? 'completed' : 'failed');
}

/**
 * Replays each item's budget counters from the events: a retry spends one (`attempt` = count + 1 ≤ max) and
 * then applies its route's resets; an exhaustion for `spent` happens only at max. The replayed counters must
 * equal the item's final state.
 */
function expectBudgets(
  compiled: CompiledDag,
  result: RunResult,
  events: readonly RunEvent[],
  bounds: Bounds,
): void {
  const max = new Map(compiled.budgets.map((b) => [b.name, b.max]));
  const counters = new Map<string, Record<string, number>>();
  const counter = (item: string) => {
    const known = counters.get(item);
    if (known !== undefined) return known;
    const fresh: Record<string, number> = {};
    counters.set(item, fresh);
    return fresh;
  };
  const pendingResets = new Map<string, readonly string[]>();
  for (const e of events) {
    if (e.type === 'route' && e.kind === 'retry') {
      const route = compiled.byKey.get(e.from)?.routes.get(e.output)?.route;
      expect(route?.kind).toBe('retry');
      pendingResets.set(e.item, route?.resets ?? []);
    } else if (e.type === 'retry.scheduled') {
      const c = counter(e.item);
      expect(e.attempt).toBe((c[e.budget] ?? 0) + 1);
      expect(e.attempt).toBeLessThanOrEqual(max.get(e.budget) ?? -1);
      c[e.budget] = e.attempt;
      for (const reset of pendingResets.get(e.item) ?? []) c[reset] = 0;
    } else if (e.type === 'budget.exhausted') {
      expect(e.why).toBe('spent');
      expect(counter(e.item)[e.budget] ?? 0).toBe(max.get(e.budget));
    }
  }
  const states = [...result.items, ...result.failures, ...result.aborted].map((x) => x.state);
  for (const state of states) {
    const replayed = counter(state.id);
    for (const [budget, limit] of max) {
      const spent = state.budgets[budget] ?? 0;
      expect(spent).toBeLessThanOrEqual(limit);
      expect(spent).toBe(replayed[budget] ?? 0);
    }
  }
  const spends = count(ofType(events, 'retry.scheduled'), (e) => `${e.item} ${e.budget}`);
  for (const [key, n] of spends) {
    const budget = key.split(' ')[1] as string;
    expect(n).toBeLessThanOrEqual(bounds.spends.get(budget) ?? -1);
  }
}

/** placement.start per item and placement within the static worst case, and equal to the state's visits. */
function expectWithinBounds(result: RunResult, events: readonly RunEvent[], bounds: Bounds): void {
  const starts = count(ofType(events, 'placement.start'), (e) => `${e.item} ${e.placement}`);
  for (const [key, n] of starts) {
    const placement = key.split(' ')[1] as string;
    expect(n).toBeLessThanOrEqual(bounds.perPlacement.get(placement) ?? -1);
  }
  for (const { state } of [...result.items, ...result.failures, ...result.aborted]) {
    for (const [placement, visits] of Object.entries(state.visits)) {
      expect(visits).toBeLessThanOrEqual(bounds.perPlacement.get(placement) ?? -1);
      const isTerminal = result.items.some((i) => i.id === state.id && i.terminal === placement);
      expect(visits).toBe(isTerminal ? 1 : (starts.get(`${state.id} ${placement}`) ?? 0));
    }
  }
}

/** seq 0, 1, 2, … with non-decreasing time, run.start first and run.end last; stats agree with the events. */
function expectEventsAgree(result: RunResult, events: readonly RunEvent[]): void {
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => (events[0]?.seq ?? 0) + i));
  events.forEach((e, i) => {
    if (i > 0) expect(e.time).toBeGreaterThanOrEqual((events[i - 1] as RunEvent).time);
  });
  expect(events[0]?.type).toBe('run.start');
  expect(events.at(-1)).toMatchObject({ type: 'run.end', status: result.status });
  expect(result.stats.executions).toBe(ofType(events, 'placement.start').length);
  expect(result.stats.retries).toBe(ofType(events, 'retry.scheduled').length);
  expect(result.stats.salvages).toBe(ofType(events, 'salvage').length);
  expect(result.stats.exhausted).toBe(ofType(events, 'budget.exhausted').length);
  const ends = ofType(events, 'item.end');
  expect(Object.fromEntries(count(ends, (e) => e.terminal))).toEqual(result.stats.byTerminal);
  expect(ends.map((e) => [e.item, e.terminal]).sort()).toEqual(
    result.items.map((i) => [i.id, i.terminal]).sort(),
  );
  const failed = ofType(events, 'item.failed');
  expect(failed.map((e) => [e.item, e.placement]).sort()).toEqual(
    result.failures.map((f) => [f.id, f.placement]).sort(),
  );
}

function expectAll(c: Case, run: Awaited<ReturnType<typeof runCase>>): void {
  const bounds = computeBounds(run.compiled);
  expect(bounds.unboundedBecause).toBeUndefined();
  expectConservation(run.result, c.items);
  expectBudgets(run.compiled, run.result, run.events, bounds);
  expectWithinBounds(run.result, run.events, bounds);
  expectEventsAgree(run.result, run.events);
}

describe('dispatcher properties over random valid DAGs', () => {
  it('the generator only produces DAGs that analyse accepts, with every route kind represented', () => {
    const dags = fc.sample(dagArbitrary, { numRuns: 300, seed: 7 });
    for (const d of dags) {
      expect(analyse(d).filter((p) => p.severity === 'error')).toEqual([]);
    }
    const routes = dags.flatMap((d) => d.placements.flatMap((p) => p.routes));
    expect(routes.some((r) => r.kind === 'retry' && r.to !== undefined)).toBe(true);
    expect(routes.some((r) => (r.resets?.length ?? 0) > 0)).toBe(true);
    expect(routes.some((r) => r.kind === 'salvage')).toBe(true);
    expect(routes.some((r) => r.output === 'retry') && routes.some((r) => r.output === 'error')).toBe(true);
    const withRetryLoop = dags.filter((d) =>
      d.placements.some((p) => p.routes.some((r) => r.kind === 'retry')),
    );
    expect(withRetryLoop.length).toBeGreaterThan(dags.length / 2);
  });

  it('conservation, budgets, worst-case visits and event/stat agreement hold for every run', async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async (c) => {
        expect(analyse(c.dag).filter((p) => p.severity === 'error')).toEqual([]);
        const run = await runCase(c);
        expectAll(c, run);
      }),
      { numRuns: 150 },
    );
  });

  it('an abort at a random virtual time keeps every item in exactly one list, the aborted ones included', async () => {
    let abortedRuns = 0;
    await fc.assert(
      fc.asyncProperty(caseArbitrary, fc.integer({ min: 0, max: 120 }), async (c, abortAt) => {
        const run = await runCase(c, abortAt);
        expectAll(c, run);
        if (run.result.status === 'aborted') {
          abortedRuns++;
          for (const a of run.result.aborted) expect(['backoff', 'node', 'queue']).toContain(a.waitingFor);
        }
      }),
      { numRuns: 150 },
    );
    expect(abortedRuns).toBeGreaterThan(10);
  });
});
