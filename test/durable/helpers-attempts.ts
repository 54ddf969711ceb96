/**
 * Runs a durable run through crashes: each "process" gets its own clock (wall time carried over) and
 * dispatcher on the same store, runs or resumes the run, and is stopped at its crash point, either by an
 * abort from an event listener or by a store that freezes after some commits (the process died).
 */
import type { Dag } from '../../src/document/model.ts';
import type { VirtualClock } from '../../src/policy/virtual-clock.ts';
import type { Dispatcher } from '../../src/runtime/dispatcher.ts';
import { LEASE_TTL_MS } from '../../src/runtime/durable-run.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import type { RunResult } from '../../src/runtime/run.ts';
import type { RunStore } from '../../src/store/types.ts';
import { freezingStore, processClock } from './helpers.ts';
import type { Process } from './helpers-scenarios.ts';

/** Where a process stops: after `commits` commits (it dies), or by an abort at the `event`-th event. */
export type Crash =
  | { readonly kind: 'freeze'; readonly commits: number }
  | { readonly kind: 'abort'; readonly event: number }
  | { readonly kind: 'abortOn'; readonly when: (event: RunEvent) => boolean };

/** What a run through crashes left. */
export interface Attempts {
  /** The result of the process that finished the run. */
  readonly result: RunResult;
  /** How many processes it took (1 when the first crash point came after the end). */
  readonly processes: number;
  /** Idempotency keys of the steps committed when each process stopped, per process. */
  readonly committed: readonly ReadonlySet<string>[];
  /** The clock of each process. */
  readonly clocks: readonly VirtualClock[];
}

/** How the first process starts the run. */
export interface FirstRun {
  readonly dag: Dag;
  readonly items: readonly Record<string, unknown>[];
  readonly runId: string;
}

async function committedKeys(store: RunStore, runId: string): Promise<Set<string>> {
  const journal = await store.listJournal(runId);
  return new Set(journal.map((j) => `${runId}/${j.itemPath}/${j.stepKey}`));
}

/** When the processes run: the first one's wall time, and the time between one's stop and the next's start. */
export interface Timing {
  readonly wallStart?: number;
  readonly gapMs?: number;
}

/**
 * Runs `first` in process 1 and resumes it in processes 2, 3… (a new dispatcher each, from
 * `dispatcherFor`) until a process finishes it; process `i` stops at `crashes[i - 1]` when given. A process
 * after a frozen one starts past the dead one's lease expiry; after an abort, at the wall time it stopped;
 * either `gapMs` later.
 */
export async function runThroughCrashes(
  store: RunStore,
  first: FirstRun,
  crashes: readonly Crash[],
  dispatcherFor: (process: Process, store: RunStore) => Dispatcher,
  timing: Timing = {},
): Promise<Attempts> {
  const committed: Set<string>[] = [];
  const clocks: VirtualClock[] = [];
  const gap = timing.gapMs ?? 0;
  let wall = timing.wallStart;
  for (let n = 1; ; n++) {
    const crash = crashes[n - 1];
    const clock = processClock(wall);
    clocks.push(clock);
    const frozen = crash?.kind === 'freeze' ? freezingStore(store, crash.commits) : undefined;
    const process: Process = { n, clock, dead: () => frozen?.dead === true };
    const dispatcher = dispatcherFor(process, frozen?.store ?? store);
    const controller = new AbortController();
    let seen = 0;
    const onEvent = (event: RunEvent) => {
      seen++;
      if (controller.signal.aborted) return;
      if (
        (crash?.kind === 'abort' && seen >= crash.event) ||
        (crash?.kind === 'abortOn' && crash.when(event))
      ) {
        controller.abort();
      }
    };
    const options = { signal: controller.signal, onEvent };
    const run =
      n === 1
        ? dispatcher.run(
            first.dag,
            {},
            { ...options, items: structuredClone(first.items), runId: first.runId },
          )
        : dispatcher.resume(first.runId, options);
    const outcome = await Promise.race([
      run.then((result) => ({ result })),
      frozen?.died.then(() => 'died' as const) ?? new Promise<never>(() => undefined),
    ]);
    committed.push(await committedKeys(store, first.runId));
    if (outcome === 'died') {
      wall = clock.wallNow() + LEASE_TTL_MS + 1 + gap;
      continue;
    }
    wall = clock.wallNow() + gap;
    if (outcome.result.status === 'aborted' && crash !== undefined) continue;
    return { result: outcome.result, processes: n, committed, clocks };
  }
}

/** Step keys a process called that an earlier process had committed: a committed step ran again. */
export function stepsRunAgain(steps: readonly string[], committed: readonly ReadonlySet<string>[]): string[] {
  return steps.filter((entry) => {
    const bar = entry.indexOf('|');
    const process = Number(entry.slice(0, bar));
    const key = entry.slice(bar + 1);
    return committed.slice(0, process - 1).some((keys) => keys.has(key));
  });
}

/** An item's outcome, as compared between an interrupted run and an uninterrupted one. */
export function outcomeOf(result: RunResult): unknown {
  const byId = (a: { id: string }, b: { id: string }) => Number(a.id) - Number(b.id);
  return {
    status: result.status,
    items: result.items
      .map((i) => ({
        id: i.id,
        terminal: i.terminal,
        outcome: i.outcome,
        data: i.data,
        budgets: { ...i.state.budgets },
        visits: { ...i.state.visits },
        journal: { ...i.state.journal },
      }))
      .sort(byId),
    failures: result.failures
      .map((f) => ({
        id: f.id,
        placement: f.placement,
        code: f.error.code,
        data: f.state.data,
        budgets: { ...f.state.budgets },
        visits: { ...f.state.visits },
        journal: { ...f.state.journal },
      }))
      .sort(byId),
    aborted: result.aborted.length,
  };
}
