import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Dag } from '../../src/document/model.ts';
import { computeBounds } from '../../src/graph/bounds.ts';
import { compile } from '../../src/graph/compile.ts';
import { seededRandom } from '../../src/policy/random.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { runViolations } from '../../src/runtime/invariants.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import type { RunStore } from '../../src/store/types.ts';
import {
  type Element,
  generatedDagArbitrary,
  generatedPolicyArbitrary,
  listsArbitrary,
} from '../runtime/arbitraries.ts';
import { propertySettings } from '../runtime/property-settings.ts';
import { freezingStore, storedEvents, streamProblems, visitsFromEvents, WALL_START } from './helpers.ts';
import { type Crash, outcomeOf, runThroughCrashes, stepsRunAgain } from './helpers-attempts.ts';
import { newLog, type Process } from './helpers-scenarios.ts';
import { interruptedNodes, withoutFirstGathers } from './interrupted-nodes.ts';

/** Sized and seeded from the environment (`PROPERTY_RUNS`, `PROPERTY_SEED`, `PROPERTY_PATH`). */
const { runs: RUNS, replay: REPLAY } = propertySettings(60);
const TIMEOUT_MS = 30_000 + RUNS * 1000;
const SHRINK_LIMIT_MS = TIMEOUT_MS - 20_000;

interface Case {
  readonly root: Dag;
  readonly library: readonly Dag[];
  readonly policy: PolicyInput;
  readonly seed: number;
  readonly items: readonly { n: number; lists: Element[][] }[];
  readonly crashes: readonly Crash[];
}

/** Exact waits: no jitter anywhere, and no run deadline (whether one cuts a retry depends on the waits). */
function exactPolicy(policy: PolicyInput): PolicyInput {
  const placements = Object.fromEntries(
    Object.entries(policy.placements ?? {}).map(([key, timing]) => [
      key,
      timing.jitter === undefined ? timing : { ...timing, jitter: 'none' as const },
    ]),
  );
  return { ...policy, defaults: { ...policy.defaults, jitter: 'none' }, placements };
}

const crashArbitrary: fc.Arbitrary<Crash> = fc.oneof(
  fc.integer({ min: 1, max: 40 }).map((commits): Crash => ({ kind: 'freeze', commits })),
  fc.integer({ min: 1, max: 120 }).map((event): Crash => ({ kind: 'abort', event })),
);

const caseArbitrary: fc.Arbitrary<Case> = generatedDagArbitrary.chain((generated) => {
  const [root, ...library] = withoutFirstGathers([generated.dag, ...generated.library]) as [Dag, ...Dag[]];
  return fc.record({
    root: fc.constant(root),
    library: fc.constant(library),
    policy: generatedPolicyArbitrary.map((g) => exactPolicy(g.policy)),
    seed: fc.nat(),
    items: fc
      .array(listsArbitrary(generated.depth), { minLength: 1, maxLength: 4 })
      .map((lists) => lists.map((l, n) => ({ n, lists: l }))),
    crashes: fc.array(crashArbitrary, { minLength: 1, maxLength: 3 }),
  });
});

async function runCase(c: Case, store: RunStore, crashes: readonly Crash[], runId: string) {
  const log = newLog();
  const documents = [c.root, ...c.library];
  const byId = new Map(c.library.map((d) => [d.id, d]));
  const dispatcherFor = (process: Process, s: RunStore) =>
    createDispatcher({
      nodes: interruptedNodes(documents, c.seed, process, log),
      clock: process.clock,
      random: seededRandom(c.seed),
      policy: c.policy,
      library: { get: (iri) => byId.get(iri) },
      store: s,
    });
  const attempts = await runThroughCrashes(
    store,
    { dag: c.root, items: c.items, runId },
    crashes,
    dispatcherFor,
    {
      wallStart: WALL_START,
    },
  );
  const journal = (await store.listJournal(runId)).map((j) => `${j.itemPath}|${j.stepKey}|${j.value}`).sort();
  return { ...attempts, log, journal };
}

describe('a run interrupted at random transitions and resumed', () => {
  it(
    'ends with the same terminals, failures, data, budgets, visits and journal as the run uninterrupted',
    async () => {
      let interrupted = 0;
      let frozen = 0;
      let resumes = 0;
      let scattered = 0;
      let embedded = 0;
      let replayed = 0;
      await fc.assert(
        fc.asyncProperty(caseArbitrary, async (c) => {
          const base = await runCase(c, createMemoryStore(), [], 'base');
          const counted = freezingStore(createMemoryStore(), Number.POSITIVE_INFINITY);
          const store = counted.store;
          const run = await runCase(c, store, c.crashes, 'crashed');
          expect(outcomeOf(run.result)).toEqual(outcomeOf(base.result));
          expect(run.result.phaseErrors.map((p) => p.placement)).toEqual(
            base.result.phaseErrors.map((p) => p.placement),
          );
          expect(run.journal).toEqual(base.journal);
          expect(stepsRunAgain(run.log.steps, run.committed)).toEqual([]);
          const events = await storedEvents(store, 'crashed');
          const died = c.crashes.slice(0, run.processes - 1).some((crash) => crash.kind === 'freeze');
          expect(streamProblems(events, c.items.length, died)).toEqual([]);
          const compiled = compile(c.root);
          const byId = new Map(c.library.map((d) => [d.id, d]));
          const bounds = computeBounds(compiled, { get: (iri) => byId.get(iri) });
          expect(runViolations(run.result, compiled, c.items.length, bounds)).toEqual([]);
          // Executions summed over every process, an execution cut off by a crash and run again counted once.
          for (const [key, visits] of visitsFromEvents(events, c.root.id)) {
            const bound = bounds.perPlacement.get(key.split('|')[1] as string);
            expect(BigInt(visits), `visits of ${key}`).toBeLessThanOrEqual(bound ?? -1n);
          }
          expect((await store.getRun('crashed'))?.status).toBe(run.result.status);
          if (run.processes > 1) {
            interrupted++;
            if (events.some((e) => 'item' in e && e.item.includes('.'))) scattered++;
            if (events.some((e) => 'item' in e && e.item.includes('/'))) embedded++;
            if (run.committed[0] !== undefined && run.committed[0].size > 0) replayed++;
          }
          if (run.processes > 1 && c.crashes[0]?.kind === 'freeze') frozen++;
          resumes += run.processes - 1;
        }),
        { numRuns: RUNS, interruptAfterTimeLimit: SHRINK_LIMIT_MS, ...REPLAY },
      );
      // The crash points fall inside the runs, not only after their end.
      expect(interrupted).toBeGreaterThan(RUNS / 3);
      expect(frozen).toBeGreaterThan(RUNS / 10);
      expect(resumes).toBeGreaterThan(interrupted);
      expect(scattered).toBeGreaterThan(RUNS / 10);
      expect(embedded).toBeGreaterThan(RUNS / 20);
      // Runs whose first process had committed step values that the resumed ones replayed.
      expect(replayed).toBeGreaterThan(RUNS / 10);
    },
    TIMEOUT_MS,
  );
});
