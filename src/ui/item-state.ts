/**
 * What the run page says of each item: how it ended (completed, failed, aborted, cancelled) rather than that
 * it ended, and, for an item that had not ended when its run stopped (aborted, or failed around it), that it
 * was stopped there instead of a wait that will never end. A run still marked running whose lease expired has
 * no process moving it on: its items are stalled until `switchyard resume`.
 */
import type { ItemView, RunView } from '../cli/runs/views.ts';
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

/** An item with what the page says of it; `wait` is kept only while the item really waits. */
export type ShownItem = ItemView & {
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

/** What an item its run left behind was doing: waiting, and why, or at its placement. */
function doing(item: ItemView): string {
  return item.wait === undefined
    ? `at ${item.position.placement}`
    : `waiting (${item.wait.reason}) at ${item.position.placement}`;
}

/**
 * Each item of `run` with the state its badge shows.
 * @example
 * shownItems(view).map((i) => i.state); // ['completed', 'aborted']
 */
export function shownItems(run: RunView): ShownItem[] {
  const left = run.status === 'aborted' ? 'aborted' : run.status === 'running' ? 'stalled' : 'stopped';
  const moving = run.status === 'running' && !isStalled(run);
  return run.items.map((item) => {
    if (item.status === 'ended') return { ...item, state: endedState(item) };
    if (moving) return { ...item, state: item.status };
    const { wait: _wait, ...rest } = item;
    return { ...rest, state: left, stoppedWhile: doing(item) };
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
