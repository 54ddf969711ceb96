import { afterAll, describe, expect, it } from 'vitest';
import type { Dag } from '../../src/document/model.ts';
import { computeBounds } from '../../src/graph/bounds.ts';
import { compile } from '../../src/graph/compile.ts';
import { runViolations } from '../../src/runtime/invariants.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import type { RunStore } from '../../src/store/types.ts';
import {
  freezingStore,
  removeTempStores,
  storedEvents,
  streamProblems,
  tempSqliteStore,
  visitsFromEvents,
} from './helpers.ts';
import {
  type Crash,
  type FirstRun,
  outcomeOf,
  runThroughCrashes,
  stepsRunAgain,
} from './helpers-attempts.ts';
import {
  embedDag,
  embedErrorDag,
  fanDag,
  LIBRARY,
  type Log,
  newLog,
  phasedDag,
  retryDag,
  scenarioDispatcher,
} from './helpers-scenarios.ts';

afterAll(removeTempStores);

/** A scenario: a DAG and its input items. */
interface Scenario {
  readonly name: string;
  readonly dag: Dag;
  readonly items: readonly Record<string, unknown>[];
}

const SCENARIOS: readonly Scenario[] = [
  { name: 'retry loop', dag: retryDag, items: [{ passAt: 3 }, {}, { passAt: 2, sleepMs: 500 }] },
  {
    name: 'scatter with a node body',
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
    name: 'scatter with a sub-DAG body',
    dag: fanDag('urn:t:fandag', 'dag', { reducer: 'partition', require: 'any' }),
    items: [{ xs: [{ tries: 2, ms: 10 }, { tries: 9 }, { tries: 1, ms: 30 }] }, { xs: [] }],
  },
  {
    name: 'first/any gather that cancels the slower children',
    dag: fanDag('urn:t:first', 'node', { reducer: 'first', require: 'any' }),
    items: [
      {
        xs: [
          { ms: 3000, v: 1 },
          { ms: 100, v: 2 },
          { ms: 2000, v: 3 },
        ],
      },
    ],
  },
  {
    name: 'scatter whose children throw HTTP errors',
    dag: fanDag('urn:t:fanerr', 'node', { reducer: 'partition', require: 'any' }),
    items: [
      {
        xs: [
          { ms: 10, v: 1, throws: 400 },
          { ms: 50, v: 2 },
          { ms: 5, v: 3, throws: 503 },
        ],
      },
    ],
  },
  {
    name: 'embed whose child fails with an error',
    dag: embedErrorDag,
    items: [{ throws: 503 }, { throws: 400 }],
  },
  { name: 'pre and post phases', dag: phasedDag('urn:t:phase'), items: [{}, { sleepMs: 50 }] },
  { name: 'a pre phase that fails', dag: phasedDag('urn:t:phase-fails'), items: [{}, {}] },
  {
    name: 'embed with retries inside',
    dag: embedDag,
    items: [{ tries: 3 }, { tries: 9 }, { tries: 1 }],
  },
];

const dispatcherFor = (log: Log) => (process: Parameters<typeof scenarioDispatcher>[0], store: RunStore) =>
  scenarioDispatcher(process, log, store);

async function baseline(s: Scenario, store: RunStore) {
  const log = newLog();
  const first: FirstRun = { dag: s.dag, items: s.items, runId: `base-${s.name}` };
  const counted = freezingStore(store, Number.POSITIVE_INFINITY);
  const { result } = await runThroughCrashes(counted.store, first, [], dispatcherFor(log));
  const recorded = await store.readEvents(first.runId);
  const events = recorded.length;
  // After the last input item ends, an abort stops nothing: the run ends as its items did.
  const topItems = new Set(s.items.map((_, i) => String(i + 1)));
  const ends = recorded.filter(
    (e) =>
      (e.type === 'item.end' || e.type === 'item.failed') &&
      topItems.has(String((e.body as { item?: unknown }).item)),
  );
  const lastEnd = ends.length === 0 ? events : recorded.indexOf(ends.at(-1) as (typeof recorded)[number]) + 1;
  return { result, log, commits: counted.commits, events, lastEnd };
}

/**
 * Every check of a run that went through crashes: the same outcome as the run without them, no committed
 * step called again, a complete recorded stream, and budgets and visits within the static bounds.
 */
async function expectRecovered(s: Scenario, store: RunStore, crashes: readonly Crash[], runId: string) {
  const base = await baseline(s, createMemoryStore());
  const log = newLog();
  const attempts = await runThroughCrashes(
    store,
    { dag: s.dag, items: s.items, runId },
    crashes,
    dispatcherFor(log),
  );
  const where = `${s.name}, crashes ${JSON.stringify(crashes)}`;
  expect(outcomeOf(attempts.result), where).toEqual(outcomeOf(base.result));
  expect(stepsRunAgain(log.steps, attempts.committed), where).toEqual([]);
  const events = await storedEvents(store, runId);
  const died = crashes.some((c) => c.kind === 'freeze');
  expect(streamProblems(events, s.items.length, died), where).toEqual([]);
  const compiled = compile(s.dag);
  const bounds = computeBounds(compiled, LIBRARY);
  expect(runViolations(attempts.result, compiled, s.items.length, bounds), where).toEqual([]);
  for (const [key, visits] of visitsFromEvents(events, s.dag.id)) {
    const bound = bounds.perPlacement.get(key.split('|')[1] as string);
    expect(bound, `${where}: bound of ${key}`).not.toBeNull();
    expect(BigInt(visits), `${where}: visits of ${key}`).toBeLessThanOrEqual(bound as bigint);
  }
  expect((await store.getRun(runId))?.status, where).toBe(attempts.result.status);
  return { attempts, log, base, events };
}

describe('a run crashed at any commit and resumed ends as it would have without the crash', () => {
  for (const s of SCENARIOS) {
    it(`${s.name}: a process that dies after each commit in turn (memory store)`, async () => {
      const { commits } = await baseline(s, createMemoryStore());
      let resumed = 0;
      for (let n = 1; n <= commits + 1; n++) {
        const { attempts } = await expectRecovered(
          s,
          createMemoryStore(),
          [{ kind: 'freeze', commits: n }],
          `r${n}`,
        );
        if (attempts.processes > 1) resumed++;
      }
      expect(resumed).toBe(commits - 1);
    }, 60_000);

    it(`${s.name}: aborted at each event in turn (memory store)`, async () => {
      const base = await baseline(s, createMemoryStore());
      let resumed = 0;
      for (let k = 1; k <= base.events; k++) {
        const { attempts } = await expectRecovered(
          s,
          createMemoryStore(),
          [{ kind: 'abort', event: k }],
          `a${k}`,
        );
        if (attempts.processes > 1) resumed++;
      }
      // An abort after the last input item ended comes too late to stop anything; one before it stops the
      // run and the run is resumed (an abort in the same turn as that ending may still miss).
      expect(resumed).toBeGreaterThanOrEqual(base.lastEnd - 2);
    }, 60_000);

    it(`${s.name}: several crashes of both kinds on one SQLite file`, async () => {
      const store = await tempSqliteStore();
      try {
        const plans: Crash[][] = [
          [
            { kind: 'freeze', commits: 2 },
            { kind: 'abort', event: 3 },
            { kind: 'freeze', commits: 3 },
          ],
          [
            { kind: 'abort', event: 5 },
            { kind: 'freeze', commits: 1 },
            { kind: 'abort', event: 2 },
            { kind: 'freeze', commits: 4 },
          ],
          [
            { kind: 'freeze', commits: 6 },
            { kind: 'freeze', commits: 6 },
          ],
        ];
        for (const [i, plan] of plans.entries()) await expectRecovered(s, store, plan, `sqlite-${i}`);
      } finally {
        await store.close();
      }
    }, 60_000);
  }
});
