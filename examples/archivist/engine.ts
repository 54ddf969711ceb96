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
  /** What the next turn of a conversation remembers. */
  readonly memory: Memory | undefined;
  readonly status: 'completed' | 'failed' | 'aborted';
  readonly terminal: string | undefined;
  readonly retries: number;
  readonly salvages: number;
  readonly events: readonly RunEvent[];
}

/** What the engine needs: services, the policy, and the injected clock and random source. */
export interface AskEngineOptions {
  readonly services: ArchivistServices;
  readonly policy: RuntimePolicy | PolicyInput | string;
  readonly clock: Clock;
  readonly random: Random;
}

/** Answers questions by running the ask DAG. */
export interface AskEngine {
  ask(question: string, memory?: Memory, onEvent?: (event: RunEvent) => void): Promise<AskOutcome>;
}

/** The ask DAG and the library of the Archivist's documents (its embedded compose/validate loop). */
export async function loadArchivistDags(): Promise<{ dag: Dag; library: DagLibrary }> {
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
  return { dag, library };
}

/**
 * Loads the Archivist's DAGs and policy and returns an engine that answers one question per run.
 * @example
 * const engine = await createAskEngine({ services, policy: POLICY_FILE, clock: systemClock, random: seededRandom(1) });
 * const { answer } = await engine.ask('books by George Orwell');
 */
export async function createAskEngine(options: AskEngineOptions): Promise<AskEngine> {
  const { dag, library } = await loadArchivistDags();
  const policy = typeof options.policy === 'string' ? await loadPolicyFile(options.policy) : options.policy;
  const dispatcher: Dispatcher = createDispatcher({
    nodes: archivistNodes as never,
    services: options.services,
    policy,
    clock: options.clock,
    random: options.random,
    library,
  });
  return {
    async ask(question, memory, onEvent) {
      const events: RunEvent[] = [];
      const input: AskData = { question, ...(memory ? { memory } : {}) };
      const result = await dispatcher.run(dag, input as unknown as Record<string, unknown>, {
        onEvent: (event) => {
          events.push(event);
          onEvent?.(event);
        },
      });
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
        memory: data.nextMemory,
        status: result.status,
        terminal: item?.terminal,
        retries: result.stats.retries,
        salvages: result.stats.salvages,
        events,
      };
    },
  };
}
