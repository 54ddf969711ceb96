import { archivistNodes } from '../../nodes/archivist/index.ts';
import type { ArchivistServices, AskData } from '../../nodes/archivist/services.ts';
import type { Intent, Memory } from '../../nodes/archivist/types.ts';
import { loadDagFolder } from '../../src/document/load.ts';
import type { Dag, DagLibrary } from '../../src/document/model.ts';
import { SwitchyardError } from '../../src/errors.ts';
import { loadPolicyFile } from '../../src/policy/load.ts';
import type { Clock, PolicyInput, Random, RuntimePolicy } from '../../src/policy/types.ts';
import { createDispatcher, type Dispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import type { RunResult } from '../../src/runtime/run.ts';
import type { RunStore } from '../../src/store/types.ts';
import type { TracerProviderLike } from '../../src/telemetry/span-like.ts';
import type { ChatTurn } from './conversation.ts';
import { ASK_DAG, DAG_FOLDER } from './paths.ts';

/** A shortlisted book as the program reports it. */
export interface ShortBook {
  readonly id: string;
  readonly title: string;
  readonly authors: readonly string[];
  readonly year: number;
  readonly pages: number;
}

/** The outcome of one question. */
export interface AskOutcome {
  readonly answer: string;
  readonly source: string;
  readonly intent: Intent | undefined;
  readonly classifiedBy: 'model' | 'rules' | undefined;
  readonly shortlist: readonly ShortBook[];
  /** Ids of the books the answer presents, in order. */
  readonly books: readonly string[];
  /** True when the answer says the catalog does not hold what was asked. */
  readonly miss: boolean;
  /** What the next turn of a conversation remembers. */
  readonly memory: Memory | undefined;
  readonly status: RunResult['status'];
  readonly terminal: string | undefined;
  readonly retries: number;
  readonly salvages: number;
  readonly events: readonly RunEvent[];
  /** The run's id in the store, when it was recorded: `switchyard runs show <runId>` explains the answer. */
  readonly runId?: string;
}

/** What the engine needs: services, the policy, and the injected clock and random source. */
export interface AskEngineOptions {
  readonly services: ArchivistServices;
  readonly policy: RuntimePolicy | PolicyInput | string;
  readonly clock: Clock;
  readonly random: Random;
  /** Where each question's run is recorded; default none. */
  readonly store?: RunStore;
  /** The Archivist's DAGs, when the caller started loading them ({@link loadArchivistDags}); else loaded here. */
  readonly dags?: Promise<ArchivistDags>;
  /** Traces each question's run through this OpenTelemetry provider; default none. */
  readonly tracerProvider?: TracerProviderLike;
}

/** Answers questions by running the ask DAG. */
export interface AskEngine {
  /**
   * Answers `question`; a chat's turn is recorded with its conversation and turn number. Aborting `signal`
   * stops the run at once: the outcome's status is then `aborted`.
   */
  ask(
    question: string,
    memory?: Memory,
    onEvent?: (event: RunEvent) => void,
    turn?: ChatTurn,
    signal?: AbortSignal,
  ): Promise<AskOutcome>;
  /** Goes on with a recorded question whose run never ended, and answers it. */
  resume(runId: string, onEvent?: (event: RunEvent) => void): Promise<AskOutcome>;
}

/** The ask DAG, the library of the Archivist's documents, and the file of each document by its IRI. */
export interface ArchivistDags {
  readonly dag: Dag;
  readonly library: DagLibrary;
  readonly files: Record<string, string>;
}

/** The ask DAG and the library of the Archivist's documents (its embedded compose/validate loop). */
export async function loadArchivistDags(): Promise<ArchivistDags> {
  const { results, library } = await loadDagFolder([DAG_FOLDER]);
  const problems = [...results.values()].flatMap((r) => r.problems.filter((p) => p.severity === 'error'));
  const dag = library.get(ASK_DAG);
  if (problems.length > 0 || !dag) {
    const first = problems[0];
    throw new SwitchyardError(
      'E_SCHEMA',
      `the Archivist's DAG documents in ${DAG_FOLDER} are broken${first ? `: ${first.message}` : `: ${ASK_DAG} is missing`}; run switchyard validate on them`,
      { problems },
    );
  }
  const files: Record<string, string> = {};
  for (const [file, result] of results) if (result.dag) files[result.dag.id] = file;
  return { dag, library, files };
}

/**
 * Loads the Archivist's DAGs and policy and returns an engine that answers one question per run.
 * @example
 * const engine = await createAskEngine({ services, policy: POLICY_FILE, clock: systemClock, random: seededRandom(1) });
 * const { answer } = await engine.ask('books by George Orwell');
 */
export async function createAskEngine(options: AskEngineOptions): Promise<AskEngine> {
  const { dag, library, files } = await (options.dags ?? loadArchivistDags());
  const store = options.store;
  const policy = typeof options.policy === 'string' ? await loadPolicyFile(options.policy) : options.policy;
  const dispatcher: Dispatcher = createDispatcher({
    nodes: archivistNodes as never,
    services: options.services,
    policy,
    clock: options.clock,
    random: options.random,
    library,
    ...(options.tracerProvider === undefined ? {} : { tracerProvider: options.tracerProvider }),
  });
  const listen = (events: RunEvent[], onEvent?: (event: RunEvent) => void) => (event: RunEvent) => {
    events.push(event);
    onEvent?.(event);
  };
  return {
    async ask(question, memory, onEvent, turn, signal) {
      const events: RunEvent[] = [];
      const input = { question, ...(memory ? { memory } : {}), ...(turn ? { chat: turn } : {}) };
      const run = dispatcher.run(dag, input, {
        onEvent: listen(events, onEvent),
        ...(signal ? { signal } : {}),
        ...(store ? { store, files } : { store: false as const }),
      });
      return outcomeOf(await run, events, store ? run.id : undefined);
    },
    async resume(runId, onEvent) {
      const events: RunEvent[] = [];
      if (!store) throw new SwitchyardError('E_INPUT', `resuming run '${runId}' needs the run store`);
      const result = await dispatcher.resume(runId, { store, dag, onEvent: listen(events, onEvent) });
      return outcomeOf(result, events, runId);
    },
  };
}

/** What one run of the ask DAG answered. */
function outcomeOf(result: RunResult, events: readonly RunEvent[], runId: string | undefined): AskOutcome {
  const item = result.items[0];
  const data = (item?.data ?? result.failures[0]?.state.data ?? {}) as unknown as AskData;
  const failure = result.failures[0];
  if (!item && failure) {
    throw new SwitchyardError(
      'E_NODE_ERROR',
      `the Archivist failed at ${failure.placement}: ${failure.error.message}`,
    );
  }
  return {
    answer: data.answer ?? '',
    source: data.source ?? 'none',
    intent: data.intent,
    classifiedBy: data.classifiedBy,
    shortlist: (data.shortlist ?? []).map(({ id, title, authors, year, pages }) => ({
      id,
      title,
      authors,
      year,
      pages,
    })),
    books: data.presented ?? [],
    miss: data.miss === true,
    memory: data.nextMemory,
    status: result.status,
    terminal: item?.terminal,
    retries: result.stats.retries,
    salvages: result.stats.salvages,
    events,
    ...(runId === undefined ? {} : { runId }),
  };
}
