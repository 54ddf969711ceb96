import { hostname } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { LEASE_TTL_MS } from '../../src/runtime/durable-run.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import type { RunStore } from '../../src/store/types.ts';
import { removeScratchKeys, scratchRedisStore } from '../store/redis-scratch.ts';
import {
  freezingStore,
  processClock,
  removeTempStores,
  snapshotRun,
  tempSqliteStore,
  WALL_START,
} from './helpers.ts';
import {
  childDag,
  embedDag,
  LIBRARY,
  newLog,
  POLICY,
  type Process,
  retryDag,
  scenarioDispatcher,
  scenarioNodes,
} from './helpers-scenarios.ts';

afterAll(async () => {
  removeTempStores();
  await removeScratchKeys();
});

const live = (n: number, wall = WALL_START): Process => ({ n, clock: processClock(wall), dead: () => false });

/** A run of `retryDag` aborted at its first back-off, left resumable in `store`. */
async function abortedRun(store: RunStore, runId: string, files?: Record<string, string>) {
  const controller = new AbortController();
  const result = await scenarioDispatcher(live(1), newLog(), store).run(
    retryDag,
    {},
    {
      runId,
      signal: controller.signal,
      ...(files === undefined ? {} : { files }),
      onEvent: (e) => (e.type === 'retry.scheduled' ? controller.abort() : undefined),
    },
  );
  expect(result.status).toBe('aborted');
}

/** What `run` rejects with (undefined when it resolves). */
const failure = (run: PromiseLike<unknown>): Promise<unknown> =>
  Promise.resolve(run).then(
    () => undefined,
    (error: unknown) => error,
  );

const STORES: readonly [string, () => Promise<RunStore>][] = [
  ['memory', async () => createMemoryStore()],
  ['SQLite', tempSqliteStore],
  ['Redis', () => scratchRedisStore()],
];

describe.each(STORES)('resume guards (%s store)', (_name, open) => {
  it('refuses an unknown run id, naming the store', async () => {
    const store = await open();
    const run = scenarioDispatcher(live(1), newLog(), store).resume('no-such-run');
    await expect(run).rejects.toMatchObject({ code: 'E_RESUME_UNKNOWN_RUN' });
    await expect(run).rejects.toThrow(store.location);
    await store.close();
  });

  it('refuses a run that completed or failed, and changes nothing', async () => {
    const store = await open();
    const done = await scenarioDispatcher(live(1), newLog(), store).run(retryDag, {}, { runId: 'done' });
    expect(done.status).toBe('completed');
    const failing = dag('urn:t:fails', { name: 'fails', version: '1' })
      .entry('compose')
      .task('compose', 'urn:t:compose')
      .route('drafted', 'bad')
      .terminal('bad', 'failed')
      .build();
    const failed = await scenarioDispatcher(live(1), newLog(), store).run(failing, {}, { runId: 'failed' });
    expect(failed.status).toBe('failed');
    for (const id of ['done', 'failed']) {
      const before = await snapshotRun(store, id);
      const again = scenarioDispatcher(live(2), newLog(), store).resume(id);
      await expect(again).rejects.toMatchObject({ code: 'E_RUN_FINISHED' });
      expect(await snapshotRun(store, id)).toEqual(before);
    }
    await store.close();
  });

  it('refuses a changed DAG or embedded document, naming both hashes and the file', async () => {
    const store = await open();
    await abortedRun(store, 'changed', { 'urn:t:retry': '/dags/retry.jsonld' });
    const before = await snapshotRun(store, 'changed');
    const recorded = (await store.getRun('changed'))?.dag.hash as string;
    const changed = { ...retryDag, budgets: retryDag.budgets.map((b) => ({ ...b, max: b.max + 1 })) };
    const run = scenarioDispatcher(live(2), newLog(), store).resume('changed', { dag: changed });
    await expect(run).rejects.toMatchObject({ code: 'E_RESUME_DAG_CHANGED' });
    const message = String(await failure(run));
    expect(message).toContain(recorded);
    expect(message).toContain('/dags/retry.jsonld');
    expect(message).toMatch(/now has hash [0-9a-f]{64}/);
    expect(await snapshotRun(store, 'changed')).toEqual(before);

    // An embedded document the library now holds in another version.
    const controller = new AbortController();
    await scenarioDispatcher(live(1), newLog(), store).run(
      embedDag,
      { tries: 3 },
      {
        runId: 'inner-changed',
        signal: controller.signal,
        onEvent: (e) => (e.type === 'retry.scheduled' ? controller.abort() : undefined),
      },
    );
    const child = { ...childDag, budgets: childDag.budgets.map((b) => ({ ...b, max: b.max + 1 })) };
    const library = { get: (iri: string) => (iri === child.id ? child : undefined) };
    const nodes = scenarioNodes(live(2), newLog());
    const inner = createDispatcher({ nodes, store, library, policy: POLICY, clock: processClock() });
    await expect(inner.resume('inner-changed')).rejects.toThrow(/urn:t:child.*changed since run/);
    await store.close();
  });

  it('refuses a run recorded in a newer format, naming the version', async () => {
    const store = await open();
    await abortedRun(store, 'old');
    const record = await store.getRun('old');
    if (record === undefined) throw new Error('no record');
    await store.commit([
      { kind: 'run', run: { ...record, id: 'newer', formatVersion: 99, engineVersion: '9.9.9' } },
    ]);
    const before = await snapshotRun(store, 'newer');
    const run = scenarioDispatcher(live(2), newLog(), store).resume('newer');
    await expect(run).rejects.toMatchObject({ code: 'E_RESUME_NEWER_RUN' });
    await expect(run).rejects.toThrow(/9\.9\.9/);
    expect(await snapshotRun(store, 'newer')).toEqual(before);
    await store.close();
  });

  it('refuses a run whose nodes the dispatcher no longer has, with one clear line, changing nothing', async () => {
    const store = await open();
    await abortedRun(store, 'lost-node');
    const before = await snapshotRun(store, 'lost-node');
    const nodes = scenarioNodes(live(2), newLog()).filter((n) => n.id !== 'urn:t:salvage');
    const dispatcher = createDispatcher({
      nodes,
      store,
      policy: POLICY,
      library: LIBRARY,
      clock: processClock(),
    });
    const error = (await failure(dispatcher.resume('lost-node'))) as Error & { code: string };
    expect(error.code).toBe('E_NODE_NOT_REGISTERED');
    expect(error.message).toContain('urn:t:salvage');
    expect(error.message).not.toContain('\n');
    expect(await snapshotRun(store, 'lost-node')).toEqual(before);
    // With the node back, the run goes on.
    const result = await scenarioDispatcher(live(3), newLog(), store).resume('lost-node');
    expect(result.status).toBe('completed');
    await store.close();
  });

  it('refuses a second resume while the run is live, naming the holder; then resumes once it stopped', async () => {
    const store = await open();
    await abortedRun(store, 'held');
    const clock = createVirtualClock({ wallStart: WALL_START });
    let emitted: number | undefined;
    const running = scenarioDispatcher({ n: 2, clock, dead: () => false }, newLog(), store).resume('held', {
      onEvent: (e) => {
        emitted = e.seq;
      },
    });
    let finished = false;
    const end = () => {
      finished = true;
    };
    running.then(end, end);
    const completed = running.then((r) => expect(r.status).toBe('completed'));
    // The run is live once its item sleeps out the back-off (beside the heartbeat) in a process whose clock
    // stands still, and all it emitted is in the store (which a store on the network takes turns to do).
    const stored = async () => emitted === undefined || (await store.lastEventSeq('held')) === emitted;
    while (clock.pending() < 2 || !(await stored())) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const before = await snapshotRun(store, 'held');
    const second = scenarioDispatcher(live(3), newLog(), store).resume('held');
    await expect(second).rejects.toMatchObject({ code: 'E_STORE_LEASE_HELD' });
    await expect(second).rejects.toThrow(String(process.pid));
    await expect(second).rejects.toThrow(hostname());
    expect(await snapshotRun(store, 'held')).toEqual(before);
    // A store on the network keeps the run busy between the clock's sleeps: move the clock until it ends.
    while (!finished) {
      await clock.runUntilIdle();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await completed;
    expect((await store.getRun('held'))?.status).toBe('completed');
    expect(await store.getLease('held')).toBeUndefined();
    await store.close();
  });
});

describe('a lease that stopped beating', () => {
  it('is refused until it expires, then taken over by the next resume (memory store, virtual wall time)', async () => {
    const store = createMemoryStore();
    const frozen = freezingStore(store, 3);
    const dead: Process = { n: 1, clock: processClock(), dead: () => frozen.dead };
    void scenarioDispatcher(dead, newLog(), frozen.store).run(retryDag, {}, { runId: 'stale' });
    await frozen.died;
    const lease = await store.getLease('stale');
    expect(lease?.expiresAt).toBe(WALL_START + LEASE_TTL_MS);
    const before = await snapshotRun(store, 'stale');
    const early = scenarioDispatcher(live(2, WALL_START + LEASE_TTL_MS - 1), newLog(), store).resume('stale');
    await expect(early).rejects.toMatchObject({ code: 'E_STORE_LEASE_HELD' });
    expect(await snapshotRun(store, 'stale')).toEqual(before);
    const result = await scenarioDispatcher(live(3, WALL_START + LEASE_TTL_MS), newLog(), store).resume(
      'stale',
    );
    expect(result.status).toBe('completed');
    expect((await store.getRun('stale'))?.status).toBe('completed');
  });
});

describe('a process that stalled past its lease', () => {
  it('writes nothing once another process took the run over, and its run fails', async () => {
    const store = createMemoryStore();
    const stalled = createVirtualClock({ wallStart: WALL_START });
    const log = newLog();
    let scheduled: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => {
      scheduled = resolve;
    });
    const first = scenarioDispatcher({ n: 1, clock: stalled, dead: () => false }, log, store).run(
      retryDag,
      {},
      { runId: 'taken', onEvent: (e) => (e.type === 'retry.scheduled' ? scheduled() : undefined) },
    );
    const outcome = failure(first);
    await waiting;
    await new Promise((resolve) => setImmediate(resolve));
    // Its clock stood still past the lease's expiry (no heartbeat): another process takes the run over.
    const other = live(2, WALL_START + LEASE_TTL_MS);
    const result = await scenarioDispatcher(other, log, store).resume('taken');
    expect(result.status).toBe('completed');
    const before = await snapshotRun(store, 'taken');
    await stalled.advance(LEASE_TTL_MS);
    // Every batch is fenced by the lease: the first write after the takeover is refused as such.
    expect(await outcome).toMatchObject({ name: 'SwitchyardError', code: 'E_STORE_LEASE_LOST' });
    expect(await snapshotRun(store, 'taken')).toEqual(before);
  });
});
