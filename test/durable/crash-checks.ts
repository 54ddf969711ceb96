/**
 * The crash test's checks on one finished run, from its store, the final `--json` summary and the
 * side-effect log the fixture nodes wrote: each returns the violations it found (empty when all holds) and
 * what it counted, so that a failure names every broken promise at once.
 */
import type { RunStore } from '../../src/store/types.ts';
import type { LogLine } from './crash-harness.ts';

/** An input item of the crash DAG (see test/fixtures/durable/nodes.ts for what each field does). */
export interface CrashItem {
  readonly name: string;
  readonly parts: readonly { readonly fails: number }[];
  readonly fetchFails: number;
  readonly fetchRetryAfterMs: number;
  readonly reviewFails: number;
  readonly reviewRetryAfterMs: number;
  readonly fatal?: boolean;
}

/** The budgets of the crash documents and their maxima. */
export const BUDGET_MAX: Readonly<Record<string, number>> & {
  readonly fetch: number;
  readonly part: number;
  readonly review: number;
} = {
  fetch: 3,
  part: 2,
  review: 2,
};

/** The back-off crash.policy.json asks for before the retry that makes a budget's count `attempt`. */
export function backoffMs(attempt: number): number {
  return Math.min(20 * 2 ** (attempt - 1), 80);
}

/** Where an item must end, whatever crashed: its nodes fail deterministically. */
export function expectedEnding(item: CrashItem): string {
  if (item.fatal === true) return 'failure';
  if (item.fetchFails > BUDGET_MAX.fetch) return 'gave_up';
  if (item.parts.every((p) => p.fails > BUDGET_MAX.part)) return 'gave_up';
  if (item.reviewFails > BUDGET_MAX.review) return 'gave_up';
  return 'done';
}

/** The final `--json` summary, as far as the checks read it. */
export interface FinalSummary {
  readonly runId: string;
  readonly status: string;
  readonly items: readonly { readonly id: string; readonly terminal: string }[];
  readonly failures: readonly { readonly id: string }[];
  readonly aborted: readonly unknown[];
}

/** Counts the checks report. */
export interface CheckCounts {
  /** Side effects of committed steps, each once. */
  committedSteps: number;
  /** Steps whose function ran again because a kill came after it returned and before its value was committed. */
  windowRepeats: number;
  /** Waits checked, and those a restart fell into. */
  waits: number;
  waitsAcrossRestart: number;
  /** Ending events the recorded stream holds more than once (a kill between two commits). */
  repeatedEndEvents: number;
}

/** Every input item ended exactly once, where its data says, in the store and in the final summary. */
export async function checkEndings(
  store: RunStore,
  runId: string,
  input: readonly CrashItem[],
  summary: FinalSummary,
  counts: CheckCounts,
): Promise<string[]> {
  const problems: string[] = [];
  const ids = input.map((_, i) => String(i + 1));
  const seen = [...summary.items.map((i) => i.id), ...summary.failures.map((f) => f.id)];
  for (const id of ids) {
    const times = seen.filter((s) => s === id).length;
    if (times !== 1) problems.push(`item ${id} is in the final summary ${times} times`);
  }
  if (summary.aborted.length > 0)
    problems.push(`${summary.aborted.length} items aborted in the final summary`);
  const endEvents = new Map<string, number>();
  for (const event of await store.readEvents(runId)) {
    const body = event.body as { item?: string };
    if ((event.type === 'item.end' || event.type === 'item.failed') && body.item !== undefined) {
      endEvents.set(body.item, (endEvents.get(body.item) ?? 0) + 1);
    }
  }
  for (const [index, item] of input.entries()) {
    const id = String(index + 1);
    const checkpoint = await store.getCheckpoint(runId, id);
    const ending = checkpoint?.ending;
    const where =
      ending === undefined ? 'nowhere' : ending.kind === 'terminal' ? ending.placement : ending.kind;
    const expected = expectedEnding(item);
    if (checkpoint?.status !== 'ended' || where !== expected) {
      problems.push(
        `item ${id} (${item.name}) should have ended at ${expected}; its checkpoint says ${checkpoint?.status ?? 'none'} at ${where}`,
      );
    }
    const inSummary =
      summary.items.find((i) => i.id === id)?.terminal ??
      (summary.failures.some((f) => f.id === id) ? 'failure' : 'none');
    if (inSummary !== expected)
      problems.push(`item ${id} ended at ${inSummary} in the final summary, not ${expected}`);
    // The recorded stream may repeat an ending when a kill came between the event's commit and the
    // item's; the checkpoint and the summary above are where an item ends exactly once.
    const events = endEvents.get(id) ?? 0;
    if (events === 0) problems.push(`item ${id} has no item.end/item.failed event in the store`);
    counts.repeatedEndEvents += events - 1;
  }
  return problems;
}

/**
 * No committed step ran twice: for each step value in the store's journal, the log holds the side effect
 * whose token the value carries, and any other side effect of that key came before it, from a process that
 * was killed (the window between a step's function returning and its value being committed).
 */
export async function checkSteps(
  store: RunStore,
  runId: string,
  log: readonly LogLine[],
  killed: ReadonlySet<number>,
  counts: CheckCounts,
): Promise<string[]> {
  const problems: string[] = [];
  const journal = await store.listJournal(runId);
  const committed = new Map<string, string>();
  for (const entry of journal) {
    const value = (JSON.parse(entry.value) as { value?: { key?: string; token?: string } }).value;
    const key = `${runId}/${entry.itemPath}/${entry.stepKey}`;
    if (value?.key !== key) problems.push(`journal entry ${key} holds the value of ${String(value?.key)}`);
    committed.set(key, value?.token ?? '');
  }
  const effects = new Map<string, LogLine[]>();
  for (const line of log) {
    if (line.k !== 'effect' || line.key === undefined) continue;
    effects.set(line.key, [...(effects.get(line.key) ?? []), line]);
  }
  for (const [key, lines] of effects) {
    const token = committed.get(key);
    if (token === undefined) {
      problems.push(`step ${key} ran (${lines.length}x) but its value was never committed`);
      continue;
    }
    const at = lines.findIndex((l) => l.token === token);
    if (at === -1) {
      problems.push(`step ${key}: the committed value is from no side effect in the log`);
      continue;
    }
    counts.committedSteps += 1;
    if (at !== lines.length - 1) {
      problems.push(`step ${key} ran ${lines.length - 1 - at} more time(s) after its value was committed`);
    }
    for (const earlier of lines.slice(0, at)) {
      if (!killed.has(earlier.pid)) {
        problems.push(`step ${key} ran in process ${earlier.pid}, which was not killed, and again later`);
      } else counts.windowRepeats += 1;
    }
  }
  for (const key of committed.keys()) {
    if (!effects.has(key)) problems.push(`step ${key} is committed but its side effect is not in the log`);
  }
  return problems;
}

/** No budget was spent past its maximum: in any checkpoint, any retry event, or any execution. */
export async function checkBudgets(
  store: RunStore,
  runId: string,
  log: readonly LogLine[],
): Promise<string[]> {
  const problems: string[] = [];
  for (const checkpoint of await store.listCheckpoints(runId)) {
    for (const [name, spent] of Object.entries(checkpoint.state.budgets)) {
      const max = BUDGET_MAX[name];
      if (max === undefined || spent > max) {
        problems.push(`item ${checkpoint.itemId} spent ${spent} of budget ${name} (max ${String(max)})`);
      }
    }
  }
  for (const event of await store.readEvents(runId)) {
    if (event.type !== 'retry.scheduled') continue;
    const body = event.body as { item: string; budget: string; attempt: number };
    if (body.attempt > (BUDGET_MAX[body.budget] ?? 0)) {
      problems.push(`retry ${body.attempt} of budget ${body.budget} scheduled for item ${body.item}`);
    }
  }
  for (const line of log) {
    if (line.k !== 'start' || line.attempt === undefined) continue;
    const budget = line.placement === 'fetch' ? 'fetch' : line.placement === 'work' ? 'part' : 'review';
    if (line.attempt > (BUDGET_MAX[budget] ?? 0)) {
      problems.push(`item ${String(line.item)} ran ${String(line.placement)} after ${line.attempt} retries`);
    }
  }
  return problems;
}

/**
 * Every wait lasted at least what the policy or the Retry-After asked, across restarts: for each retry the
 * store recorded, its delay is at least the policy's back-off (or the node's Retry-After), and the next
 * execution started at least that long after the execution that failed ended (wall times from the log, so a
 * wait a crash fell into is measured across the processes).
 */
export async function checkWaits(
  store: RunStore,
  runId: string,
  log: readonly LogLine[],
  counts: CheckCounts,
): Promise<string[]> {
  const problems: string[] = [];
  for (const event of await store.readEvents(runId)) {
    if (event.type !== 'retry.scheduled') continue;
    const e = event.body as {
      item: string;
      from: string;
      to: string;
      attempt: number;
      delayMs: number;
      delaySource: 'backoff' | 'retry-after';
    };
    const name = `retry ${e.attempt} of item ${e.item} at ${e.from}`;
    const failed = log.filter(
      (l) => l.k === 'end' && l.item === e.item && l.placement === e.from && l.attempt === e.attempt - 1,
    );
    const cause = failed.at(-1);
    const next = log.find(
      (l) => l.k === 'start' && l.item === e.item && l.placement === e.to && l.attempt === e.attempt,
    );
    if (cause === undefined || next === undefined) {
      problems.push(`${name}: no failed execution before it or no execution after it in the log`);
      continue;
    }
    const asked = e.delaySource === 'retry-after' ? (cause.retryAfterMs ?? 0) : backoffMs(e.attempt);
    if (e.delaySource === 'retry-after' && !(cause.retryAfterMs !== undefined && cause.retryAfterMs > 0)) {
      problems.push(`${name}: a Retry-After wait the node did not ask for`);
    }
    if (e.delayMs < asked)
      problems.push(`${name}: waits ${e.delayMs} ms, the ${e.delaySource} asked ${asked} ms`);
    const waited = next.at - cause.at;
    if (waited < e.delayMs) {
      problems.push(
        `${name}: the next execution started ${waited} ms after the failure, before its ${e.delayMs} ms wait ended` +
          (cause.pid === next.pid ? '' : ` (across a restart: process ${cause.pid}, then ${next.pid})`),
      );
    }
    counts.waits += 1;
    if (cause.pid !== next.pid) counts.waitsAcrossRestart += 1;
  }
  return problems;
}
