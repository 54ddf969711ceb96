/**
 * Helpers for the durable-run tests: a store that freezes the way a dead process leaves it, per-process
 * clocks that share wall time, store snapshots, and event checks over a run's recorded stream.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVirtualClock, type VirtualClock } from '../../src/policy/virtual-clock.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { RunStore } from '../../src/store/types.ts';

/** Where `WALL_START` virtual clocks begin: not on a whole second. */
export const WALL_START = Date.UTC(2026, 0, 1, 12, 0, 0) + 437;

/** A store seen through a process that dies after a number of commits. */
export interface FreezingStore {
  readonly store: RunStore;
  /** Resolves when the process died (its first commit past the limit). */
  readonly died: Promise<void>;
  /** True once the process died: its nodes must do nothing more. */
  readonly dead: boolean;
  /** Commits that reached the store. */
  readonly commits: number;
}

/**
 * Wraps `inner` so that the first `limit` commits go through and every later write (commit, lease renewal
 * or release) never settles and changes nothing, as when the process died mid-run. Reads go through.
 */
export function freezingStore(inner: RunStore, limit: number): FreezingStore {
  let commits = 0;
  let dead = false;
  let die: () => void = () => undefined;
  const died = new Promise<void>((resolve) => {
    die = resolve;
  });
  const hang = (): Promise<never> => {
    if (!dead) {
      dead = true;
      die();
    }
    return new Promise<never>(() => undefined);
  };
  const store = new Proxy(inner, {
    get(target, key, receiver) {
      if (key === 'commit') {
        return (batch: Parameters<RunStore['commit']>[0]) => {
          if (dead || commits >= limit) return hang();
          commits++;
          return target.commit(batch);
        };
      }
      if (key === 'renewLease' || key === 'releaseLease' || key === 'acquireLease') {
        const method = target[key] as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) => (dead ? hang() : method.apply(target, args));
      }
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    store,
    died,
    get dead() {
      return dead;
    },
    get commits() {
      return commits;
    },
  };
}

/** An auto-advancing virtual clock at wall time `wall` (default {@link WALL_START}). */
export function processClock(wall = WALL_START): VirtualClock {
  return createVirtualClock({ auto: true, wallStart: wall });
}

const tempFolders: string[] = [];

/** A fresh SQLite store file in a new temporary folder ({@link removeTempStores} deletes it). */
export async function tempSqliteStore(): Promise<RunStore> {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-resume-'));
  tempFolders.push(dir);
  return openSqliteStore(join(dir, 'runs.db'));
}

/** Deletes the folders of every {@link tempSqliteStore} made so far (close the stores first). */
export function removeTempStores(): void {
  for (const dir of tempFolders.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Everything a store holds about one run, as plain JSON, to show that nothing changed. */
export async function snapshotRun(store: RunStore, runId: string): Promise<unknown> {
  return {
    run: await store.getRun(runId),
    checkpoints: await store.listCheckpoints(runId),
    journal: await store.listJournal(runId),
    events: await store.readEvents(runId),
    lease: await store.getLease(runId),
  };
}

/** The events recorded for a run, as the stream emitted them. */
export async function storedEvents(store: RunStore, runId: string): Promise<RunEvent[]> {
  const records = await store.readEvents(runId);
  return records.map((r) => r.body as RunEvent);
}

/**
 * What is wrong with a run's recorded event stream (empty when nothing): sequence numbers 0, 1, 2… without
 * gaps, a `run.start` first (a `resumed` one after each restart), a `run.end` last, and each input item
 * `1..items` ending (`item.end` or `item.failed`) exactly once, or at least once when `died`: the events of
 * a transition can be committed a turn before its checkpoint, so a process that dies between the two
 * leaves them recorded and the resumed run emits them again.
 */
export function streamProblems(events: readonly RunEvent[], items: number, died = false): string[] {
  const problems: string[] = [];
  events.forEach((e, i) => {
    if (e.seq !== i) problems.push(`event ${i} has seq ${e.seq}`);
  });
  if (events[0]?.type !== 'run.start') problems.push(`the first event is ${events[0]?.type}`);
  if (events.at(-1)?.type !== 'run.end') problems.push(`the last event is ${events.at(-1)?.type}`);
  const starts = events.filter((e) => e.type === 'run.start');
  starts.slice(1).forEach((e) => {
    if (!(e as RunEvent & { resumed?: boolean }).resumed) problems.push(`run.start ${e.seq} is not resumed`);
  });
  const ended = new Map<string, number>();
  for (const e of events) {
    if ((e.type === 'item.end' || e.type === 'item.failed') && /^\d+$/.test(e.item)) {
      ended.set(e.item, (ended.get(e.item) ?? 0) + 1);
    }
  }
  for (let i = 1; i <= items; i++) {
    const n = ended.get(String(i)) ?? 0;
    if (n === 0 || (n > 1 && !died)) problems.push(`item ${i} ends ${n} times in the stream`);
  }
  return problems;
}

/**
 * The most visits each top-level item made to each placement of the root document, from the recorded
 * `placement.start` events of every attempt: an execution interrupted by a crash and run again is the same
 * visit, so the count is the highest visit number.
 */
export function visitsFromEvents(events: readonly RunEvent[], rootDag: string): Map<string, number> {
  const visits = new Map<string, number>();
  for (const e of events) {
    if (e.type !== 'placement.start' || e.dag !== rootDag || !/^\d+$/.test(e.item)) continue;
    const key = `${e.item}|${e.placement}`;
    visits.set(key, Math.max(visits.get(key) ?? 0, e.visit));
  }
  return visits;
}

/** A promise that never settles: a node of a dead process. */
export function never<T>(): Promise<T> {
  return new Promise<T>(() => undefined);
}
