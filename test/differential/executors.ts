/**
 * The three executors a case runs through: `createDispatcher` in memory and durable over a SQLite store
 * (both on an auto-advancing virtual clock), and `createDistributedDispatcher` with a worker on the test
 * Redis (real time; the policy keeps every wait short). Every run is bounded: one that does not end in
 * time fails its case instead of hanging the suite.
 */
import { join } from 'node:path';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { defaultStorePrefix } from '../../src/distributed/keys.ts';
import { type DistributedWorker, startWorker } from '../../src/distributed/worker.ts';
import { libraryOf } from '../../src/document/load.ts';
import { seededRandom } from '../../src/policy/random.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import type { NodeDefinition } from '../../src/runtime/node.ts';
import type { RunResult } from '../../src/runtime/run.ts';
import { openRedisStore } from '../../src/store/redis.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { RunStore } from '../../src/store/types.ts';
import { scratchPrefix, TEST_REDIS } from '../store/redis-scratch.ts';
import { type Answerer, answering } from './answer-script.ts';
import type { DiffCase } from './corpus.ts';

export type ExecutorName = 'memory' | 'durable' | 'distributed';

/** A run's result and every event it emitted. */
export interface Executed {
  readonly result: RunResult;
  readonly events: readonly RunEvent[];
  /** The case's scripted answers (see `answer-script.ts`) its dispatcher refused. */
  readonly refused?: readonly string[];
}

/** Where the virtual clocks' wall time starts: after the past HTTP-dates the nodes give, before today. */
const WALL_START = Date.UTC(2026, 0, 1, 12, 0, 0) + 437;

/** How long one run may take before its case fails (a healthy case takes well under a second). */
export const RUN_BOUND_MS = 30_000;

/**
 * How long a distributed run may go without an event before its case fails: its longest wait is a second
 * (a slot's queue delay); every other wait of a case is under 50 ms.
 */
export const QUIET_BOUND_MS = 5_000;

/** A run that did not end within its bound. */
export class TimedOut extends Error {}

/** Settles as `work` does, or rejects with {@link TimedOut} once `ms` passed; `onLate` is told then. */
export function bounded<T>(work: Promise<T>, ms: number, what: string, onLate?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      onLate?.();
      reject(new TimedOut(`${what} did not end within ${ms} ms`));
    }, ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Settles as `work` does, or rejects with {@link TimedOut} once `lastSign()` is `ms` old. */
function untilQuiet<T>(work: Promise<T>, ms: number, lastSign: () => number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const quiet = new Promise<never>((_resolve, reject) => {
    timer = setInterval(() => {
      if (Date.now() - lastSign() > ms) reject(new TimedOut(`${what} went ${ms} ms without an event`));
    }, 100);
  });
  return Promise.race([work, quiet]).finally(() => clearInterval(timer));
}

/** How an executor runs a case, besides the case itself. */
export interface RunAs {
  /**
   * The run's id; default a fresh one. Runs of the same case with the same id give the same answer tokens,
   * so that their events compare with the tokens in.
   */
  readonly runId?: string;
}

/**
 * The run options of a case; a case with an answer script has its parked items answered through `answer`
 * (the dispatcher's), each refusal noted in `refused`.
 */
function runOptions(c: DiffCase, as: RunAs, events: RunEvent[], answer?: Answerer, refused: string[] = []) {
  const answers =
    c.answers === undefined || answer === undefined ? undefined : answering(c.answers, answer, refused);
  return {
    items: c.items as Record<string, unknown>[],
    onEvent: (e: RunEvent) => {
      events.push(e);
      answers?.(e);
    },
    ...(c.deadlineMs === undefined ? {} : { deadlineMs: c.deadlineMs }),
    ...(as.runId === undefined ? {} : { runId: as.runId }),
  };
}

/**
 * An in-process dispatcher's `answer`, called in a microtask after the `await.parked` event that asks for
 * it, as a person who heard of the park answers once the item waits (the event is emitted as it parks).
 */
function later(answer: Answerer): Answerer {
  return (request) => Promise.resolve().then(() => answer(request));
}

/** The case in process, on a virtual clock, recording nothing. */
export async function runInMemory(c: DiffCase, as: RunAs = {}): Promise<Executed> {
  const events: RunEvent[] = [];
  const stop = new AbortController();
  const dispatcher = createDispatcher({
    nodes: c.nodes,
    policy: c.policy,
    library: libraryOf(c.library),
    clock: createVirtualClock({ auto: true, wallStart: WALL_START }),
    random: seededRandom(1),
  });
  const refused: string[] = [];
  const options = runOptions(
    c,
    as,
    events,
    later((request) => dispatcher.answer(request)),
    refused,
  );
  const run = dispatcher.run(c.root, {}, { ...options, signal: stop.signal });
  const result = await bounded(run.result, RUN_BOUND_MS, 'the in-memory run', () => stop.abort());
  return { result, events, refused };
}

/** The case in process, recorded in a SQLite store of its own under `folder`, on a virtual clock. */
export async function runDurable(c: DiffCase, folder: string, as: RunAs = {}): Promise<Executed> {
  const store = await openSqliteStore(join(folder, `case-${c.seed}.db`));
  try {
    const events: RunEvent[] = [];
    const stop = new AbortController();
    const dispatcher = createDispatcher({
      nodes: c.nodes,
      policy: c.policy,
      library: libraryOf(c.library),
      clock: createVirtualClock({ auto: true, wallStart: WALL_START }),
      random: seededRandom(1),
      store,
    });
    const refused: string[] = [];
    const options = runOptions(
      c,
      as,
      events,
      later((request) => dispatcher.answer(request)),
      refused,
    );
    const run = dispatcher.run(c.root, {}, { ...options, signal: stop.signal });
    const result = await bounded(run.result, RUN_BOUND_MS, 'the durable run', () => stop.abort());
    return { result, events, refused };
  } finally {
    await store.close();
  }
}

/**
 * One worker on the test Redis, under a key prefix of its own, carrying the jobs of every case. As the
 * `switchyard worker` command does, it commits step values to the dispatchers' run store.
 */
export class DistributedExecutor {
  private constructor(
    private readonly worker: DistributedWorker,
    private readonly store: RunStore,
    readonly prefix: string,
  ) {}

  /** Starts the worker with the nodes of every case it will carry. */
  static async start(nodes: readonly NodeDefinition<string, never>[]): Promise<DistributedExecutor> {
    const prefix = scratchPrefix();
    const store = await openRedisStore(TEST_REDIS, { prefix: defaultStorePrefix(prefix) });
    const worker = await startWorker({ connection: TEST_REDIS, nodes, prefix, store, concurrency: 4 });
    return new DistributedExecutor(worker, store, prefix);
  }

  /** The case on the worker, submitted by a dispatcher of its own (each case has its policy and library). */
  async run(c: DiffCase, as: RunAs = {}): Promise<Executed> {
    const dispatcher = await createDistributedDispatcher({
      connection: TEST_REDIS,
      nodes: c.nodes,
      policy: c.policy,
      library: libraryOf(c.library),
      prefix: this.prefix,
    });
    try {
      const events: RunEvent[] = [];
      let last = Date.now();
      const refused: string[] = [];
      const options = runOptions(c, as, events, (request) => dispatcher.answer(request), refused);
      const run = dispatcher.run(
        c.root,
        {},
        {
          ...options,
          onEvent: (e) => {
            last = Date.now();
            options.onEvent(e);
          },
        },
      );
      try {
        const quiet = untilQuiet(run.result, QUIET_BOUND_MS, () => last, 'the distributed run');
        const result = await bounded(quiet, RUN_BOUND_MS, 'the distributed run');
        return { result, events, refused };
      } catch (error) {
        // Takes what is left of a run that hangs off the queue, so that it does not run into the next case.
        if (error instanceof TimedOut) {
          await bounded(dispatcher.abort(run.id, { waitMs: 2_000 }), 5_000, 'the abort').catch(
            () => undefined,
          );
        }
        throw error;
      }
    } finally {
      await dispatcher.close();
    }
  }

  async close(): Promise<void> {
    await this.worker.close();
    await this.store.close();
  }
}
