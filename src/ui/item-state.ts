/**
 * What the run page says of each item: how it ended (completed, failed, aborted, cancelled) rather than that
 * it ended, that it waits at a gate (its checkpoint says it is at its placement: the run's events say it
 * waits there), and, for an item that had not ended when its run stopped (aborted, or failed around it), that
 * it was stopped there instead of a wait that will never end. A run still marked running whose lease expired
 * has no process moving it on: its items are stalled until `switchyard resume`.
 */
import type { GateWaitView } from '../cli/runs/gate-views.ts';
import type { ItemView, RunView } from '../cli/runs/views.ts';
import type { GateWhy } from '../gates/types.ts';
import type { RunEvent } from '../runtime/events.ts';
import type { GatePosition } from './gates-shown.ts';
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
function gateWait(wait: GateWaitView): ShownWait {
  return {
    reason: `gate ${wait.key}`,
    ...(wait.until === undefined ? {} : { until: wait.until }),
    gate: { name: wait.gate, key: wait.key, why: wait.why },
  };
}

/** What an item its run left behind was doing: waiting, and why, or at its placement. */
function doing(item: Pick<ShownItem, 'wait' | 'position'>): string {
  return item.wait === undefined
    ? `at ${item.position.placement}`
    : `waiting (${item.wait.reason}) at ${item.position.placement}`;
}

/**
 * An item waiting at a gate before its first checkpoint (see `gates-shown.ts`), where its events say it
 * stands.
 */
function uncheckpointed(run: RunView, at: GatePosition): ShownItem {
  const wait: GateWaitView = {
    gate: at.gate,
    key: at.key,
    why: at.why,
    ...(at.untilMs === undefined ? {} : { until: new Date(at.untilMs).toISOString() }),
  };
  return {
    id: at.item,
    status: 'active',
    position: { dag: at.dag, placement: at.placement, visit: at.visit, path: [] },
    retries: 0,
    waits: [],
    gate: wait,
    budgets: {},
    updatedAt: run.updatedAt,
    state: 'waiting',
    wait: gateWait(wait),
  };
}

/**
 * Each item of `run` with the state its badge shows: an item waiting at a gate (`runs show`'s
 * `item.gate`) is waiting, with the reason `gate <key>`; items waiting at a gate with no checkpoint yet
 * come after the others, placed by `positions` (from the run's events).
 * @example
 * shownItems(view, gatesOfRun(events).positions).map((i) => i.state); // ['completed', 'waiting']
 */
export function shownItems(
  run: RunView,
  positions: ReadonlyMap<string, GatePosition> = new Map(),
): ShownItem[] {
  const left = run.status === 'aborted' ? 'aborted' : run.status === 'running' ? 'stalled' : 'stopped';
  // A run waiting for answers holds no process, yet its parked items wait as they would in one.
  const moving = (run.status === 'running' && !isStalled(run)) || run.status === 'waiting';
  const known = new Set(run.items.map((item) => item.id));
  const items: ShownItem[] = run.items.map((item): ShownItem => {
    if (item.status === 'ended') return { ...item, state: endedState(item) };
    return item.gate === undefined || item.status !== 'active'
      ? { ...item, state: item.status }
      : { ...item, state: 'waiting', wait: gateWait(item.gate) };
  });
  for (const at of positions.values()) if (!known.has(at.item)) items.push(uncheckpointed(run, at));
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
  if (run.status === 'running' || run.status === 'waiting') return entries;
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
