/**
 * A durable run recorded in format 1 (scatter children's step values under position-only keys,
 * `fan[2]/charge`) and resumed by this version: no committed step runs again, and the run ends as it would
 * have without the crash. The first process writes what a format-1 program writes (the store below turns
 * each step key it commits into the position-only spelling, and the run's format into 1), dies after each
 * commit in turn, and this version resumes the run.
 */
import { describe, expect, it } from 'vitest';
import type { Dag } from '../../src/document/model.ts';
import { positionOnlyKey } from '../../src/runtime/journal-key.ts';
import type { RunResult } from '../../src/runtime/run.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import type { RunStore, StoreWrite } from '../../src/store/types.ts';
import { runThroughCrashes } from './helpers-attempts.ts';
import { fanDag, newLog, scenarioDispatcher } from './helpers-scenarios.ts';

/** A step key as a format-1 program spelled it. */
const formatOne = (key: string): string => positionOnlyKey(key) ?? key;

/** `inner` as a format-1 program writes to it: position-only step keys, run records of format 1. */
function formatOneStore(inner: RunStore): RunStore {
  const rewrite = (write: StoreWrite): StoreWrite => {
    if (write.kind === 'journal')
      return { ...write, entry: { ...write.entry, stepKey: formatOne(write.entry.stepKey) } };
    if (write.kind === 'run') return { ...write, run: { ...write.run, formatVersion: 1 } };
    return write;
  };
  return new Proxy(inner, {
    get(target, key, receiver) {
      if (key === 'commit') return (batch: readonly StoreWrite[]) => target.commit(batch.map(rewrite));
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** What must be the same as without a crash, with step keys in one spelling. */
function outcome(result: RunResult) {
  return result.items.map((i) => ({
    id: i.id,
    terminal: i.terminal,
    data: i.data,
    journal: Object.fromEntries(Object.entries(i.state.journal).map(([k, v]) => [formatOne(k), v])),
  }));
}

const SCENARIOS: readonly { name: string; dag: Dag; items: Record<string, unknown>[] }[] = [
  {
    name: 'a scatter with a node body',
    dag: fanDag('urn:t:fan', 'node'),
    items: [
      {
        xs: [
          { ms: 300, v: 1 },
          { ms: 100, v: 2 },
          { ms: 200, v: 3 },
          { ms: 50, v: 4 },
        ],
      },
    ],
  },
  {
    name: 'a scatter with a sub-DAG body',
    dag: fanDag('urn:t:fandag', 'dag', { reducer: 'partition', require: 'any' }),
    items: [{ xs: [{ tries: 2, ms: 10 }, { tries: 9 }, { tries: 1, ms: 30 }] }],
  },
];

describe('a run recorded in format 1 resumes without running a committed step again', () => {
  for (const s of SCENARIOS) {
    it(`${s.name}: the first process dies after each commit in turn`, async () => {
      const baseLog = newLog();
      const base = await runThroughCrashes(
        createMemoryStore(),
        { dag: s.dag, items: s.items, runId: 'base' },
        [],
        (process, store) => scenarioDispatcher(process, baseLog, store),
      );
      let replayed = 0;
      for (let n = 1; n <= 12; n++) {
        const log = newLog();
        const store = formatOneStore(createMemoryStore());
        const run = await runThroughCrashes(
          store,
          { dag: s.dag, items: s.items, runId: `f${n}` },
          [{ kind: 'freeze', commits: n }],
          (process, st) => scenarioDispatcher(process, log, st),
        );
        expect((await store.getRun(`f${n}`))?.formatVersion).toBe(1);
        expect(outcome(run.result), `dies after commit ${n}`).toEqual(outcome(base.result));
        const committed = run.committed[0] ?? new Set<string>();
        const again = log.steps
          .filter((line) => !line.startsWith('1|'))
          .map((line) => formatOne(line.slice(line.indexOf('|') + 1)))
          .filter((key) => committed.has(key));
        expect(again, `dies after commit ${n}`).toEqual([]);
        if (run.processes > 1 && [...committed].some((key) => /\[\d+\]\//.test(key))) replayed++;
      }
      // The crash points include ones where children had committed steps under format-1 keys.
      expect(replayed).toBeGreaterThan(0);
    }, 60_000);
  }
});
