/**
 * A durable run stopped while a scatter's or an embed's children are part-way resumes its parked parents
 * from their checkpoints: the parent is parked again on the same fan out (its step, its `placement.start`
 * and its visit are not taken again), its ended children are counted off from their endings, its open
 * children go on from their checkpoints, and the result is the one an uninterrupted run gives. A parent
 * recorded without its fan out (as an engine that kept it active at its placement wrote it) still resumes,
 * by entering the placement again.
 */
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { Dag } from '../../src/document/model.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import type { RunResult } from '../../src/runtime/run.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import type { ItemCheckpoint, RunStore } from '../../src/store/types.ts';
import { removeScratchKeys, scratchRedisStore } from '../store/redis-scratch.ts';
import { processClock, removeTempStores, storedEvents, streamProblems, tempSqliteStore } from './helpers.ts';
import { outcomeOf, runThroughCrashes } from './helpers-attempts.ts';
import { embedDag, fanDag, newLog, scenarioDispatcher } from './helpers-scenarios.ts';

afterAll(async () => {
  removeTempStores();
  await removeScratchKeys();
});

const STORES: readonly [string, () => Promise<RunStore>][] = [
  ['memory', async () => createMemoryStore()],
  ['SQLite', tempSqliteStore],
  ['Redis', () => scratchRedisStore()],
];

/** A run stopped once, then resumed in a second process at the wall time the first one stopped. */
interface Interrupted {
  /** The checkpoints the first process left. */
  readonly left: readonly ItemCheckpoint[];
  readonly result: RunResult;
  /** Every event of both processes, as the store holds them. */
  readonly events: readonly RunEvent[];
  /** `<process>|<item>|<placement>|<visit>` per node execution. */
  readonly executions: readonly string[];
}

/** What happens between the two processes of {@link interrupted}. */
interface Between {
  /** Rewrites what process 1 left (as an older engine recorded it). */
  readonly edit?: (left: readonly ItemCheckpoint[]) => Promise<void>;
  /** Process 2's wall clock starts this long before the time process 1 stopped (a host behind); default 0. */
  readonly behindMs?: number;
}

/**
 * Runs `dag` over `items` in process 1 until `stop` sees its event (the run is aborted there), does what
 * `between` says, then resumes it in process 2.
 */
async function interrupted(
  store: RunStore,
  run: { readonly dag: Dag; readonly items: readonly Record<string, unknown>[]; readonly runId: string },
  stop: (event: RunEvent) => boolean,
  { edit, behindMs = 0 }: Between = {},
): Promise<Interrupted> {
  const log = newLog();
  const p1 = { n: 1, clock: processClock(), dead: () => false };
  const controller = new AbortController();
  const first = await scenarioDispatcher(p1, log, store).run(
    run.dag,
    {},
    {
      items: structuredClone(run.items),
      runId: run.runId,
      signal: controller.signal,
      onEvent: (e) => (stop(e) ? controller.abort() : undefined),
    },
  );
  expect(first.status).toBe('aborted');
  const left = await store.listCheckpoints(run.runId);
  await edit?.(left);
  const p2 = { n: 2, clock: processClock(p1.clock.wallNow() - behindMs), dead: () => false };
  const result = await scenarioDispatcher(p2, log, store).resume(run.runId);
  const executions = log.executions.map((line) => line.split('|').slice(0, 4).join('|'));
  return { left, result, events: await storedEvents(store, run.runId), executions };
}

/** The same run, uninterrupted, in a store of its own. */
async function uninterrupted(
  open: () => Promise<RunStore>,
  run: { readonly dag: Dag; readonly items: readonly Record<string, unknown>[]; readonly runId: string },
): Promise<RunResult> {
  const store = await open();
  const p = { n: 1, clock: processClock(), dead: () => false };
  const result = await scenarioDispatcher(p, newLog(), store).run(
    run.dag,
    {},
    {
      items: structuredClone(run.items),
      runId: run.runId,
    },
  );
  await store.close();
  return result;
}

/** How many times `item` started `placement` in `events`. */
const starts = (events: readonly RunEvent[], item: string, placement: string) =>
  events.filter((e) => e.type === 'placement.start' && e.item === item && e.placement === placement).length;

/** How each checkpoint stood: `<item> <status>[ <ending kind>][ <wait reason>]`, sorted. */
const standing = (left: readonly ItemCheckpoint[]) =>
  left
    .map((c) =>
      [c.itemId, c.status, c.ending?.kind, c.position.wait?.reason].filter((x) => x !== undefined).join(' '),
    )
    .sort();

/**
 * The parent's checkpoint as an engine that kept a parent active at its scatter or embed recorded it: no
 * fan out, and the visit of the placement not yet counted (it was counted as the parent entered it).
 */
const withoutFan = (store: RunStore, parent: string) => async (left: readonly ItemCheckpoint[]) => {
  const saved = left.find((c) => c.itemId === parent) as ItemCheckpoint;
  const { fan: _fan, ...state } = saved.state;
  const placement = saved.position.placement;
  const visits = { ...state.visits, [placement]: (state.visits[placement] ?? 1) - 1 };
  await store.commit([{ kind: 'checkpoint', checkpoint: { ...saved, state: { ...state, visits } } }]);
};

/**
 * Six children of a sub-DAG body (`work` retries itself until its `tries`, each back-off one second), stopped
 * at t = 1000 ms as child 1 schedules its second retry: children 0 and 5 have ended, 2 is running its first
 * node (no checkpoint of its own yet: it starts again at its entry), 1, 3 and 4 wait in a back-off; 3 runs
 * out of tries (`gave_up`) after the restart.
 */
const SCATTER = {
  dag: fanDag('urn:t:parked-fan', 'dag', { reducer: 'partition', require: 'any' }),
  items: [
    {
      xs: [
        { tries: 1, ms: 10 },
        { tries: 3 },
        { tries: 1, ms: 3000 },
        { tries: 9 },
        { tries: 2, ms: 500 },
        { tries: 1, ms: 20 },
      ],
    },
  ],
  runId: 'parked-fan',
};
const scatterStop = (e: RunEvent) => e.type === 'retry.scheduled' && e.item === '1.1' && e.attempt === 2;

/** Four children of a node body, stopped as child 1 ends: 1 and 3 have ended, 0 and 2 are running. */
const NODE_SCATTER = {
  dag: fanDag('urn:t:parked-node-fan', 'node'),
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
  runId: 'parked-node-fan',
};
const nodeStop = (e: RunEvent) => e.type === 'placement.end' && e.item === '1.1';

/** An embed whose child retries (three tries), stopped as the child schedules its first retry. */
const EMBED = { dag: embedDag, items: [{ tries: 3 }], runId: 'parked-embed' };
const embedStop = (e: RunEvent) => e.type === 'retry.scheduled' && e.item === '1/inner';

describe.each(STORES)('a resumed run parks its parents again on their children (%s store)', (_name, open) => {
  it('a scatter stopped with children ended, running and in a back-off: same result, its step not run again', async () => {
    const store = await open();
    const run = await interrupted(store, SCATTER, scatterStop);
    // Child 2 is running its first node (no checkpoint yet), or, where the store's commits give the virtual
    // clock the time to end its sleep first (Redis), has ended.
    const standingLeft = standing(run.left).filter((s) => !s.startsWith('1.2 '));
    expect(standingLeft).toEqual([
      '1 active',
      '1.0 ended terminal',
      '1.1 waiting backoff',
      '1.3 waiting backoff',
      '1.4 waiting backoff',
      '1.5 ended terminal',
    ]);
    // The parent's checkpoint says it is parked on six children at its first visit of the scatter.
    const parent = run.left.find((c) => c.itemId === '1');
    expect(parent?.position).toMatchObject({ placement: 'fan', visit: 1 });
    expect(parent?.state.fan).toMatchObject({ visit: 1, children: 6 });
    expect(outcomeOf(run.result)).toEqual(outcomeOf(await uninterrupted(open, SCATTER)));
    expect(run.result.items[0]?.data.out).toEqual({
      completed: ['w1', 'w3', 'w1', 'w2', 'w1'],
      failed: [{ index: 3, terminal: 'gave_up' }],
    });
    expect(starts(run.events, '1', 'fan')).toBe(1);
    // The scatter ends once, in the resumed process, and its parent goes on to the gather.
    const ends = run.events.filter((e) => e.type === 'placement.end' && e.item === '1');
    expect(ends.map((e) => (e as { placement: string }).placement)).toEqual(['fan', 'join']);
    // Only what was open goes on: the ended children run nothing after the restart.
    const resumed = run.executions.filter((e) => e.startsWith('2|')).map((e) => e.split('|')[1]);
    const stillOpen = (id: string) => run.left.find((c) => c.itemId === id)?.status !== 'ended';
    expect([...new Set(resumed)].sort()).toEqual(['1.1', '1.2', '1.3', '1.4'].filter(stillOpen));
    expect(streamProblems(run.events, 1)).toEqual([]);
    await store.close();
  });

  it('a scatter with a node body stopped part-way: same result, its step not run again', async () => {
    const store = await open();
    const run = await interrupted(store, NODE_SCATTER, nodeStop);
    expect(standing(run.left)).toEqual(['1 active', '1.1 ended terminal', '1.3 ended terminal']);
    expect(outcomeOf(run.result)).toEqual(outcomeOf(await uninterrupted(open, NODE_SCATTER)));
    expect(run.result.items[0]?.data.out).toEqual([10, 20, 30, 40]);
    expect(starts(run.events, '1', 'fan')).toBe(1);
    expect(run.executions.filter((e) => e.startsWith('2|'))).toEqual(['2|1.2|fan|1', '2|1.0|fan|1']);
    await store.close();
  });

  it('an embed stopped while its child waits in a back-off: same result, its step not run again', async () => {
    const store = await open();
    const run = await interrupted(store, EMBED, embedStop);
    expect(standing(run.left)).toEqual(['1 active', '1/inner waiting backoff']);
    expect(run.left.find((c) => c.itemId === '1')?.state.fan).toMatchObject({ visit: 1, children: 1 });
    const whole = await uninterrupted(open, EMBED);
    expect(outcomeOf(run.result)).toEqual(outcomeOf(whole));
    expect(run.result.items[0]?.data).toEqual({ tries: 3, draft: 'd1/1', inner: 'w3' });
    expect(starts(run.events, '1', 'inner')).toBe(1);
    expect(run.executions.filter((e) => e.startsWith('2|'))).toEqual([
      '2|1/inner|work|2',
      '2|1/inner|work|3',
    ]);
    expect(streamProblems(run.events, 1)).toEqual([]);
    await store.close();
  });

  // The node-bodied scatter's children wait in no back-off, whose recorded wall time would hold the
  // resumed run until the behind clock passes it.
  it.each([['a scatter', NODE_SCATTER, nodeStop, 'fan']] as const)(
    '%s resumed on a host whose clock is behind the stopped one ends its placement with no negative duration',
    async (_what, scenario, stop, placement) => {
      const store = await open();
      const run = await interrupted(store, scenario, stop, { behindMs: 3_600_000 });
      expect(outcomeOf(run.result)).toEqual(outcomeOf(await uninterrupted(open, scenario)));
      const end = run.events.find(
        (e) => e.type === 'placement.end' && e.item === '1' && e.placement === placement,
      );
      expect((end as { durationMs: number } | undefined)?.durationMs).toBeGreaterThanOrEqual(0);
      await store.close();
    },
  );

  it.each([
    ['a scatter', SCATTER, scatterStop, 'fan'],
    ['an embed', EMBED, embedStop, 'inner'],
  ] as const)(
    '%s whose parent was recorded without its fan out enters the placement again, with the same result',
    async (_what, scenario, stop, placement) => {
      const store = await open();
      const run = await interrupted(store, scenario, stop, { edit: withoutFan(store, '1') });
      expect(outcomeOf(run.result)).toEqual(outcomeOf(await uninterrupted(open, scenario)));
      expect(starts(run.events, '1', placement)).toBe(2);
      await store.close();
    },
  );
});

describe.each(STORES)(
  'a parent is started once in the stored stream, whatever commit its process died after (%s store)',
  (_name, open) => {
    it.each([
      ['a scatter', SCATTER, 'fan'],
      ['an embed', EMBED, 'inner'],
    ] as const)('%s', async (_what, scenario, placement) => {
      const whole = outcomeOf(await uninterrupted(open, scenario));
      const problems: string[] = [];
      let interrupted = 0;
      for (let commits = 1; commits <= 40; commits++) {
        const store = await open();
        const runId = `${scenario.runId}-${commits}`;
        const log = newLog();
        const run = await runThroughCrashes(
          store,
          { ...scenario, runId },
          [{ kind: 'freeze', commits }],
          (p, s) => scenarioDispatcher(p, log, s),
        );
        const events = await storedEvents(store, runId);
        await store.close();
        // The first process finished before its crash point: later ones would only finish again.
        if (run.processes === 1) break;
        interrupted++;
        const seen = starts(events, '1', placement);
        if (!isDeepStrictEqual(outcomeOf(run.result), whole))
          problems.push(`${commits}: another result than an uninterrupted run's`);
        if (seen !== 1) problems.push(`${commits}: ${seen} placement.start of the parent`);
        problems.push(...streamProblems(events, 1, true).map((p) => `${commits}: ${p}`));
      }
      expect(interrupted).toBeGreaterThan(3);
      expect(problems).toEqual([]);
    });
  },
);
