/**
 * The dispatcher's guarantees, checked on a finished run and its events, over every document the run
 * entered. Events name child items by path (`1.3`: a scatter child of item 1; `1/e`: the item that embed
 * `e` runs), and the same path is reused when a placement runs again, so the checks split each path into
 * instances: one per execution of the embed or scatter that started it, with counters of its own.
 */
import { expect } from 'vitest';
import type { Dag, DagLibrary } from '../../src/document/model.ts';
import { type Bounds, computeBounds } from '../../src/graph/bounds.ts';
import { type CompiledDag, compile } from '../../src/graph/compile.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import type { RunResult } from '../../src/runtime/run.ts';

/** A root document and every document it may run, compiled, with their static bounds. */
export interface World {
  readonly root: CompiledDag;
  readonly compiled: ReadonlyMap<string, CompiledDag>;
  readonly bounds: ReadonlyMap<string, Bounds>;
}

/** Compiles `root` and `children` and computes their bounds against a library of all of them. */
export function worldOf(root: CompiledDag, children: readonly Dag[]): World {
  const byId = new Map<string, Dag>([[root.dag.id, root.dag], ...children.map((d) => [d.id, d] as const)]);
  const library: DagLibrary = { get: (id) => byId.get(id) };
  const compiled = new Map<string, CompiledDag>([[root.dag.id, root]]);
  for (const child of children) compiled.set(child.id, compile(child));
  const bounds = new Map<string, Bounds>();
  for (const [id, c] of compiled) {
    const b = computeBounds(c, library);
    expect(b.unboundedBecause, `bounds of ${id}`).toBeUndefined();
    bounds.set(id, b);
  }
  return { root, compiled, bounds };
}

const ofType = <T extends RunEvent['type']>(events: readonly RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

function count<T>(list: readonly T[], key: (t: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const x of list) counts.set(key(x), (counts.get(key(x)) ?? 0) + 1);
  return counts;
}

/** One execution of a scatter: who ran it, how its children run, which children started and ended. */
interface ScatterExecution {
  readonly parent: string;
  readonly dag: string;
  readonly key: string;
  readonly body: 'node' | 'dag';
  readonly started: Set<string>;
  readonly ended: Set<string>;
}

/** What the walk over the events learnt, for the checks. */
interface Walk {
  /** The instance of every event that names an item, by position in `events` (undefined for run events). */
  readonly instances: (string | undefined)[];
  /** For instances that are node-bodied scatter children: their scatter execution. */
  readonly bodyChild: Map<string, ScatterExecution>;
  readonly scatters: ScatterExecution[];
  /** Scatter executions that ended with `done`, with the list length their parent's data had when top-level. */
  readonly finished: ScatterExecution[];
}

/** Instance of a path: the path plus the generation of the execution that started it. */
function walkEvents(world: World, events: readonly RunEvent[]): Walk {
  const generation = new Map<string, number>();
  const current = new Map<string, ScatterExecution>();
  const open = new Map<string, ScatterExecution>();
  const bodyChild = new Map<string, ScatterExecution>();
  const scatters: ScatterExecution[] = [];
  const finished: ScatterExecution[] = [];
  const instances: (string | undefined)[] = [];
  const familyOf = (item: string): string | undefined => {
    const at = Math.max(item.lastIndexOf('/'), item.lastIndexOf('.'));
    if (at < 0) return undefined;
    return item[at] === '/' ? item : item.slice(0, at + 1);
  };
  const instanceOf = (item: string): string => {
    const family = familyOf(item);
    return family === undefined ? item : `${item}#${generation.get(family) ?? 0}`;
  };
  for (const e of events) {
    if (!('item' in e)) {
      instances.push(undefined);
      continue;
    }
    const family = familyOf(e.item);
    const scatter = family === undefined ? undefined : current.get(family);
    const isBodyChild =
      scatter !== undefined && scatter.body === 'node' && scatter.dag === e.dag && 'placement' in e
        ? e.placement === scatter.key
        : false;
    if (e.type === 'placement.start' && !isBodyChild) {
      const placement = world.compiled.get(e.dag)?.byKey.get(e.placement)?.placement;
      if (placement?.kind === 'embed') {
        const child = `${e.item}/${e.placement}`;
        generation.set(child, (generation.get(child) ?? 0) + 1);
      } else if (placement?.kind === 'scatter') {
        const children = `${e.item}.`;
        generation.set(children, (generation.get(children) ?? 0) + 1);
        const execution: ScatterExecution = {
          parent: instanceOf(e.item),
          dag: e.dag,
          key: e.placement,
          body: placement.node === undefined ? 'dag' : 'node',
          started: new Set(),
          ended: new Set(),
        };
        current.set(children, execution);
        open.set(`${instanceOf(e.item)}|${e.placement}`, execution);
        scatters.push(execution);
      }
    }
    const instance = instanceOf(e.item);
    instances.push(instance);
    if (scatter !== undefined && family !== undefined && e.item.slice(family.length).match(/^\d+$/)) {
      scatter.started.add(instance);
      if (isBodyChild || (e.type === 'item.cancelled' && scatter.body === 'node')) {
        bodyChild.set(instance, scatter);
        if (e.type === 'placement.end' || e.type === 'item.cancelled') scatter.ended.add(instance);
      } else if (e.type === 'item.end' || e.type === 'item.failed' || e.type === 'item.cancelled') {
        scatter.ended.add(instance);
      }
    }
    if (e.type === 'placement.end' && !isBodyChild) {
      const execution = open.get(`${instance}|${e.placement}`);
      if (execution !== undefined && execution.dag === e.dag) {
        open.delete(`${instance}|${e.placement}`);
        if (e.output === 'done') finished.push(execution);
      }
    }
  }
  return { instances, bodyChild, scatters, finished };
}

/** The top-level ids of a run of `inputs` items. */
const topLevel = (inputs: number): Set<string> =>
  new Set(Array.from({ length: inputs }, (_, i) => String(i + 1)));

/**
 * Checks every guarantee: conservation of input items (and of child items: each child instance ends once, and
 * a finished scatter ran one child per list element), budgets replayed from events never past their max and
 * equal to each top-level item's final counters, executions per instance and placement within the static
 * bounds of the document it ran in, phases once per run in order, events ordered and in agreement with the
 * stats. `listLength(item, dag, scatterKey)` gives the list length a top-level item scattered, when known.
 */
export function expectRunGuarantees(
  world: World,
  result: RunResult,
  events: readonly RunEvent[],
  inputs: number,
  listLength?: (item: string, scatter: string) => number | undefined,
): void {
  const walk = walkEvents(world, events);
  const tops = topLevel(inputs);
  // A run stopped by an abort or its deadline leaves child items where they stood.
  const aborted =
    result.status === 'aborted' || result.failures.some((f) => f.error.code === 'E_RUN_DEADLINE');
  expectConservation(result, inputs);
  expectEventOrder(result, events);

  // Child conservation: each instance ends at most once (exactly once unless the run was aborted).
  const endings = new Map<string, number>();
  const seen = new Set<string>();
  events.forEach((e, i) => {
    const instance = walk.instances[i];
    if (instance === undefined || instance === 'run' || walk.bodyChild.has(instance)) return;
    seen.add(instance);
    if (e.type === 'item.end' || e.type === 'item.failed' || e.type === 'item.cancelled')
      endings.set(instance, (endings.get(instance) ?? 0) + 1);
  });
  // A cancelled scatter child stops where it stands, and so do the items it runs inside embeds and scatters.
  const cancelled = ofType(events, 'item.cancelled').map((e) => e.item);
  const underCancelled = (instance: string): boolean => {
    const path = instance.split('#')[0] as string;
    return cancelled.some((c) => path.startsWith(`${c}/`) || path.startsWith(`${c}.`));
  };
  for (const instance of seen) {
    const n = endings.get(instance) ?? 0;
    if (aborted || underCancelled(instance))
      expect(n, `${instance} ended more than once`).toBeLessThanOrEqual(1);
    else expect(n, `${instance} must end exactly once`).toBe(1);
  }
  for (const execution of walk.finished) {
    const m = execution.started.size;
    const ids = [...execution.started].map((instance) => instance.split('#')[0]).sort();
    const parentId = execution.parent.split('#')[0] as string;
    expect(ids).toEqual(Array.from({ length: m }, (_, i) => `${parentId}.${i}`).sort());
    expect([...execution.ended].sort()).toEqual([...execution.started].sort());
    const length = tops.has(execution.parent) ? listLength?.(execution.parent, execution.key) : undefined;
    if (length !== undefined) expect(m, `children of ${execution.parent} at ${execution.key}`).toBe(length);
  }

  expectBudgets(world, result, events, walk);
  expectWithinBounds(world, result, events, walk, tops);
  expectPhases(world, events, result.status === 'aborted');
  expectStats(world, result, events, walk, tops);
}

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
  if (result.status !== 'aborted')
    expect(result.status).toBe(completed && result.phaseErrors.length === 0 ? 'completed' : 'failed');
}

/** seq 0, 1, 2, … with non-decreasing time, run.start first and run.end last. */
function expectEventOrder(result: RunResult, events: readonly RunEvent[]): void {
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => (events[0]?.seq ?? 0) + i));
  events.forEach((e, i) => {
    if (i > 0) expect(e.time).toBeGreaterThanOrEqual((events[i - 1] as RunEvent).time);
  });
  expect(events[0]?.type).toBe('run.start');
  expect(events.at(-1)).toMatchObject({ type: 'run.end', status: result.status });
}

/**
 * Replays each instance's budget counters: a retry spends one (`attempt` = count + 1 ≤ max of the document the
 * event is in) and then applies its route's resets; an exhaustion happens only at max. Top-level replays must
 * equal the final states; spends stay within the static `spends` bound.
 */
function expectBudgets(world: World, result: RunResult, events: readonly RunEvent[], walk: Walk): void {
  const counters = new Map<string, Record<string, number>>();
  const counter = (instance: string) => {
    let known = counters.get(instance);
    if (known === undefined) {
      known = {};
      counters.set(instance, known);
    }
    return known;
  };
  const spends = new Map<string, number>();
  const pendingResets = new Map<string, readonly string[]>();
  events.forEach((e, i) => {
    const instance = walk.instances[i] as string;
    if (e.type === 'route' && e.kind === 'retry') {
      const route = world.compiled.get(e.dag)?.byKey.get(e.from)?.routes.get(e.output)?.route;
      expect(route?.kind).toBe('retry');
      pendingResets.set(instance, route?.resets ?? []);
    } else if (e.type === 'retry.scheduled') {
      const max = world.compiled.get(e.dag)?.budgets.find((b) => b.name === e.budget)?.max ?? -1;
      const c = counter(instance);
      expect(e.attempt).toBe((c[e.budget] ?? 0) + 1);
      expect(e.attempt, `${instance} spends ${e.budget}`).toBeLessThanOrEqual(max);
      c[e.budget] = e.attempt;
      for (const reset of pendingResets.get(instance) ?? []) c[reset] = 0;
      const key = `${instance}|${e.dag}|${e.budget}`;
      spends.set(key, (spends.get(key) ?? 0) + 1);
      expect(spends.get(key)).toBeLessThanOrEqual(world.bounds.get(e.dag)?.spends.get(e.budget) ?? -1);
    } else if (e.type === 'budget.exhausted') {
      const max = world.compiled.get(e.dag)?.budgets.find((b) => b.name === e.budget)?.max ?? -1;
      // Spent: exactly at max; the run deadline: with budget left.
      if (e.why === 'spent') expect(counter(instance)[e.budget] ?? 0).toBe(max);
      else expect(counter(instance)[e.budget] ?? 0).toBeLessThan(max);
    }
  });
  const max = new Map(world.root.budgets.map((b) => [b.name, b.max]));
  for (const { state } of [...result.items, ...result.failures, ...result.aborted]) {
    const replayed = counter(state.id);
    for (const [budget, limit] of max) {
      const spent = state.budgets[budget] ?? 0;
      expect(spent).toBeLessThanOrEqual(limit);
      expect(spent).toBe(replayed[budget] ?? 0);
    }
  }
}

/**
 * placement.start per instance and placement within the bound of the document the event is in (a node body
 * runs once per child); top-level visits in the final state equal the starts.
 */
function expectWithinBounds(
  world: World,
  result: RunResult,
  events: readonly RunEvent[],
  walk: Walk,
  tops: ReadonlySet<string>,
): void {
  const starts = new Map<string, number>();
  events.forEach((e, i) => {
    if (e.type !== 'placement.start') return;
    const instance = walk.instances[i] as string;
    const key = `${instance}|${e.dag}|${e.placement}`;
    const n = (starts.get(key) ?? 0) + 1;
    starts.set(key, n);
    const bounds = world.bounds.get(e.dag);
    const bound = walk.bodyChild.has(instance)
      ? bounds?.children.get(e.placement)
      : bounds?.perPlacement.get(e.placement);
    expect(n, `${instance} runs ${e.dag} ${e.placement}`).toBeLessThanOrEqual(bound ?? -1);
  });
  const root = world.root.dag.id;
  for (const { state } of [...result.items, ...result.failures, ...result.aborted]) {
    expect(tops.has(state.id)).toBe(true);
    for (const [placement, visits] of Object.entries(state.visits)) {
      expect(visits).toBeLessThanOrEqual(world.bounds.get(root)?.perPlacement.get(placement) ?? -1);
      const isTerminal = result.items.some((i) => i.id === state.id && i.terminal === placement);
      expect(visits).toBe(isTerminal ? 1 : (starts.get(`${state.id}|${root}|${placement}`) ?? 0));
    }
  }
}

/**
 * Each phase of the root starts at most once; the first of each kind always, each next one iff the previous
 * answered. An aborted run calls no more nodes, so its pre phases may stop short; post phases always run.
 */
function expectPhases(world: World, events: readonly RunEvent[], aborted: boolean): void {
  const phaseEvents = events.filter(
    (e) => (e.type === 'placement.start' || e.type === 'placement.end') && e.item === 'run',
  ) as Extract<RunEvent, { type: 'placement.start' | 'placement.end' }>[];
  for (const [phases, mayStopShort] of [
    [world.root.pre, aborted],
    [world.root.post, false],
  ] as const) {
    phases.forEach((phase, k) => {
      const started = phaseEvents.filter((e) => e.type === 'placement.start' && e.placement === phase.key);
      expect(started.length).toBeLessThanOrEqual(1);
      const previous = phases[k - 1];
      const expected =
        previous === undefined
          ? 1
          : phaseEvents.some(
                (e) => e.type === 'placement.end' && e.placement === previous.key && e.output === 'done',
              )
            ? 1
            : 0;
      if (mayStopShort) expect(started.length, `phase ${phase.key} runs`).toBeLessThanOrEqual(expected);
      else expect(started.length, `phase ${phase.key} runs`).toBe(expected);
    });
  }
}

/** Stats agree with the events: node executions (tasks, node bodies, phases), retries, salvages, endings. */
function expectStats(
  world: World,
  result: RunResult,
  events: readonly RunEvent[],
  walk: Walk,
  tops: ReadonlySet<string>,
): void {
  let executions = 0;
  events.forEach((e, i) => {
    if (e.type !== 'placement.start') return;
    const kind = world.compiled.get(e.dag)?.byKey.get(e.placement)?.placement.kind;
    if (kind === 'task' || kind === 'phase' || walk.bodyChild.has(walk.instances[i] as string)) executions++;
  });
  // A stopped run calls no more nodes: an item whose batch was still gathering has a start but no execution.
  const stopped =
    result.status === 'aborted' || result.failures.some((f) => f.error.code === 'E_RUN_DEADLINE');
  if (stopped) expect(result.stats.executions).toBeLessThanOrEqual(executions);
  else expect(result.stats.executions).toBe(executions);
  expect(result.stats.retries).toBe(ofType(events, 'retry.scheduled').length);
  expect(result.stats.salvages).toBe(ofType(events, 'salvage').length);
  expect(result.stats.exhausted).toBe(ofType(events, 'budget.exhausted').length);
  const ends = ofType(events, 'item.end').filter((e) => tops.has(e.item));
  expect(Object.fromEntries(count(ends, (e) => e.terminal))).toEqual(result.stats.byTerminal);
  expect(ends.map((e) => [e.item, e.terminal]).sort()).toEqual(
    result.items.map((i) => [i.id, i.terminal]).sort(),
  );
  const failed = ofType(events, 'item.failed').filter((e) => tops.has(e.item));
  expect(failed.map((e) => [e.item, e.placement]).sort()).toEqual(
    result.failures.map((f) => [f.id, f.placement]).sort(),
  );
}
