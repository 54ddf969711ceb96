import { randomUUID } from 'node:crypto';
import type { AnswerReceipt, AnswerRequest } from '../awaits/request.ts';
import { hashDag } from '../document/hash.ts';
import type { Dag, DagLibrary } from '../document/model.ts';
import { isSwitchyardError, SwitchyardError } from '../errors.ts';
import type { CompiledDag } from '../graph/compile.ts';
import { systemClock, withWallTime } from '../policy/clock.ts';
import { resolvePolicy } from '../policy/resolve.ts';
import type { Clock, PolicyInput, RuntimePolicy } from '../policy/types.ts';
import { Admissions, reachableDags } from '../runtime/admit.ts';
import type { RunOptions } from '../runtime/dispatcher.ts';
import { EventStream } from '../runtime/event-stream.ts';
import { createItemState } from '../runtime/item-state.ts';
import { type NodeDefinition, type NodeRegistry, registryOf } from '../runtime/node.ts';
import { isCompiled } from '../runtime/prepare.ts';
import { Run } from '../runtime/run.ts';
import {
  admittedItems,
  checkRunOptions,
  givenOptions,
  listenerOf,
  pickEntrypoint,
} from '../runtime/run-options.ts';
import { openRedisStore, RedisRunStore } from '../store/redis.ts';
import { connectRedis } from '../store/redis-connect.ts';
import { runLost } from '../store/store-errors.ts';
import type { RunStore } from '../store/types.ts';
import type { TracerProviderLike } from '../telemetry/span-like.ts';
import { Tracing } from '../telemetry/tracing.ts';
import { type AbortOutcome, abortRun } from './abort.ts';
import { answerDistributed } from './await-answer.ts';
import { itemsEnded } from './deliver.ts';
import { followRun } from './follow.ts';
import { ITEM_JOB_OPTIONS } from './item-processor.ts';
import { type ItemJob, JOB_FORMAT } from './job-data.ts';
import { defaultStorePrefix, runKeys } from './keys.ts';
import { keepLedger, openLedger } from './ledger.ts';
import { addPrePhases } from './phase-jobs.ts';
import { recordRun } from './run-record.ts';
import { specOf } from './run-spec.ts';
import { DEFAULT_PREFIX, DEFAULT_QUEUE } from './worker.ts';
import { WorkerAdmissions } from './worker-admissions.ts';

/** How long a run's ledger lives when its submitter dies before recording the run (ms): a day. */
const UNRECORDED_LEDGER_MS = 86_400_000;

/** Options of {@link createDistributedDispatcher}. */
export interface DistributedDispatcherOptions {
  /** The Redis URL (redis://host:port) the workers use too. */
  readonly connection: string;
  /**
   * The nodes, to admit documents as a local dispatcher does (the workers run them). Without them a run's
   * documents are checked (structure, references, the termination proof) but not against any node: each
   * worker checks the nodes it carries, and hands on a job whose node it lacks.
   */
  readonly nodes?: NodeRegistry | readonly NodeDefinition<string, never>[];
  /** A resolved policy or a policy as written; default the defaults. It travels with each run to the workers. */
  readonly policy?: RuntimePolicy | PolicyInput;
  /** Documents that embed and scatter placements name by IRI. */
  readonly library?: DagLibrary;
  /** The queue to submit to; default {@link DEFAULT_QUEUE}. */
  readonly queue?: string;
  /** The key prefix (the workers' must be the same); default {@link DEFAULT_PREFIX}. */
  readonly prefix?: string;
  /**
   * The Redis run store runs are recorded in (see `openRedisStore`), on the workers' Redis: the run, every
   * event and each input item's ending, which the workers write, and the status the last of them writes;
   * any machine lists and shows the runs from it. Default a store under `<prefix>:store:` on the same
   * Redis, opened and closed by the dispatcher.
   */
  readonly store?: RunStore;
  /**
   * Time for following runs (events' times, the run deadline's wall time); default {@link systemClock}. A
   * clock without `wallNow` reads the system's wall time. The workers' own clocks time their jobs.
   */
  readonly clock?: Clock;
  /**
   * Traces each run through this provider: the run's span is made here, and its context travels with the
   * run to the workers, whose spans (given a provider of their own, `startWorker({ tracerProvider })`) join
   * its trace. The span of a followed run (`run`) ends with the run; that of a submitted one (`submit`)
   * once its jobs are on the queue. Default none: nothing loaded.
   */
  readonly tracerProvider?: TracerProviderLike;
}

/** The options of a distributed run: those of a local run that cross processes. */
export type DistributedRunOptions = Pick<
  RunOptions,
  'items' | 'entrypoint' | 'runId' | 'onEvent' | 'deadlineMs'
>;

/** Options of {@link DistributedDispatcher.abort}. */
export interface DistributedAbortOptions {
  /** The reason recorded with the abort; default `aborted on request`. */
  readonly reason?: string;
  /** How long to wait for the run to end (ms), taking its waiting jobs off the queue meanwhile; default 30000. */
  readonly waitMs?: number;
}

/** Runs DAG documents on the workers of a queue, with the `run` of a local dispatcher. */
export interface DistributedDispatcher {
  /**
   * Submits a run and follows it from the run store: await it for the same {@link RunResult} a local run
   * gives, or iterate its events.
   */
  run(dag: Dag | CompiledDag, input?: Record<string, unknown>, options?: DistributedRunOptions): Run;
  /**
   * Submits a run and answers its id once its jobs are on the queue, without following it: the workers
   * carry it to its end and record it in the run store (`onEvent` is not called).
   */
  submit(
    dag: Dag | CompiledDag,
    input?: Record<string, unknown>,
    options?: DistributedRunOptions,
  ): Promise<string>;
  /**
   * Aborts a run submitted on this queue by any process (see `abort.ts`), with a reason (a string, or in
   * the options), and waits for it to end; answers its status then. `E_STORE_UNKNOWN_RUN` for a run the store does not hold, `E_RUN_FINISHED` for one that
   * ended.
   */
  abort(runId: string, reason?: string | DistributedAbortOptions): Promise<AbortOutcome>;
  /**
   * Answers an item parked at an await placement of a run on this queue, from any process (see
   * `await-answer.ts`): by token, or by item and placement, as a local dispatcher's `answer`. Answers
   * `taken` when the item is parked (a worker carries it on), `kept` when it has not parked yet (it takes
   * the answer when it does). The same refusals as a local dispatcher's, changing nothing: `E_ANSWER` (an
   * output the placement does not expect, listed in the message; data it does not take; an item past its
   * deadline), `E_ALREADY_ANSWERED`, `E_UNKNOWN_TOKEN`, and `E_RUN_FINISHED` for a run that ended.
   * @example
   * await dispatcher.answer({ runId, token: 'aw-3f9c…', output: 'approved', data: { note: 'ship it' } });
   */
  answer(request: AnswerRequest): Promise<AnswerReceipt>;
  readonly policy: RuntimePolicy;
  /** The run store the runs are recorded in. */
  readonly store: RunStore;
  /**
   * Closes the dispatcher's connections; runs it follows stop being followed (the workers carry them on).
   * A submission under way finishes first, so that no run is left recorded without its jobs; one asked for
   * after close() is refused with `E_ABORTED`.
   */
  close(): Promise<void>;
}

/**
 * Creates a dispatcher whose runs are carried by workers ({@link startWorker}) on other processes or
 * machines: each input item becomes a BullMQ job, and the result and events come back as a local run's.
 * @example
 * const dispatcher = await createDistributedDispatcher({ connection: 'redis://127.0.0.1:6379', nodes });
 * const result = await dispatcher.run(dag, { topic: 'whales' });
 */
export async function createDistributedDispatcher(
  options: DistributedDispatcherOptions,
): Promise<DistributedDispatcher> {
  const policy = resolvePolicy(options.policy);
  const admissions =
    options.nodes === undefined
      ? new WorkerAdmissions(registryOf([]), options.library ?? { get: () => undefined }, policy)
      : new Admissions(registryOf(options.nodes), options.library, policy);
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const given = options.store;
  if (given !== undefined && !(given instanceof RedisRunStore)) {
    throw new SwitchyardError(
      'E_USAGE',
      `a distributed dispatcher records runs in a Redis run store (openRedisStore) on the workers' Redis, not in ${given.location}`,
    );
  }
  const { redis } = await connectRedis(options.connection, {});
  const store: RedisRunStore =
    given ?? (await openRedisStore(options.connection, { prefix: defaultStorePrefix(prefix) }));
  // BullMQ is loaded when a distributed dispatcher is made, so that importing the library does not load it.
  const { Queue: QueueClass } = await import('bullmq');
  const queue = new QueueClass(options.queue ?? DEFAULT_QUEUE, { connection: redis, prefix });
  const clock = withWallTime(options.clock ?? systemClock);
  const closing = new AbortController();
  // Submissions under way: close() lets each finish, since one cut off half-way would leave a run recorded
  // as running whose jobs never reached the queue.
  const submitting = new Set<Promise<void>>();
  const provider = options.tracerProvider;
  let tracing: Promise<Tracing> | undefined;

  const submitOnce = async (
    runId: string,
    dag: Dag | CompiledDag,
    input: Record<string, unknown>,
    runOptions: DistributedRunOptions,
    followed?: EventStream,
  ): Promise<void> => {
    if (closing.signal.aborted) {
      throw new SwitchyardError(
        'E_ABORTED',
        `run '${runId}' was not submitted: the dispatcher was closed first`,
      );
    }
    checkRunOptions('distributed', runOptions, input);
    const admitted = admittedItems(runOptions, input);
    const prep = admissions.root(isCompiled(dag) ? dag.dag : dag);
    const compiled = prep.compiled;
    const entry = pickEntrypoint(compiled, runOptions.entrypoint);
    const states = admitted.map((data, i) => createItemState(String(i + 1), data));
    const deadlineMs = runOptions.deadlineMs ?? policy.run.deadlineMs;
    const deadlineAt = deadlineMs === undefined ? undefined : clock.wallNow() + deadlineMs;
    const library = reachableDags(compiled.dag, { get: (iri) => admissions.iri(iri)?.compiled.dag }).slice(1);
    const keys = runKeys(prefix, runId);
    const traced = provider === undefined ? undefined : await traceSubmitted(provider, runId, prep, followed);
    try {
      const traceparent = traced?.traceparent;
      await submitTraced({ runId, prep, entry, states, deadlineMs, deadlineAt, library, keys, traceparent });
    } catch (error) {
      traced?.spans.abandon(error);
      throw error;
    }
    if (followed === undefined) traced?.spans.submitted();
  };

  /** Starts the run's span, ended by the followed run's `run.end` (or at once for a run submitted only). */
  const traceSubmitted = async (
    given: TracerProviderLike,
    runId: string,
    prep: ReturnType<typeof admissions.root>,
    followed: EventStream | undefined,
  ) => {
    tracing ??= Tracing.of(given).catch((error: unknown) => {
      tracing = undefined;
      throw error;
    });
    const dag = prep.compiled.dag;
    const spans = (await tracing).runSpans({
      runId,
      dagIri: dag.id,
      dagName: dag.name || dag.id,
      clock,
      scope: 'run',
    });
    followed?.listen(spans.listener);
    return { spans, traceparent: (await tracing).traceParentOf(spans) };
  };

  /** Records the run, writes its spec (with the `traceparent` of its span) and adds its first jobs. */
  const submitTraced = async (submission: {
    readonly runId: string;
    readonly prep: ReturnType<typeof admissions.root>;
    readonly entry: ReturnType<typeof pickEntrypoint>;
    readonly states: ReturnType<typeof createItemState>[];
    readonly deadlineMs: number | undefined;
    readonly deadlineAt: number | undefined;
    readonly library: Dag[];
    readonly keys: ReturnType<typeof runKeys>;
    readonly traceparent: string | undefined;
  }): Promise<void> => {
    const { runId, prep, entry, states, deadlineMs, deadlineAt, library, keys, traceparent } = submission;
    const compiled = prep.compiled;
    const hash = await hashDag(compiled.dag);
    const dagId = compiled.dag.id;
    const post = compiled.post.length > 0;
    // The ledger first, expiring unless kept: a submitter that dies after recording the run leaves a run
    // that `runs abort` can close (its ledger is there); one that dies before leaves no run and no key.
    await openLedger(
      redis,
      keys,
      {
        items: states.length,
        dag: dagId,
        storePrefix: store.prefix,
        nextSeq: 1,
        post,
      },
      UNRECORDED_LEDGER_MS,
    );
    await recordRun(
      {
        store,
        runId,
        dag: compiled.dag,
        documents: library,
        policy,
        states,
        entrypoint: entry.key,
        deadlineMs,
      },
      clock,
    );
    await keepLedger(redis, keys);
    const runStart = { type: 'run.start', dag: dagId, hash, items: states.length };
    await store
      .commit([
        {
          kind: 'event',
          event: { runId, seq: 0, type: 'run.start', body: { seq: 0, time: 0, runId, ...runStart } },
        },
      ])
      .catch((error: unknown) => {
        // The run recorded a moment ago is gone: Redis lost its data meanwhile.
        throw isSwitchyardError(error) && error.code === 'E_STORE_UNKNOWN_RUN'
          ? runLost(runId, store.location)
          : error;
      });
    await redis.set(
      keys.spec,
      JSON.stringify(specOf(compiled.dag, library, policy, deadlineAt, states.length, traceparent)),
    );
    // Pre phases run in a worker, whose job adds the items' jobs once they succeed.
    if (compiled.pre.length > 0) return addPrePhases(queue, runId, entry.key, states);
    if (states.length === 0) {
      return itemsEnded({ redis, queue, keys }, runId, store.prefix, post, clock);
    }
    await queue.addBulk(
      states.map((state) => {
        const data: ItemJob = { v: JOB_FORMAT, kind: 'item', runId, at: entry.key, state, delays: [] };
        return { name: 'item', data, opts: ITEM_JOB_OPTIONS };
      }),
    );
  };

  const submit = (...args: Parameters<typeof submitOnce>): Promise<void> => {
    const submission = submitOnce(...args);
    submitting.add(submission);
    const settle = () => submitting.delete(submission);
    submission.then(settle, settle);
    return submission;
  };

  return {
    policy,
    store,
    run(dag, input = {}, runOptions = {}) {
      const given = givenOptions(runOptions);
      const runId = typeof given.runId === 'string' ? given.runId : randomUUID();
      const stream = new EventStream(runId, () => clock.now());
      const onEvent = listenerOf(runOptions);
      if (onEvent) stream.listen(onEvent);
      const result = submit(runId, dag, input, runOptions, stream).then(() =>
        followRun(
          { redis, store, keys: runKeys(prefix, runId), runId, clock, signal: closing.signal },
          stream,
        ),
      );
      result.then(
        () => stream.close(),
        (error: unknown) => stream.close({ error }),
      );
      return new Run(runId, result, stream);
    },
    async submit(dag, input = {}, runOptions = {}) {
      const given = givenOptions(runOptions);
      const runId = typeof given.runId === 'string' ? given.runId : randomUUID();
      await submit(runId, dag, input, runOptions);
      return runId;
    },
    abort(runId, reason) {
      const asked: DistributedAbortOptions = typeof reason === 'string' ? { reason } : (reason ?? {});
      return abortRun({ redis, queue, prefix, store, clock }, runId, asked.reason, asked.waitMs);
    },
    answer(request) {
      return answerDistributed({ redis, queue, prefix, store, clock }, request);
    },
    async close() {
      closing.abort();
      await Promise.allSettled(submitting);
      await queue.close();
      if (given === undefined) await store.close();
      await redis.quit().catch(() => undefined);
    },
  };
}
