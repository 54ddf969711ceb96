import { randomInt, randomUUID } from 'node:crypto';
import type { AnswerReceipt, AnswerRequest } from '../awaits/request.ts';
import { hashDag } from '../document/hash.ts';
import type { Dag, DagLibrary } from '../document/model.ts';
import { SwitchyardError } from '../errors.ts';
import { LocalGates } from '../gates/local-gates.ts';
import type { CompiledDag } from '../graph/compile.ts';
import { systemClock, withWallTime } from '../policy/clock.ts';
import { defaultPolicy } from '../policy/defaults.ts';
import { seededRandom } from '../policy/random.ts';
import { resolvePolicy } from '../policy/resolve.ts';
import type { Clock, PolicyInput, Random, RuntimePolicy } from '../policy/types.ts';
import type { RunRecord, RunStore } from '../store/types.ts';
import type { TracerProviderLike } from '../telemetry/span-like.ts';
import { Tracing } from '../telemetry/tracing.ts';
import { Admissions, reachableDags } from './admit.ts';
import { answerRun, type LiveRuns } from './answer.ts';
import { copyJson } from './copy.ts';
import { beginDurable, DurableRun, type RecordedOptions, takeLease } from './durable-run.ts';
import { EventStream } from './event-stream.ts';
import type { RunEvent } from './events.ts';
import { executeRun } from './execute-run.ts';
import { admitItemData } from './item-data.ts';
import { createItemState, type ItemState, restoreItemState } from './item-state.ts';
import { type NodeDefinition, type NodeRegistry, registryOf } from './node.ts';
import { isCompiled } from './prepare.ts';
import { Recorder } from './recorder.ts';
import { restoreRecordedGates } from './resume-gates.ts';
import { readRecordedRun, recordedItems } from './resume-run.ts';
import { Run, type RunResult } from './run.ts';
import { admittedItems, checkRunOptions, givenOptions, listenerOf, pickEntrypoint } from './run-options.ts';
import type { RunEnvironment } from './runner.ts';
import { endingTraced, type TracedRun, traceRun } from './traced-run.ts';

/** Options of {@link createDispatcher}; everything but `nodes` has a default. */
export interface DispatcherOptions<S = unknown> {
  /** The node implementations, as a registry or a list. */
  readonly nodes: NodeRegistry | readonly NodeDefinition<string, never>[];
  /** Handed to every node as `ctx.services`; default `undefined`. */
  readonly services?: S;
  /** A resolved policy, or a policy as written (resolved once here); default {@link defaultPolicy}. */
  readonly policy?: RuntimePolicy | PolicyInput;
  /** Time and sleeps; default {@link systemClock}. A clock without `wallNow` reads the system's wall time. */
  readonly clock?: Clock;
  /** Jitter source; default a {@link seededRandom} generator seeded from `node:crypto` when the dispatcher is made. */
  readonly random?: Random;
  /** Documents that embed and scatter placements name by IRI; default none. */
  readonly library?: DagLibrary;
  /**
   * Where runs are recorded, so that they can be resumed after a crash and looked at afterwards; default
   * none (runs live in memory only). A run may choose another store, or none, in {@link RunOptions.store}.
   */
  readonly store?: RunStore;
  /**
   * Traces every run with OpenTelemetry through this provider (an SDK's `BasicTracerProvider`,
   * `NodeTracerProvider`, …): a span per run, per placement execution and per wait, made from the run's
   * events (docs/TELEMETRY.md lists them). `@opentelemetry/api` is loaded on the first run, and only then;
   * default none: no tracing, nothing loaded.
   */
  readonly tracerProvider?: TracerProviderLike;
}

/**
 * Options of one run, checked before the run starts (`run-options.ts`, as a distributed run's are): a value
 * of the wrong kind, or an option not listed here, refuses the run with `E_INPUT`.
 */
export interface RunOptions {
  /** Aborting it stops every wait at once; the result lists where each item stopped. */
  readonly signal?: AbortSignal;
  /**
   * The run deadline in ms from the start, a finite number above 0; default the policy's `run.deadlineMs`
   * (none). Anything else (0, negative, NaN, Infinity, a string) refuses the run with `E_INPUT`: leave it out
   * for no deadline.
   */
  readonly deadlineMs?: number;
  /** Several input items (ids '1', '2', …) instead of the single `input`; each is copied, as `input` is. */
  readonly items?: readonly Record<string, unknown>[];
  /**
   * Checkpointed item states to run again from the entrypoint instead of `input`/`items`: data, budgets,
   * journal (recorded steps are not run again, those of embeds and scatter children included), trail and
   * visits are kept. They are copied: the run never writes into these objects.
   */
  readonly resume?: readonly ItemState[];
  /** The entrypoint key to start at; default the document's first entrypoint. */
  readonly entrypoint?: string;
  /** Default a random UUID; 1 to 200 printable characters without `{` or `}` (else `E_INPUT`). */
  readonly runId?: string;
  /**
   * Called with every event, synchronously, in order; the run does not wait for a promise it returns. An
   * error it throws, or the rejection of its promise (an `async` listener), does not stop the run: it is
   * reported in {@link RunResult.listenerErrors} (a rejection that comes after the result is made is still
   * caught, never left unhandled).
   */
  readonly onEvent?: (event: RunEvent) => unknown;
  /**
   * The store this run is recorded in; `false` records nothing even when the dispatcher has a store. A
   * recorded run writes its record, each item's checkpoint at every transition, each step value and each
   * event, and holds the run's lease while it runs; `runId` is its id in the store.
   */
  readonly store?: RunStore | false;
  /** The file each document came from, by IRI: recorded with the run and named when a resume finds it changed. */
  readonly files?: Readonly<Record<string, string>>;
  /**
   * What the run does once every item left is parked at an await placement: `wait` (default) keeps the
   * process waiting for answers and deadlines; `stop` ends the run with status `waiting`, its parked items
   * in {@link RunResult.parked}, so that it holds no process until an answer or a resume moves it on. A
   * recorded run only: `stop` without a store is refused with `E_INPUT`.
   */
  readonly whenParked?: 'wait' | 'stop';
}

/** Options of {@link Dispatcher.resume}. */
export interface ResumeOptions {
  /** The store the run is recorded in; default the dispatcher's. */
  readonly store?: RunStore;
  /**
   * The run's DAG as it is now; default the document recorded with the run. Refused with
   * `E_RESUME_DAG_CHANGED` when its hash differs from the recorded one, as is any embedded document the
   * library holds in another version.
   */
  readonly dag?: Dag;
  readonly signal?: AbortSignal;
  /** The run deadline in ms from the resume (as {@link RunOptions.deadlineMs}). */
  readonly deadlineMs?: number;
  readonly onEvent?: (event: RunEvent) => unknown;
  /** As {@link RunOptions.whenParked}. */
  readonly whenParked?: 'wait' | 'stop';
}

/** Runs DAG documents with one set of nodes, services, policy, clock and random source. */
export interface Dispatcher {
  /**
   * Starts a run over `input` (or `options.items`). The first run of a DAG object admits it: it and the
   * documents it embeds or scatters over are copied, frozen and checked like `analyse` does, and the run
   * rejects with the first problem's code (e.g. `E_UNBOUNDED_LOOP`, every problem in `error.problems`).
   * Runs use the admitted copies, so changing the object afterwards has no effect; pass a new object to run a
   * changed document. A library document is admitted again whenever the library returns another object for
   * its IRI. The returned {@link Run} is awaitable (the result) and async-iterable (the events); the run
   * starts on the next microtask, so iterate it right away.
   */
  run(dag: Dag | CompiledDag, input?: Record<string, unknown>, options?: RunOptions): Run;
  /**
   * Goes on with a recorded run where each item stood: an item waiting until a time sleeps only what is
   * left of the wait, budgets, journal and visits go on from their checkpoints, a scatter runs only its
   * unfinished children and an embedded run goes on inside its parent. Refused with `E_RESUME_UNKNOWN_RUN`,
   * `E_RUN_FINISHED`, `E_RESUME_NEWER_RUN`, `E_RESUME_DAG_CHANGED`, or `E_STORE_LEASE_HELD` while another
   * process holds the run. The result covers every input item, those that ended before the restart too;
   * its `stats` count the work done since the resume.
   * @example
   * const result = await createDispatcher({ nodes, store }).resume(runId);
   */
  resume(runId: string, options?: ResumeOptions): Run;
  /**
   * Answers an item parked (or yet to park) at an await placement, by its token or by item and placement:
   * a run this dispatcher carries out now takes it at once (a durable one records it first); another run
   * has it recorded in `store` (default the dispatcher's) and takes it when it goes on (`resume`). The
   * output must be one of the placement's answers and data is taken only by a placement with `into`
   * (`E_ANSWER`, listing what is expected); a second answer is refused with `E_ALREADY_ANSWERED`. A refusal
   * changes nothing.
   * @example
   * await dispatcher.answer({ runId, token: 'aw-3f9c…', output: 'approved', data: { note: 'ship it' } });
   */
  answer(request: AnswerRequest, options?: { readonly store?: RunStore }): Promise<AnswerReceipt>;
  /** The resolved policy the dispatcher uses. */
  readonly policy: RuntimePolicy;
}

/**
 * Creates a dispatcher. Admits and compiles each DAG once and resolves its timing once; items then flow independently,
 * each on its own, with retry budgets in the item state and timing from the policy.
 * @example
 * const dispatcher = createDispatcher({ nodes: [compose, validate, salvage], clock: createVirtualClock({ auto: true }) });
 * const result = await dispatcher.run(dag, { topic: 'whales' });
 * result.items[0]?.terminal; // 'done'
 */
export function createDispatcher<S = unknown>(options: DispatcherOptions<S>): Dispatcher {
  const registry = registryOf(options.nodes);
  const policy = resolvePolicy(options.policy);
  const clock = withWallTime(options.clock ?? systemClock);
  const random = options.random ?? seededRandom(randomInt(0, 2 ** 32));
  const gates = new LocalGates(clock);
  const live: LiveRuns = new Map();
  const environment = (library: DagLibrary | undefined): RunEnvironment => {
    const admissions = new Admissions(registry, library, policy);
    return {
      services: options.services,
      policy,
      clock,
      random,
      library,
      gates,
      live,
      prepareDag: (dag) => admissions.root(dag),
      prepareIri: (iri) => admissions.iri(iri),
    };
  };
  const env = environment(options.library);
  const provider = options.tracerProvider;
  let tracing: Promise<Tracing> | undefined;
  const tracingOf = (provider: TracerProviderLike) => {
    tracing ??= Tracing.of(provider).catch((error: unknown) => {
      tracing = undefined;
      throw error;
    });
    return tracing;
  };
  const started = (
    runId: string,
    onEvent: RunOptions['onEvent'],
    run: (stream: EventStream) => Promise<RunResult>,
  ) => {
    const stream = new EventStream(runId, () => clock.now());
    if (onEvent) stream.listen(onEvent);
    const settled = Promise.resolve().then(() => run(stream));
    // Only a listener can fail after the result is assembled; without one the result stands as it is.
    const result = onEvent ? settled.then((done) => withListenerErrors(done, stream)) : settled;
    result.then(
      () => stream.close(),
      (error: unknown) => stream.close({ error }),
    );
    return new Run(runId, result, stream);
  };

  return {
    policy,
    answer(request, answerOptions) {
      return answerRun(live, answerOptions?.store ?? options.store, request, clock);
    },
    run(dag, input = {}, runOptions = {}) {
      const given = givenOptions(runOptions);
      const runId = typeof given.runId === 'string' ? given.runId : randomUUID();
      return started(runId, listenerOf(runOptions), (stream) => {
        checkRunOptions('run', runOptions, input);
        const states =
          runOptions.resume?.map((saved, i) => restoreItemState(admittedState(saved, i))) ??
          admittedItems(runOptions, input).map((data, i) => createItemState(String(i + 1), data));
        const store = runOptions.store === false ? undefined : (runOptions.store ?? options.store);
        if (store === undefined && runOptions.whenParked === 'stop') {
          throw new SwitchyardError(
            'E_INPUT',
            "the run option whenParked 'stop' needs a store to keep the parked items in; give store, or leave whenParked out",
          );
        }
        const prep = env.prepareDag(isCompiled(dag) ? dag.dag : dag);
        const compiled = prep.compiled;
        const entrypoint = pickEntrypoint(compiled, runOptions.entrypoint);
        const hashing = hashDag(compiled.dag);
        // A run without a store starts in this turn: a layer of promises per run is a measurable share of a
        // short run's cost.
        if (store === undefined && provider === undefined) {
          return executeRun(env, prep, entrypoint, states, runOptions, stream, runId, hashing);
        }
        const go = (traced?: TracedRun): Promise<RunResult> => {
          const limits = traced === undefined ? runOptions : { ...runOptions, tracing: traced.spans };
          if (store === undefined) {
            return executeRun(env, prep, entrypoint, states, limits, stream, runId, hashing);
          }
          const record = {
            store,
            runId,
            dag: compiled.dag,
            documents: reachableDags(compiled.dag, { get: (iri) => env.prepareIri(iri)?.compiled.dag }).slice(
              1,
            ),
            policy,
            // A copy: nodes change the states before the record is committed.
            input: copyJson(runOptions.resume === undefined ? states.map((state) => state.data) : states),
            options: recordedOptions(entrypoint.key, runOptions, states.length, traced?.traceparent),
          };
          return beginDurable(record, clock).then((durable) =>
            executeRun(env, prep, entrypoint, states, limits, stream, runId, hashing, durable),
          );
        };
        if (provider === undefined) return go();
        return tracingOf(provider).then((loaded) => {
          const traced = traceRun(loaded, stream, env, prep, undefined);
          return endingTraced(
            traced,
            Promise.resolve().then(() => go(traced)),
          );
        });
      });
    },
    resume(runId, resumeOptions = {}) {
      const store = givenOptions(resumeOptions).store ?? options.store;
      return started(runId, listenerOf(resumeOptions), async (stream) => {
        checkRunOptions('resume', resumeOptions);
        if (store === undefined) {
          throw new SwitchyardError(
            'E_INPUT',
            `resuming run '${runId}' needs the store it is recorded in; pass it as store`,
          );
        }
        const recorded = await readRecordedRun(store, runId, resumeOptions.dag, options.library);
        const runEnv = environment(recorded.library);
        const prep = runEnv.prepareDag(recorded.dag);
        const traced =
          provider === undefined
            ? undefined
            : traceRun(await tracingOf(provider), stream, runEnv, prep, recordedTrace(recorded.record));
        const lease = await takeLease(store, runId, clock).catch((error: unknown) => {
          traced?.spans.abandon(error);
          throw error;
        });
        try {
          const items = await recordedItems(store, recorded.record, prep);
          // A gate still closed when the run stopped holds its items back from their first move on.
          const preps = [prep, ...recorded.record.documents.map((doc) => runEnv.prepareIri(doc.iri))];
          await restoreRecordedGates(store, runId, gates, policy, preps, clock.wallNow());
          const last = await store.lastEventSeq(runId);
          if (last !== undefined) stream.continueAfter(last);
          const recorder = new Recorder(store, runId, clock);
          const durable = new DurableRun(recorder, lease, clock, items.book);
          const deadlineMs = resumeOptions.deadlineMs ?? recordedDeadline(recorded.record);
          const limits = {
            ...resumeOptions,
            ...(deadlineMs === undefined ? {} : { deadlineMs }),
            ...(traced === undefined ? {} : { tracing: traced.spans }),
          };
          const hashing = hashDag(prep.compiled.dag);
          return executeRun(
            runEnv,
            prep,
            items.entry,
            items.states,
            limits,
            stream,
            runId,
            hashing,
            durable,
            items,
          );
        } catch (error) {
          traced?.spans.abandon(error);
          await store.releaseLease(lease).catch(() => undefined);
          throw error;
        }
      });
    },
  };
}

/** What a recorded run keeps of its options, to be resumed with the same ones. */
function recordedOptions(
  entrypoint: string,
  options: RunOptions,
  items: number,
  traceparent: string | undefined,
): RecordedOptions {
  const recorded: { -readonly [K in keyof RecordedOptions]: RecordedOptions[K] } = {
    entrypoint,
    items,
    files: { ...(options.files ?? {}) },
  };
  if (options.deadlineMs !== undefined) recorded.deadlineMs = options.deadlineMs;
  if (options.resume !== undefined) recorded.states = true;
  if (traceparent !== undefined) recorded.trace = traceparent;
  return recorded;
}

/** The `traceparent` of the span of a recorded run that was traced, for its resume to go on in its trace. */
function recordedTrace(record: RunRecord): string | undefined {
  const trace = (record.options as Partial<RecordedOptions> | null)?.trace;
  return typeof trace === 'string' ? trace : undefined;
}

/** The run deadline a run was started with, for its resume when none is given. */
function recordedDeadline(record: RunRecord): number | undefined {
  const deadline = (record.options as Partial<RecordedOptions> | null)?.deadlineMs;
  return typeof deadline === 'number' ? deadline : undefined;
}

/**
 * The result with the listener errors counted so far: an async listener's rejection of the last events
 * settles after the result was assembled but before this runs.
 */
function withListenerErrors(result: RunResult, stream: EventStream): RunResult {
  const errors = stream.listenerErrors;
  if (errors === undefined || errors.count === result.listenerErrors?.count) return result;
  return { ...result, listenerErrors: { ...errors } };
}

/**
 * A saved state to run again, its data checked as input data is (see `item-data.ts`): data that is no
 * plain object (a number, null, an array, missing) is refused with `E_ITEM_DATA` as an input item's is.
 */
function admittedState(saved: ItemState, index: number): ItemState {
  return { ...saved, data: admitItemData(saved.data, `resume[${index}].data`) };
}
