/**
 * What the run page says of each item: how it ended (completed, failed, aborted, cancelled) rather than that
 * it ended, that it waits at a gate (its checkpoint says it is at its placement: the run's events say it
 * waits there), and, for an item that had not ended when its run stopped (aborted, or failed around it), that
 * it was stopped there instead of a wait that will never end. A run still marked running whose lease expired
 * has no process moving it on: its items are stalled until `switchyard resume`.
 */
import type { ItemView, RunView } from '../cli/runs/views.ts';
import type { GateWait } from '../gates/gate-waits.ts';
import type { GateWhy } from '../gates/types.ts';
import type { RunEvent } from '../runtime/events.ts';
import type { TimelineEntry } from './timeline.ts';

/** Where an item stands, as its badge on the page says. */
export type ItemState =
  | 'active'
  | 'waiting'
  | 'completed'
  | 'failed'
  | 'aborted'
  | 'cancelled'
  | 'stopped'
  | 'stalled'
  | 'ended';

/**
 * A wait as the page shows it: until when (ISO 8601; absent for a gate's pace or concurrency, which end
 * when the gate lets the item through) and why: `retry-after`, `backoff`, or `gate <key>` with the gate's
 * `why`.
 */
export interface ShownWait {
  readonly until?: string;
  readonly reason: string;
  readonly gate?: { readonly name: string; readonly key: string; readonly why: GateWhy };
}

/** An item with what the page says of it; `wait` is kept only while the item really waits. */
export type ShownItem = Omit<ItemView, 'wait'> & {
  readonly wait?: ShownWait;
  readonly state: ItemState;
  /** For an item its run left where it was: what it was doing then. */
  readonly stoppedWhile?: string;
};

/** Whether no process is moving a run on: marked running, but its lease has expired. */
export function isStalled(run: RunView): boolean {
  return run.status === 'running' && run.lease !== undefined && !run.lease.live;
}

function endedState(item: ItemView): ItemState {
  const ending = item.ending;
  // A checkpoint that says it ended without saying how: the page does not guess.
  if (ending === undefined) return 'ended';
  if (ending.kind === 'terminal') return ending.outcome;
  if (ending.kind === 'failure') return 'failed';
  return ending.reason === 'cancelled' ? 'cancelled' : 'aborted';
}

/** The wait of an item waiting at a gate, as the page shows it. */
function gateWait(wait: GateWait): ShownWait {
  return {
    reason: `gate ${wait.key}`,
    ...(wait.untilMs === undefined ? {} : { until: new Date(wait.untilMs).toISOString() }),
    gate: { name: wait.gate, key: wait.key, why: wait.why },
  };
}

/** What an item its run left behind was doing: waiting, and why, or at its placement. */
function doing(item: Pick<ShownItem, 'wait' | 'position'>): string {
  return item.wait === undefined
    ? `at ${item.position.placement}`
    : `waiting (${item.wait.reason}) at ${item.position.placement}`;
}

/** The waits at gates a run's events leave its items in, and the visit each is part of. */
export interface ItemsAtGates {
  readonly waits: ReadonlyMap<string, GateWait>;
  readonly visits: ReadonlyMap<string, number>;
}

const NONE: ItemsAtGates = { waits: new Map(), visits: new Map() };

/**
 * An item waiting at a gate before its first checkpoint: a run writes an item's first checkpoint at its
 * first transition, so items queued at a gate from the start are known only by their events.
 */
function uncheckpointed(run: RunView, wait: GateWait, visit: number): ShownItem {
  return {
    id: wait.item,
    status: 'active',
    position: { dag: wait.dag, placement: wait.placement, visit, path: [] },
    retries: 0,
    waits: [],
    budgets: {},
    updatedAt: run.updatedAt,
    state: 'waiting',
    wait: gateWait(wait),
  };
}

/**
 * Each item of `run` with the state its badge shows; `gates` holds the waits at gates the run's events
 * leave its items in (items with no checkpoint yet come after the others, in the order they began to wait).
 * @example
 * shownItems(view, gatesShown(events, true, Date.now())).map((i) => i.state); // ['completed', 'waiting']
 */
export function shownItems(run: RunView, gates: ItemsAtGates = NONE): ShownItem[] {
  const left = run.status === 'aborted' ? 'aborted' : run.status === 'running' ? 'stalled' : 'stopped';
  const moving = run.status === 'running' && !isStalled(run);
  const known = new Set(run.items.map((item) => item.id));
  const unknown = [...gates.waits.values()].filter((w) => !known.has(w.item));
  const items: ShownItem[] = [
    ...run.items.map((item): ShownItem => {
      if (item.status === 'ended') return { ...item, state: endedState(item) };
      const atGate = gates.waits.get(item.id);
      return atGate === undefined || item.status !== 'active'
        ? { ...item, state: item.status }
        : { ...item, state: 'waiting', wait: gateWait(atGate) };
    }),
    ...unknown.map((w) => uncheckpointed(run, w, gates.visits.get(w.item) ?? 1)),
  ];
  if (moving) return items;
  return items.map((shown) => {
    if (shown.status === 'ended') return shown;
    const { wait: _wait, ...rest } = shown;
    return { ...rest, state: left, stoppedWhile: doing(shown) };
  });
}

/**
 * The last entry of the timeline of each item the run left behind when it stopped: `aborted` (or
 * `stopped`) at the run's end, with what the item was doing. Timed by the `run.end` event, else by the last
 * event of the run.
 */
export function stopEntries(
  run: RunView,
  items: readonly ShownItem[],
  events: readonly RunEvent[],
): Map<string, TimelineEntry> {
  const entries = new Map<string, TimelineEntry>();
  if (run.status === 'running') return entries;
  const start = events[0]?.time ?? 0;
  const end = events.findLast((e) => e.type === 'run.end') ?? events.at(-1);
  const atMs = Math.max(0, (end?.time ?? start) - start);
  const seq = (end?.seq ?? 0) + 1;
  const resumable = run.status === 'aborted' ? `; \`switchyard resume ${run.id}\` goes on from here` : '';
  for (const item of items) {
    if (item.stoppedWhile === undefined) continue;
    const what = run.status === 'aborted' ? 'the run was aborted' : `the run ended ${run.status}`;
    entries.set(item.id, {
      seq,
      atMs,
      kind: item.state === 'aborted' ? 'aborted' : 'warning',
      placement: item.position.placement,
      text: `${what} while the item was ${item.stoppedWhile}${resumable}`,
    });
  }
  return entries;
}
