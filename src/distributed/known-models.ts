import type { NodeRegistry } from '../runtime/node.ts';
import { KeptLoads } from './kept-loads.ts';
import { loadSpecModels, modelsKey, type RunSpec, type SpecModels } from './run-spec.ts';
import { WorkerAdmissions } from './worker-admissions.ts';

/** A spec's documents and policy as a worker loaded them, and their admissions (compiled and prepared). */
export interface KnownModels {
  readonly models: SpecModels;
  readonly admissions: WorkerAdmissions;
}

/** How many sets of documents and policy a worker keeps loaded at most. */
const KEPT = 32;

/**
 * The documents and policies of the runs a worker carries, loaded, compiled and prepared once for every run
 * that shares them. Submitters mostly run the same few documents under the same policy many times; loading
 * them again per run would expand their JSON-LD and compile them again, and would hand the hot path new
 * objects in every run, on which V8's optimised code for the last run no longer fits. The most recently used
 * {@link KEPT} are kept; a load that failed is not kept, so the next run tries again.
 */
export class KnownModelsCache {
  private readonly known = new KeptLoads<KnownModels>(KEPT);

  constructor(private readonly registry: NodeRegistry) {}

  /**
   * The loaded models of `spec`, from run `runId` when they were not loaded yet. A load another run started
   * that fails is tried again for this one, so that the error this run gets names it.
   */
  of(spec: RunSpec, runId: string): Promise<KnownModels> {
    const key = modelsKey(spec);
    let mine = false;
    const load = () => {
      mine = true;
      return this.load(spec, runId);
    };
    const kept = this.known.of(key, load);
    return mine ? kept : kept.catch(() => this.known.of(key, () => this.load(spec, runId)));
  }

  private async load(spec: RunSpec, runId: string): Promise<KnownModels> {
    const models = await loadSpecModels(spec, runId);
    return { models, admissions: new WorkerAdmissions(this.registry, models.library, models.policy) };
  }
}
