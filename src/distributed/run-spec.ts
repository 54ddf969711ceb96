import type { Redis } from 'ioredis';
import { libraryOf, loadDagText } from '../document/load.ts';
import type { Dag } from '../document/model.ts';
import { toDocument } from '../document/serialise.ts';
import { SwitchyardError } from '../errors.ts';
import { resolveRecordedPolicy } from '../policy/recorded.ts';
import { writesDefaultConcurrency } from '../policy/resolve.ts';
import type { RuntimePolicy } from '../policy/types.ts';
import { JOB_FORMAT } from './job-data.ts';

/**
 * What a submitter writes once per run and every worker reads once per run: the run's DAG and the
 * documents it embeds or scatters over (canonical JSON-LD), the resolved policy, and the wall time of the
 * run deadline. Jobs carry only the run id, so an item's job stays small however large the documents are.
 */
export interface RunSpec {
  readonly v: number;
  readonly dag: unknown;
  readonly library: readonly unknown[];
  readonly policy: unknown;
  /** Wall time (ms since the epoch) the run deadline passes, or null for none. */
  readonly deadlineAt: number | null;
  /** How many input items the run has. */
  readonly items: number;
  /** The W3C `traceparent` of the run's span when the submitter traces it: the workers' spans join that trace. */
  readonly trace?: string;
}

/** The spec of a run, as the submitter writes it. */
export function specOf(
  dag: Dag,
  library: readonly Dag[],
  policy: RuntimePolicy,
  deadlineAt: number | undefined,
  items: number,
  trace?: string,
): RunSpec {
  return {
    v: JOB_FORMAT,
    dag: toDocument(dag),
    library: library.map((doc) => toDocument(doc)),
    policy: policyJson(policy),
    deadlineAt: deadlineAt ?? null,
    items,
    ...(trace === undefined ? {} : { trace }),
  };
}

/**
 * The resolved policy as JSON, without `defaults.concurrency` when it is the built-in default: a worker
 * resolving it again then knows which concurrency limits were written (see `slots.ts`). A gate's name is
 * its key in `gates`, as a policy writes it.
 */
function policyJson(policy: RuntimePolicy): unknown {
  const json = JSON.parse(JSON.stringify(policy)) as {
    defaults: Record<string, unknown>;
    gates?: Record<string, Record<string, unknown>>;
  };
  if (!writesDefaultConcurrency(policy)) delete json.defaults.concurrency;
  for (const gate of Object.values(json.gates ?? {})) delete gate.name;
  return json;
}

/** The documents and policy of a loaded spec: what runs of the same documents under the same policy share. */
export interface SpecModels {
  readonly dag: Dag;
  readonly library: ReturnType<typeof libraryOf>;
  readonly policy: RuntimePolicy;
}

/** A run spec read back by a worker: the models and the policy, ready to admit, and the run's own fields. */
export interface LoadedSpec extends SpecModels {
  readonly deadlineAt: number | undefined;
  readonly items: number;
  /** The `traceparent` of the run's span, when the run is traced. */
  readonly trace: string | undefined;
}

/** Reads the spec of run `runId` from `key`, unloaded; refuses a missing run or a newer format. */
export async function readSpecJson(redis: Redis, key: string, runId: string): Promise<RunSpec> {
  const text = await redis.get(key);
  if (text === null) {
    throw new SwitchyardError(
      'E_INPUT',
      `run '${runId}' has no spec in Redis (it finished, or was never submitted)`,
    );
  }
  const spec = JSON.parse(text) as RunSpec;
  if (spec.v > JOB_FORMAT) {
    throw new SwitchyardError(
      'E_INPUT',
      `run '${runId}' was submitted in format ${spec.v}, newer than this worker's ${JOB_FORMAT}; upgrade the worker`,
    );
  }
  return spec;
}

/** The text two specs share exactly when their documents and policy are the same. */
export function modelsKey(spec: RunSpec): string {
  return JSON.stringify([spec.v, spec.dag, spec.library, spec.policy]);
}

/** Loads the documents and policy of `spec` (JSON-LD, then the models). */
export async function loadSpecModels(spec: RunSpec, runId: string): Promise<SpecModels> {
  const dag = await loadModel(spec.dag, runId);
  const docs = await Promise.all(spec.library.map((doc) => loadModel(doc, runId)));
  return { dag, library: libraryOf(docs), policy: resolveRecordedPolicy(spec.policy) };
}

/** The run's own fields of `spec` beside its loaded `models`. */
export function loadedSpec(spec: RunSpec, models: SpecModels): LoadedSpec {
  return {
    ...models,
    deadlineAt: spec.deadlineAt ?? undefined,
    items: spec.items,
    trace: typeof spec.trace === 'string' ? spec.trace : undefined,
  };
}

async function loadModel(doc: unknown, runId: string): Promise<Dag> {
  const loaded = await loadDagText(JSON.stringify(doc));
  if (loaded.dag === undefined) {
    const first = loaded.problems[0]?.message ?? 'it does not load';
    throw new SwitchyardError('E_INPUT', `a document of run '${runId}' does not load: ${first}`);
  }
  return loaded.dag;
}
