/**
 * What must be the same whichever executor ran a case, and how two runs differ. The normal form keeps the
 * status, each item's ending (terminal and outcome, or placement and error), its data, spent budgets, visits,
 * trail and journal values, the gathered values in the data (in their order), phase errors, the counters and
 * every event. It drops only what legitimately differs: the run id, sequence numbers, clock times and
 * durations (the distributed executor runs on real time, the others on a virtual clock).
 */
import type { ErrorSummary, RunEvent } from '../../src/runtime/events.ts';
import type { ItemState } from '../../src/runtime/item-state.ts';
import type { Executed } from './executors.ts';

/** A plain copy of a null-prototype record (so that deep equality compares contents only). */
const plain = (record: Readonly<Record<string, unknown>>): Record<string, unknown> => ({ ...record });

function stateOf(state: ItemState) {
  return {
    budgets: plain(state.budgets),
    visits: plain(state.visits),
    journal: plain(state.journal),
    trail: state.trail.map((t) => ({ ...t })),
  };
}

function errorOf(error: ErrorSummary) {
  return {
    code: error.code,
    message: error.message,
    retryable: error.retryable,
    kind: error.kind,
    ...(error.status === undefined ? {} : { status: error.status }),
  };
}

/** An event without its run id, sequence number, time and duration. */
function eventOf(event: RunEvent): string {
  const { seq: _seq, time: _time, runId: _run, ...rest } = event;
  if ('durationMs' in rest) {
    const { durationMs: _d, ...timeless } = rest;
    return JSON.stringify(timeless);
  }
  return JSON.stringify(rest);
}

/** The normal form of one run (see the module comment). */
export function normalise({ result, events }: Executed) {
  const { durationMs: _duration, byTerminal, ...counters } = result.stats;
  return {
    status: result.status,
    dag: result.dag,
    hash: result.hash,
    items: result.items.map((i) => ({
      id: i.id,
      terminal: i.terminal,
      outcome: i.outcome,
      data: i.data,
      state: stateOf(i.state),
    })),
    failures: result.failures.map((f) => ({
      id: f.id,
      placement: f.placement,
      error: errorOf(f.error),
      data: f.state.data,
      state: stateOf(f.state),
    })),
    aborted: result.aborted.map((a) => ({ item: a.item, placement: a.placement, waitingFor: a.waitingFor })),
    phaseErrors: result.phaseErrors.map((p) => ({ placement: p.placement, error: errorOf(p.error) })),
    stats: { ...counters, byTerminal: plain(byTerminal) },
    events: events.map(eventOf).sort(),
  };
}

export type Normal = ReturnType<typeof normalise>;

const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
};

/**
 * Where `actual` differs from `expected`, as `path: expected ≠ actual` lines (at most `limit`). Sorted
 * event lists are compared as multisets: the lines say which events one side has and the other lacks.
 */
export function differences(expected: unknown, actual: unknown, limit = 8, path = ''): string[] {
  const out: string[] = [];
  const walk = (a: unknown, b: unknown, at: string) => {
    if (out.length >= limit) return;
    if (at === '.events' && Array.isArray(a) && Array.isArray(b)) {
      const left = [...(a as string[])];
      const right = [...(b as string[])];
      for (const e of a as string[]) {
        const j = right.indexOf(e);
        if (j >= 0) {
          right.splice(j, 1);
          left.splice(left.indexOf(e), 1);
        }
      }
      for (const e of left.slice(0, 3)) out.push(`events: only expected has ${shown(JSON.parse(e))}`);
      for (const e of right.slice(0, 3)) out.push(`events: only actual has ${shown(JSON.parse(e))}`);
      return;
    }
    if (Object.is(a, b)) return;
    if (
      a !== null &&
      b !== null &&
      typeof a === 'object' &&
      typeof b === 'object' &&
      Array.isArray(a) === Array.isArray(b)
    ) {
      const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
      for (const key of [...keys].sort()) {
        walk((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${at}.${key}`);
      }
      return;
    }
    out.push(`${at || '(root)'}: ${shown(a)} ≠ ${shown(b)}`);
  };
  walk(expected, actual, path);
  return out;
}
