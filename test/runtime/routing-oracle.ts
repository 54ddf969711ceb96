/**
 * An oracle for routing, written from the document model and the policy alone (not from the compiled graph,
 * `decide` or `follow`): it replays a run's events item by item and reports, one line each, every route event
 * that no route of the document explains, every retry wait whose delay the policy does not allow, and every
 * exhaustion that does not happen exactly when its budget is spent (or, for `why: 'deadline'`, when the wait
 * would not end before the run deadline), and every error that leaves on another output than `retry` (when
 * retryable and routed) or `error`. Spent counts are replayed per item from `retry.scheduled` events,
 * `resets` included; an embed or scatter execution starts its child items afresh.
 */

import type { Dag, Placement, Route } from '../../src/document/model.ts';
import { timingFor } from '../../src/policy/resolve.ts';
import type { BackoffOptions, JitterMode, RuntimePolicy } from '../../src/policy/types.ts';
import type { RunEvent } from '../../src/runtime/events.ts';

/**
 * What a node's Retry-After hint means: a delay in ms (`ms` undefined for an unusable hint, which the engine
 * ignores), or the wall-clock instant an HTTP-date names (`at`, ms since the Unix epoch).
 */
export type HintRecord = { readonly ms: number | undefined } | { readonly at: number };

/** Hints by {@link hintKey}: written by the nodes of a run, read by the oracle. */
export type HintLog = Map<string, HintRecord>;

/** The key of the hint a node gave for one execution. */
export const hintKey = (dag: string, placement: string, item: string, visit: number): string =>
  `${dag}\u0000${placement}\u0000${item}\u0000${visit}`;

/** What the oracle needs besides the events. */
export interface OracleInput {
  /** The root document and every document the run may enter. */
  readonly documents: readonly Dag[];
  readonly policy: RuntimePolicy;
  /** The run deadline in ms from the run's start; undefined for none. */
  readonly runDeadlineMs: number | undefined;
  /**
   * The hints the nodes gave, one per item path, placement and visit (the same every time that execution
   * runs); a retry with no entry here must take the back-off.
   */
  readonly hints?: ReadonlyMap<string, HintRecord>;
  /** The wall-clock reading at clock time 0, for HTTP-date hints; default 0. */
  readonly wallStart?: number;
}

/** The smallest and largest delay the back-off may choose for `attempt` (1 = the first retry). */
export function backoffBounds(
  attempt: number,
  backoff: BackoffOptions,
  jitter: JitterMode,
  previousMs: number | undefined,
): { readonly low: number; readonly high: number } {
  const cap = Math.max(0, Math.floor(backoff.capMs));
  const cut = (ms: number) => (Number.isNaN(ms) || ms <= 0 ? 0 : Math.min(cap, Math.floor(ms)));
  if (backoff.strategy === 'decorrelated') {
    const factor = backoff.factor > 1 ? backoff.factor : 3;
    const upper = Math.max(backoff.baseMs, (previousMs ?? backoff.baseMs) * factor);
    return { low: cut(backoff.baseMs), high: cut(upper) };
  }
  const full =
    backoff.strategy === 'constant'
      ? Math.min(backoff.capMs, backoff.baseMs)
      : Math.min(backoff.capMs, backoff.baseMs * backoff.factor ** (attempt - 1));
  if (jitter === 'none') return { low: cut(full), high: cut(full) };
  if (jitter === 'full') return { low: 0, high: cut(full) };
  return { low: cut(full / 2), high: cut(full) };
}

/** What the oracle waits to see next for one item. */
type Expect =
  | { readonly type: 'route'; readonly dag: string; readonly from: string; readonly output: string }
  | { readonly type: 'retry.scheduled'; readonly dag: string; readonly from: string; readonly route: Route }
  | { readonly type: 'exhausted-route'; readonly dag: string; readonly from: string; readonly route: Route }
  | { readonly type: 'salvage'; readonly dag: string; readonly from: string; readonly to: string };

/** The oracle's view of one item path (reset when an embed or scatter execution starts it again). */
interface ItemView {
  readonly spent: Map<string, number>;
  readonly previousDelay: Map<string, number>;
  /** The execution under way: its placement and visit. */
  current: { readonly dag: string; readonly placement: string; readonly visit: number } | undefined;
  /** The output of the last placement.end, until a route consumes it. */
  ended:
    | { readonly dag: string; readonly placement: string; readonly output: string; readonly visit: number }
    | undefined;
  expect: Expect | undefined;
  /** Where the last route took the item, and the visit of the execution it left. */
  lastTo: string | undefined;
  routedVisit: number | undefined;
}

const newView = (): ItemView => ({
  spent: new Map(),
  previousDelay: new Map(),
  current: undefined,
  ended: undefined,
  expect: undefined,
  lastTo: undefined,
  routedVisit: undefined,
});

/** The documents by IRI, each with its placements by key and budgets by name. */
function indexDocuments(documents: readonly Dag[]) {
  const byId = new Map<string, { placements: Map<string, Placement>; budgets: Map<string, number> }>();
  for (const d of documents) {
    byId.set(d.id, {
      placements: new Map(d.placements.map((p) => [p.key, p])),
      budgets: new Map(d.budgets.map((b) => [b.name, b.max])),
    });
  }
  return byId;
}

/** The parent `P` of a scatter child path `P.n`; undefined for other paths. */
function scatterParent(item: string): string | undefined {
  const match = /^(.*)\.(\d+)$/.exec(item);
  return match?.[1];
}

/**
 * Replays `events` against the documents and policy and returns one line per violation (none for a run
 * whose routing is right).
 * @example
 * expect(routingViolations({ documents: [dag], policy, runDeadlineMs: undefined }, events)).toEqual([]);
 */
export function routingViolations(input: OracleInput, events: readonly RunEvent[]): string[] {
  const docs = indexDocuments(input.documents);
  const problems: string[] = [];
  const views = new Map<string, ItemView>();
  const openScatter = new Map<string, { readonly dag: string; readonly key: string }>();
  let deadlineAt = Number.POSITIVE_INFINITY;
  const viewOf = (item: string): ItemView => {
    let view = views.get(item);
    if (view === undefined) {
      view = newView();
      views.set(item, view);
    }
    return view;
  };
  const restart = (prefix: string, exact: boolean): void => {
    for (const path of [...views.keys()]) {
      if ((exact && path === prefix) || path.startsWith(exact ? `${prefix}/` : prefix)) views.delete(path);
      else if (exact && path.startsWith(`${prefix}.`)) views.delete(path);
    }
  };
  const placementOf = (dag: string, key: string) => docs.get(dag)?.placements.get(key);
  const routeOf = (dag: string, from: string, output: string): Route | undefined =>
    placementOf(dag, from)?.routes.find((r) => r.output === output);
  const timingOf = (dag: string, key: string) => {
    const p = placementOf(dag, key);
    const node = p !== undefined && 'node' in p ? p.node : undefined;
    return timingFor(input.policy, dag, key, node);
  };
  const isBodyEvent = (e: { item: string; dag: string; placement: string }): boolean => {
    const parent = scatterParent(e.item);
    if (parent === undefined) return false;
    const open = openScatter.get(parent);
    const p = placementOf(e.dag, e.placement);
    return open?.dag === e.dag && open.key === e.placement && p?.kind === 'scatter' && p.node !== undefined;
  };
  // The hint of the execution a child item failed at: an embed whose child failed with an error takes that
  // error as its own outcome, Retry-After included.
  const failureHints = new Map<string, HintRecord | undefined>();
  const hintOf = (dag: string, from: string, item: string, visit: number): HintRecord | undefined =>
    placementOf(dag, from)?.kind === 'embed'
      ? failureHints.get(`${item}/${from}`)
      : input.hints?.get(hintKey(dag, from, item, visit));
  /** The delay a retry from this execution must take: the honoured hint, or undefined for the back-off. */
  const hintedDelay = (
    dag: string,
    from: string,
    item: string,
    visit: number,
    time: number,
  ): number | undefined => {
    const hint = hintOf(dag, from, item, visit);
    const retryAfter = timingOf(dag, from).retryAfter;
    if (hint === undefined || !retryAfter.honour) return undefined;
    // The engine decides at the time of the retry event, and reads an HTTP-date against the wall clock then.
    const ms = 'at' in hint ? Math.max(0, hint.at - ((input.wallStart ?? 0) + time)) : hint.ms;
    if (ms === undefined) return undefined;
    return Math.min(Math.floor(ms), Math.max(0, Math.floor(retryAfter.capMs)));
  };
  const report = (e: RunEvent, message: string) => problems.push(`#${e.seq} ${e.type}: ${message}`);

  for (const e of events) {
    if (e.type === 'run.start') {
      if (input.runDeadlineMs !== undefined) deadlineAt = e.time + input.runDeadlineMs;
      continue;
    }
    if (!('item' in e) || e.item === 'run' || e.type === 'warning') continue;
    const view = viewOf(e.item);
    const expected = view.expect;
    // After a placement.end the route comes next, or the exhaustion that precedes an exhaustion route.
    const allowed =
      expected === undefined ||
      e.type === expected.type.replace('exhausted-route', 'route') ||
      (expected.type === 'route' && e.type === 'budget.exhausted');
    if (!allowed) {
      report(e, `item ${e.item} should have had a ${expected.type} after leaving '${expected.from}' first`);
      view.expect = undefined;
    }
    switch (e.type) {
      case 'placement.start': {
        if (isBodyEvent(e)) break;
        view.current = { dag: e.dag, placement: e.placement, visit: e.visit };
        if (view.ended !== undefined)
          report(e, `item ${e.item} left '${view.ended.placement}' without a route`);
        view.ended = undefined;
        const p = placementOf(e.dag, e.placement);
        if (p === undefined) report(e, `'${e.placement}' is not a placement of ${e.dag}`);
        if (p?.kind === 'embed') restart(`${e.item}/${e.placement}`, true);
        if (p?.kind === 'scatter') {
          restart(`${e.item}.`, false);
          openScatter.set(e.item, { dag: e.dag, key: e.placement });
        }
        break;
      }
      case 'placement.end': {
        if (isBodyEvent(e)) break;
        if (placementOf(e.dag, e.placement)?.kind === 'scatter') openScatter.delete(e.item);
        const current = view.current;
        if (current?.dag !== e.dag || current.placement !== e.placement) {
          report(e, `item ${e.item} ended '${e.placement}' without starting it`);
        }
        if (e.error !== undefined) {
          // A thrown error takes `retry` when retryable and routed, else `error`.
          const output =
            e.error.retryable && routeOf(e.dag, e.placement, 'retry') !== undefined ? 'retry' : 'error';
          if (e.output !== output)
            report(
              e,
              `item ${e.item} left '${e.placement}' on '${e.output}' after an error, not on '${output}'`,
            );
        }
        view.ended = { dag: e.dag, placement: e.placement, output: e.output, visit: current?.visit ?? 0 };
        view.current = undefined;
        if (routeOf(e.dag, e.placement, e.output) !== undefined)
          view.expect = { type: 'route', dag: e.dag, from: e.placement, output: e.output };
        break;
      }
      case 'route': {
        const ended = view.ended;
        if (
          ended === undefined ||
          ended.dag !== e.dag ||
          ended.placement !== e.from ||
          ended.output !== e.output
        ) {
          report(
            e,
            `item ${e.item} took '${e.from}' → '${e.to}' on '${e.output}', which it did not leave on`,
          );
        }
        const route = routeOf(e.dag, e.from, e.output);
        if (route === undefined) {
          report(e, `${e.dag} has no route from '${e.from}' on '${e.output}'`);
          view.expect = undefined;
          break;
        }
        if (e.kind === 'exhausted') {
          if (expected?.type !== 'exhausted-route')
            report(e, `item ${e.item} took the exhaustion route of '${e.from}' without budget.exhausted`);
          if (route.kind !== 'retry' || route.exhausted !== e.to)
            report(e, `'${e.from}' on '${e.output}' is not exhausted to '${e.to}' in the document`);
          view.expect = undefined;
          const target = placementOf(e.dag, e.to);
          if (target !== undefined && target.kind !== 'terminal')
            view.expect = { type: 'salvage', dag: e.dag, from: e.from, to: e.to };
        } else {
          if (expected?.type === 'exhausted-route')
            report(e, `item ${e.item} took a '${e.kind}' route after its budget was exhausted`);
          if (route.kind !== e.kind || route.to !== e.to)
            report(
              e,
              `${e.dag} routes '${e.from}' on '${e.output}' as ${route.kind} to '${route.to}', not ${e.kind} to '${e.to}'`,
            );
          view.expect =
            e.kind === 'retry'
              ? { type: 'retry.scheduled', dag: e.dag, from: e.from, route }
              : e.kind === 'salvage'
                ? { type: 'salvage', dag: e.dag, from: e.from, to: e.to }
                : undefined;
        }
        view.routedVisit = ended?.visit;
        view.ended = undefined;
        view.lastTo = e.to;
        break;
      }
      case 'retry.scheduled': {
        if (expected?.type !== 'retry.scheduled' || expected.from !== e.from) {
          report(e, `item ${e.item} scheduled a retry from '${e.from}' without taking a retry route`);
        } else if (expected.route.to !== e.to || expected.route.budget !== e.budget) {
          report(
            e,
            `the retry from '${e.from}' goes to '${e.to}' spending '${e.budget}', the document says '${expected.route.to}' spending '${expected.route.budget}'`,
          );
        }
        view.expect = undefined;
        const max = docs.get(e.dag)?.budgets.get(e.budget);
        const spent = view.spent.get(e.budget) ?? 0;
        if (max === undefined) report(e, `budget '${e.budget}' is not declared in ${e.dag}`);
        else if (spent >= max)
          report(e, `item ${e.item} retried with budget '${e.budget}' already spent (${spent} of ${max})`);
        if (e.attempt !== spent + 1) report(e, `attempt ${e.attempt} after ${spent} spends of '${e.budget}'`);
        view.spent.set(e.budget, spent + 1);
        for (const reset of expected?.type === 'retry.scheduled' ? (expected.route.resets ?? []) : [])
          view.spent.set(reset, 0);
        const hinted = hintedDelay(e.dag, e.from, e.item, view.routedVisit ?? 0, e.time);
        if (hinted !== undefined) {
          if (e.delaySource !== 'retry-after' || e.delayMs !== hinted)
            report(
              e,
              `the honoured Retry-After asks ${hinted} ms, the wait is ${e.delayMs} ms from ${e.delaySource}`,
            );
        } else {
          const timing = timingOf(e.dag, e.from);
          const { low, high } = backoffBounds(
            spent + 1,
            timing.backoff,
            timing.jitter,
            view.previousDelay.get(e.budget),
          );
          if (e.delaySource !== 'backoff' || e.delayMs < low || e.delayMs > high)
            report(
              e,
              `back-off for attempt ${spent + 1} lies in [${low}, ${high}] ms, the wait is ${e.delayMs} ms from ${e.delaySource}`,
            );
        }
        view.previousDelay.set(e.budget, e.delayMs);
        if (e.time + e.delayMs >= deadlineAt)
          report(
            e,
            `the wait of ${e.delayMs} ms from ${e.time} does not end before the run deadline ${deadlineAt}`,
          );
        break;
      }
      case 'budget.exhausted': {
        const ended = view.ended;
        const route = ended === undefined ? undefined : routeOf(e.dag, e.from, ended.output);
        if (
          ended?.placement !== e.from ||
          route?.kind !== 'retry' ||
          route.budget !== e.budget ||
          route.exhausted !== e.to
        ) {
          report(
            e,
            `item ${e.item} has no retry route from '${e.from}' spending '${e.budget}' exhausted to '${e.to}'`,
          );
        }
        view.expect =
          route === undefined ? undefined : { type: 'exhausted-route', dag: e.dag, from: e.from, route };
        const max = docs.get(e.dag)?.budgets.get(e.budget) ?? 0;
        const spent = view.spent.get(e.budget) ?? 0;
        if (e.why === 'spent') {
          if (spent < max)
            report(e, `item ${e.item} exhausted '${e.budget}' with budget left (${spent} of ${max})`);
          break;
        }
        if (spent >= max)
          report(e, `item ${e.item} exhausted '${e.budget}' for the deadline though it was spent`);
        const hinted =
          ended === undefined ? undefined : hintedDelay(e.dag, e.from, e.item, ended.visit, e.time);
        const timing = timingOf(e.dag, e.from);
        const longest =
          hinted ??
          backoffBounds(spent + 1, timing.backoff, timing.jitter, view.previousDelay.get(e.budget)).high;
        if (e.time + longest < deadlineAt)
          report(
            e,
            `deadline exhaustion at ${e.time}, but a wait of at most ${longest} ms ends before the run deadline ${deadlineAt}`,
          );
        break;
      }
      case 'salvage': {
        if (expected?.type !== 'salvage' || expected.from !== e.from || expected.to !== e.to)
          report(
            e,
            `item ${e.item} salvaged '${e.from}' → '${e.to}' without a salvage or exhaustion route there`,
          );
        view.expect = undefined;
        break;
      }
      case 'item.end': {
        if (view.lastTo !== undefined && view.lastTo !== e.terminal)
          report(e, `item ${e.item} ended at '${e.terminal}', its last route went to '${view.lastTo}'`);
        if (placementOf(e.dag, e.terminal)?.kind !== 'terminal')
          report(e, `'${e.terminal}' is not a terminal`);
        break;
      }
      case 'item.failed': {
        const ended = view.ended;
        failureHints.set(e.item, ended && hintOf(ended.dag, ended.placement, e.item, ended.visit));
        if (ended !== undefined && routeOf(ended.dag, ended.placement, ended.output) !== undefined)
          report(e, `item ${e.item} failed though '${ended.placement}' routes its output '${ended.output}'`);
        view.ended = undefined;
        view.expect = undefined;
        break;
      }
      default:
        break;
    }
  }
  for (const [item, view] of views) {
    if (view.expect !== undefined)
      problems.push(
        `end: item ${item} never had the ${view.expect.type} expected after '${view.expect.from}'`,
      );
  }
  return problems;
}
