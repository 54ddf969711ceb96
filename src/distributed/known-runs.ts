import type { RunEnvironment } from '../runtime/runner.ts';
import type { ProcessorSetup } from './item-processor.ts';
import type { KnownRun } from './job-scope.ts';
import { KeptLoads } from './kept-loads.ts';
import { runKeys } from './keys.ts';
import { KnownModelsCache } from './known-models.ts';
import type { RedisGates } from './redis-gates.ts';
import { loadedSpec, readSpecJson } from './run-spec.ts';

/** What a worker reads its runs with (its processor's setup), and the gates it hands their items. */
export type KnownRunsSetup = Pick<
  ProcessorSetup,
  'redis' | 'prefix' | 'registry' | 'services' | 'clock' | 'random'
> & { readonly gates: RedisGates };

/**
 * How many runs a worker keeps read at most. A run let go while it still has jobs is read again by its next
 * job: one more GET of its spec, its documents and policy still loaded (see {@link KnownModelsCache}).
 */
const KEPT = 512;

/**
 * The runs a worker carries: each run's spec read, and its documents admitted, once for all the jobs of the
 * run this worker takes, and only the most recently used {@link KEPT} kept, so a worker that runs for months
 * holds what its current runs need rather than every run it ever carried. A read that failed (Redis away, a
 * run not yet written) is not kept: the next job of the run reads again.
 */
export class KnownRuns {
  private readonly runs = new KeptLoads<KnownRun>(KEPT);
  private readonly models: KnownModelsCache;

  constructor(private readonly setup: KnownRunsSetup) {
    this.models = new KnownModelsCache(setup.registry);
  }

  /** Run `runId`, read from Redis the first time a job of it comes, or again after it was let go. */
  of(runId: string): Promise<KnownRun> {
    return this.runs.of(runId, () => this.load(runId));
  }

  private async load(runId: string): Promise<KnownRun> {
    const { redis, prefix, services, clock, random, gates } = this.setup;
    const keys = runKeys(prefix, runId);
    const json = await readSpecJson(redis, keys.spec, runId);
    const { models, admissions } = await this.models.of(json, runId);
    const spec = loadedSpec(json, models);
    const env: RunEnvironment = {
      services,
      policy: spec.policy,
      clock,
      random,
      library: spec.library,
      gates,
      dispatcher: 'createDistributedDispatcher',
      prepareDag: (dag) => admissions.root(dag),
      prepareIri: (iri) => admissions.iri(iri),
    };
    return { spec, env, prep: admissions.root(spec.dag), keys };
  }
}
