import { randomInt, randomUUID } from 'node:crypto';
import { hashDag } from '../document/hash.ts';
import type { Dag, DagLibrary } from '../document/model.ts';
import { SwitchyardError } from '../errors.ts';
import type { CompiledDag } from '../graph/compile.ts';
import { systemClock, withWallTime } from '../policy/clock.ts';
import { defaultPolicy } from '../policy/defaults.ts';
import { seededRandom } from '../policy/random.ts';
import { isResolvedPolicy, resolvePolicy } from '../policy/resolve.ts';
import type { Clock, PolicyInput, Random, RuntimePolicy } from '../policy/types.ts';
import { Admissions } from './admit.ts';
import { copyJson } from './copy.ts';
import { EventStream } from './event-stream.ts';
import type { RunEvent } from './events.ts';
import { executeRun } from './execute-run.ts';
import { createItemState, type ItemState, restoreItemState } from './item-state.ts';
import { createRegistry, type NodeDefinition, type NodeRegistry } from './node.ts';
import { Run, type RunResult } from './run.ts';
import type { RunEnvironment } from './runner.ts';

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
}

/** Options of one run. */
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
  /** Default a random UUID. */
  readonly runId?: string;
  /**
   * Called with every event, synchronously, in order; the run does not wait for a promise it returns. An
   * error it throws, or the rejection of its promise (an `async` listener), does not stop the run: it is
   * reported in {@link RunResult.listenerErrors} (a rejection that comes after the result is made is still
   * caught, never left unhandled).
   */
  readonly onEvent?: (event: RunEvent) => unknown;
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
  const registry: NodeRegistry =
    'get' in options.nodes && typeof options.nodes.get === 'function'
      ? (options.nodes as NodeRegistry)
      : createRegistry(options.nodes as readonly NodeDefinition<string, never>[]);
  const policy =
    options.policy === undefined
      ? defaultPolicy
      : isResolvedPolicy(options.policy)
        ? options.policy
        : resolvePolicy(options.policy);
  const library = options.library;
  const admissions = new Admissions(registry, library, policy);
  const env: RunEnvironment = {
    services: options.services,
    policy,
    clock: withWallTime(options.clock ?? systemClock),
    random: options.random ?? seededRandom(randomInt(0, 2 ** 32)),
    library,
    prepareDag: (dag) => admissions.root(dag),
    prepareIri: (iri) => admissions.iri(iri),
  };

  return {
    policy,
    run(dag, input = {}, runOptions = {}) {
      const runId = runOptions.runId ?? randomUUID();
      const clock = env.clock;
      const stream = new EventStream(runId, () => clock.now());
      if (runOptions.onEvent) stream.listen(runOptions.onEvent);
      const settled = Promise.resolve().then(() => {
        checkDeadline(runOptions.deadlineMs);
        const prep = admissions.root(dag);
        const compiled = prep.compiled;
        const entrypoint = pickEntrypoint(compiled, runOptions.entrypoint);
        const states =
          runOptions.resume?.map((saved) => restoreItemState(saved)) ??
          (runOptions.items ?? [input]).map((data, i) => createItemState(String(i + 1), copyJson(data)));
        return executeRun(env, prep, entrypoint, states, runOptions, stream, runId, hashDag(compiled.dag));
      });
      // Only a listener can fail after the result is assembled; without one the result stands as it is.
      const result = runOptions.onEvent ? settled.then((done) => withListenerErrors(done, stream)) : settled;
      result.then(
        () => stream.close(),
        (error: unknown) => stream.close({ error }),
      );
      return new Run(runId, result, stream);
    },
  };
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

/** Refuses a run deadline that is not a finite number of milliseconds above 0. */
function checkDeadline(deadlineMs: unknown): void {
  if (deadlineMs === undefined) return;
  if (typeof deadlineMs === 'number' && Number.isFinite(deadlineMs) && deadlineMs > 0) return;
  const shown =
    typeof deadlineMs === 'number'
      ? String(deadlineMs)
      : typeof deadlineMs === 'string'
        ? JSON.stringify(deadlineMs.slice(0, 40))
        : deadlineMs === null
          ? 'null'
          : `a ${typeof deadlineMs}`;
  throw new SwitchyardError(
    'E_INPUT',
    `the run option deadlineMs is ${shown}; give a finite number of milliseconds above 0, or leave it out for no deadline`,
  );
}

function pickEntrypoint(compiled: CompiledDag, key: string | undefined) {
  if (key === undefined) {
    const first = compiled.entrypoints[0];
    if (first === undefined) {
      throw new SwitchyardError(
        'E_DANGLING_ENTRYPOINT',
        `DAG '${compiled.dag.id}' has no entrypoint; declare one`,
      );
    }
    return first;
  }
  const entry = compiled.entrypoints.find((e) => e.key === key);
  if (entry === undefined) {
    const known = compiled.entrypoints.map((e) => e.key).join(', ');
    throw new SwitchyardError(
      'E_INPUT',
      `'${key}' is not an entrypoint of '${compiled.dag.id}'; use one of: ${known}`,
    );
  }
  return entry;
}
