import { afterAll, describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { elementTag } from '../../src/runtime/journal-key.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import type { RunStore } from '../../src/store/types.ts';
import {
  processClock,
  removeTempStores,
  storedEvents,
  streamProblems,
  tempSqliteStore,
  WALL_START,
} from './helpers.ts';
import { type Crash, type FirstRun, runThroughCrashes, type Timing } from './helpers-attempts.ts';
import {
  embedDag,
  fanDag,
  type Log,
  newLog,
  phasedDag,
  retryDag,
  scenarioDispatcher,
} from './helpers-scenarios.ts';

afterAll(removeTempStores);

/** One node execution from the log. */
interface Execution {
  readonly process: number;
  readonly item: string;
  readonly placement: string;
  readonly visit: number;
  readonly wall: number;
}

const executions = (log: Log): Execution[] =>
  log.executions.map((line) => {
    const [process, item, placement, visit, wall] = line.split('|');
    return {
      process: Number(process),
      item: item as string,
      placement: placement as string,
      visit: Number(visit),
      wall: Number(wall),
    };
  });

async function through(store: RunStore, first: FirstRun, crashes: readonly Crash[], timing?: Timing) {
  const log = newLog();
  const attempts = await runThroughCrashes(
    store,
    first,
    crashes,
    (process, s) => scenarioDispatcher(process, log, s),
    timing,
  );
  return { ...attempts, log, done: executions(log) };
}

const first = (type: RunEvent['type'], item?: string) => (e: RunEvent) =>
  e.type === type && (item === undefined || ('item' in e && e.item === item));

const STORES: readonly [string, () => Promise<RunStore>][] = [
  ['memory', async () => createMemoryStore()],
  ['SQLite', tempSqliteStore],
];

describe.each(STORES)('a resumed run goes on where each item stood (%s store)', (_name, open) => {
  it.each([
    ['at once', 0, WALL_START + 1000],
    ['for what is left of the wait', 400, WALL_START + 1000],
    ['at once when the wait ended during the outage', 5000, WALL_START + 5000],
  ])('an item waiting in a back-off until T goes on %s', async (_how, gapMs, expected) => {
    const store = await open();
    const crash: Crash = { kind: 'abortOn', when: first('retry.scheduled') };
    const run = await through(store, { dag: retryDag, items: [{}], runId: 'w' }, [crash], { gapMs });
    expect(run.processes).toBe(2);
    const resumed = run.done.filter((e) => e.process === 2);
    expect(resumed[0]).toMatchObject({ item: '1', placement: 'compose', visit: 2, wall: expected });
    // The waits after the restart are whole again: one second each.
    expect(resumed.filter((e) => e.placement === 'compose').map((e) => e.wall - expected)).toEqual([
      0, 1000, 2000,
    ]);
    await store.close();
  });

  it('records the wait with its end and reason, and a Retry-After wait resumes at its end', async () => {
    const store = await open();
    const log = newLog();
    const controller = new AbortController();
    const p1 = { n: 1, clock: processClock(), dead: () => false };
    const aborted = await scenarioDispatcher(p1, log, store).run(
      retryDag,
      { retryAfterMs: 2500 },
      {
        runId: 'ra',
        signal: controller.signal,
        onEvent: (e) => (e.type === 'retry.scheduled' ? controller.abort() : undefined),
      },
    );
    expect(aborted.status).toBe('aborted');
    expect(aborted.aborted.map((a) => [a.item, a.placement, a.waitingFor])).toEqual([
      ['1', 'compose', 'backoff'],
    ]);
    const saved = await store.getCheckpoint('ra', '1');
    expect(saved?.status).toBe('waiting');
    expect(saved?.position).toMatchObject({
      placement: 'compose',
      visit: 2,
      wait: { until: WALL_START + 2500, reason: 'retry-after' },
    });
    expect((await store.getRun('ra'))?.status).toBe('aborted');
    const p2 = { n: 2, clock: processClock(WALL_START + 1000), dead: () => false };
    const result = await scenarioDispatcher(p2, log, store).resume('ra');
    expect(result.status).toBe('completed');
    expect(executions(log).find((e) => e.process === 2)).toMatchObject({
      placement: 'compose',
      visit: 2,
      wall: WALL_START + 2500,
    });
    await store.close();
  });

  it('budgets, journal and visits go on from the checkpoint; a committed step is not called again', async () => {
    const store = await open();
    const crashes: Crash[] = [
      { kind: 'abortOn', when: first('retry.scheduled') },
      { kind: 'freeze', commits: 3 },
      { kind: 'abortOn', when: first('retry.scheduled') },
    ];
    const run = await through(store, { dag: retryDag, items: [{}, { passAt: 2 }], runId: 'b' }, crashes);
    expect(run.processes).toBe(4);
    const [one, two] = run.result.items;
    expect(one?.state.budgets).toEqual({ compose: 3 });
    expect(one?.state.visits).toEqual({ compose: 4, validate: 4, salvage: 1, done: 1 });
    // The step ran once, on the first visit; every later visit (and process) replayed its value.
    expect(one?.data.draft).toBe('d4/1');
    expect(one?.state.journal).toEqual({ charge: { value: 1 } });
    expect(two?.state.budgets).toEqual({ compose: 1 });
    expect(run.log.steps.sort()).toEqual(['1|b/1/charge', '1|b/2/charge']);
    // A (placement, visit) runs again only when it was the item's execution in flight as its process stopped.
    const again = run.done.filter((e, i) =>
      run.done
        .slice(0, i)
        .some((x) => x.item === e.item && x.placement === e.placement && x.visit === e.visit),
    );
    expect(again.length).toBeGreaterThan(0);
    for (const e of again) {
      const last = run.done.filter((x) => x.process === e.process - 1 && x.item === e.item).at(-1);
      expect(last).toMatchObject({ placement: e.placement, visit: e.visit });
    }
    expect(streamProblems(await storedEvents(store, 'b'), 2, true)).toEqual([]);
    await store.close();
  });

  it('a scatter with a node body runs only its unfinished children; the gather gets every result', async () => {
    const store = await open();
    const xs = [
      { ms: 300, v: 1 },
      { ms: 100, v: 2 },
      { ms: 200, v: 3 },
      { ms: 50, v: 4 },
    ];
    const crash: Crash = { kind: 'abortOn', when: first('placement.end', '1.2') };
    const run = await through(store, { dag: fanDag('urn:t:fan', 'node'), items: [{ xs }], runId: 's' }, [
      crash,
    ]);
    expect(run.processes).toBe(2);
    expect(run.done.filter((e) => e.process === 2).map((e) => e.item)).toEqual(['1.0']);
    expect(run.done.map((e) => e.item).sort()).toEqual(['1.0', '1.1', '1.2', '1.3']);
    expect(run.result.items[0]?.data.out).toEqual([10, 20, 30, 40]);
    // Each child's key names its position and its element (`fan[1:<tag>]`).
    const tag = (i: number) => elementTag(xs[i]);
    expect(run.log.steps.sort()).toEqual([
      `1|s/1/fan[1:${tag(1)}]/charge`,
      `1|s/1/fan[2:${tag(2)}]/charge`,
      `1|s/1/fan[3:${tag(3)}]/charge`,
      `2|s/1/fan[0:${tag(0)}]/charge`,
    ]);
    await store.close();
  });

  it('a scatter with a sub-DAG body resumes each unfinished child at its own visit', async () => {
    const store = await open();
    const xs = [{ tries: 2, ms: 10 }, { tries: 9 }, { tries: 1, ms: 30 }];
    const dag = fanDag('urn:t:fandag', 'dag', { reducer: 'partition', require: 'any' });
    const crash: Crash = {
      kind: 'abortOn',
      when: (e) => e.type === 'retry.scheduled' && e.item === '1.1' && e.attempt === 2,
    };
    const run = await through(store, { dag, items: [{ xs }], runId: 'sd' }, [crash]);
    expect(run.processes).toBe(2);
    const resumed = run.done.filter((e) => e.process === 2).map((e) => `${e.item}@${e.visit}`);
    expect(resumed.sort()).toEqual(['1.0@2', '1.1@3', '1.1@4']);
    expect(run.result.items[0]?.data.out).toEqual({
      completed: ['w2', 'w1'],
      failed: [{ index: 1, terminal: 'gave_up' }],
    });
    await store.close();
  });

  it('an embedded run resumes inside its parent, its budgets and visits going on', async () => {
    const store = await open();
    const crash: Crash = { kind: 'abortOn', when: first('retry.scheduled', '1/inner') };
    const run = await through(store, { dag: embedDag, items: [{ tries: 3 }], runId: 'e' }, [crash]);
    expect(run.processes).toBe(2);
    const resumed = run.done.filter((e) => e.process === 2).map((e) => `${e.item}|${e.placement}@${e.visit}`);
    expect(resumed).toEqual(['1/inner|work@2', '1/inner|work@3']);
    expect(run.result.items[0]?.data).toEqual({ tries: 3, draft: 'd1/1', inner: 'w3' });
    expect(run.log.steps).toEqual([
      '1|e/1/charge',
      '1|e/1/inner/try1',
      '2|e/1/inner/try2',
      '2|e/1/inner/try3',
    ]);
    await store.close();
  });

  it.each([
    ['after the cancellations', first('item.cancelled')],
    ['between the winner and the cancellations', first('placement.end', '1.1')],
  ])('a first/any gather resumed %s does not run its cancelled children again', async (_when, when) => {
    const store = await open();
    const dag = fanDag('urn:t:first', 'node', { reducer: 'first', require: 'any' });
    const xs = [
      { ms: 3000, v: 1 },
      { ms: 100, v: 2 },
      { ms: 2000, v: 3 },
    ];
    const run = await through(store, { dag, items: [{ xs }], runId: 'f' }, [{ kind: 'abortOn', when }]);
    expect(run.processes).toBe(2);
    expect(run.done.filter((e) => e.process === 2)).toEqual([]);
    expect(run.result.items[0]?.data.out).toBe(20);
    // The winner decided the gather before the restart: the resumed run does not wait for the others.
    expect(run.clocks[1]?.now()).toBe(0);
    const children = await store.listCheckpoints('f');
    expect(
      children
        .filter((c) => c.itemId !== '1')
        .map((c) => [c.itemId, c.ending?.kind])
        .sort(),
    ).toEqual([
      ['1.0', 'aborted'],
      ['1.1', 'terminal'],
      ['1.2', 'aborted'],
    ]);
    await store.close();
  });

  it.each([
    ['dies', { kind: 'freeze', commits: 2 } as Crash],
    ['is aborted', { kind: 'abortOn', when: first('placement.start') } as Crash],
  ])('a run that %s during its pre phase runs the pre phase when resumed', async (_how, crash) => {
    const store = await open();
    const run = await through(store, { dag: phasedDag('urn:t:phase'), items: [{}], runId: 'pre' }, [crash]);
    expect(run.processes).toBe(2);
    // Process 1 stopped before `setup` was recorded as done: the resumed run must not go on as though it was.
    expect(run.done.filter((e) => e.process === 2).map((e) => `${e.item}|${e.placement}`)).toEqual([
      'run|setup',
      '1|compose',
      'run|teardown',
    ]);
    await store.close();
  });

  it('records an ending once in the event stream, whatever commit the process died after', async () => {
    // An item whose node throws: its `placement.end` and `item.failed`, and the checkpoint of its ending.
    const solo = dag('urn:t:solo', { name: 'solo', version: '1' })
      .entry('work')
      .task('work', 'urn:t:work')
      .route('ok', 'done')
      .terminal('done', 'completed')
      .build();
    const found: string[] = [];
    for (let commits = 1; commits <= 6; commits++) {
      const store = await open();
      const runId = `solo-${commits}`;
      const first = { dag: solo, items: [{ throws: 400 }], runId };
      const run = await through(store, first, [{ kind: 'freeze', commits }]);
      expect(run.result.failures.map((f) => f.error.code)).toEqual(['E_NODE_ERROR']);
      const problems = streamProblems(await storedEvents(store, runId), 1);
      found.push(...problems.map((p) => `died after commit ${commits}: ${p}`));
      await store.close();
    }
    expect(found).toEqual([]);
  });

  it('a resumed run numbers its events on from the recorded ones and says it resumed', async () => {
    const store = await open();
    const seen: RunEvent[][] = [[], []];
    const log = newLog();
    const controller = new AbortController();
    const p1 = { n: 1, clock: processClock(), dead: () => false };
    await scenarioDispatcher(p1, log, store).run(
      retryDag,
      {},
      {
        runId: 'ev',
        signal: controller.signal,
        onEvent: (e) => {
          seen[0]?.push(e);
          if (e.type === 'retry.scheduled') controller.abort();
        },
      },
    );
    const p2 = { n: 2, clock: processClock(), dead: () => false };
    await scenarioDispatcher(p2, log, store).resume('ev', { onEvent: (e) => seen[1]?.push(e) });
    const [before, after] = seen as [RunEvent[], RunEvent[]];
    expect(after[0]).toMatchObject({ type: 'run.start', resumed: true, seq: (before.at(-1)?.seq ?? -1) + 1 });
    const stored = await storedEvents(store, 'ev');
    expect(stored.map((e) => e.seq)).toEqual([...before, ...after].map((e) => e.seq));
    expect(stored.filter((e) => e.type === 'run.end').map((e) => (e as { status: string }).status)).toEqual([
      'aborted',
      'completed',
    ]);
    expect(streamProblems(stored, 1)).toEqual([]);
    await store.close();
  });
});
