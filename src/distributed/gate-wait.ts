/**
 * The parts of an execution's wait at a gate key kept in Redis that need no Redis: what it asks with, the
 * `gate.wait` events it sends when the reason it waits changes, and its sleeps on the worker's clock.
 */
import { tellWait } from '../gates/gate-events.ts';
import type { GateEntry } from '../gates/gates.ts';
import { emissionInterval } from '../gates/gcra.ts';
import type { GateRef, GateWhy } from '../gates/types.ts';
import type { Clock } from '../policy/types.ts';
import type { GateAsk } from './gate-scripts.ts';

/** How long a slot is held past the execution's latest start; the lease when nothing bounds it. */
const LEASE_MARGIN_MS = 30_000;
const LEASE_WITHOUT_DEADLINE_MS = 10 * 60_000;

/**
 * What an execution asks its key with, but the time and its reservation: its latest start, its slot (held
 * until its latest start plus a margin, or for the default lease), the gate's pace, and its run.
 */
export function askOf(
  ref: GateRef,
  entry: GateEntry,
  holder: string,
  since: number,
): Omit<GateAsk, 'now' | 'reserved'> {
  const rate = ref.gate.rate;
  return {
    latest: entry.latest,
    holder,
    limit: ref.gate.concurrency,
    leaseMs: Number.isFinite(entry.latest)
      ? Math.max(0, entry.latest - since) + LEASE_MARGIN_MS
      : LEASE_WITHOUT_DEADLINE_MS,
    pace:
      rate === undefined
        ? undefined
        : { interval: emissionInterval(rate), tolerance: (rate.burst - 1) * emissionInterval(rate) },
    run: runOf(entry),
  };
}

/** The run an entry or closing is of, for telling a run once that a closing it saw ended. */
export function runOf(entry: Pick<GateEntry, 'events' | 'dag'>): string {
  return entry.events?.runId ?? entry.dag;
}

/**
 * Tells the entry's run why it waits at `ref` (`gate.wait`), each time the reason changes; `untilMs` with
 * a closing's end.
 */
export function waitTeller(
  ref: GateRef,
  entry: GateEntry,
): (why: GateWhy, until: number | undefined) => void {
  let told: GateWhy | undefined;
  return (why, until) => {
    if (why === told) return;
    told = why;
    tellWait(entry, ref.gate.name, ref.key, why, until);
  };
}

/** Sleeps until wall time `at` (again when the clock woke it early). */
export async function sleepUntil(clock: Clock, at: number, signal: AbortSignal): Promise<void> {
  for (let now = clock.wallNow(); now < at; now = clock.wallNow()) {
    await clock.sleep(Math.ceil(at - now), signal);
  }
}

/** Waits `ms` for a slot, or less when one of `polls` is aborted (an execution here gave one back). */
export async function pollFor(
  clock: Clock,
  polls: Set<AbortController>,
  ms: number,
  signal: AbortSignal,
): Promise<void> {
  const cut = new AbortController();
  polls.add(cut);
  try {
    await clock.sleep(ms, AbortSignal.any([signal, cut.signal]));
  } catch (error) {
    if (signal.aborted || !cut.signal.aborted) throw error;
  } finally {
    polls.delete(cut);
  }
}
