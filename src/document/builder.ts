/**
 * A fluent builder for DAG documents in TypeScript. Placements are added in any order; route methods
 * attach to the most recently added placement, or to the one chosen with `from(key)`. `build()` checks the
 * document against the schema and returns the same model that loading the equivalent file gives.
 */
import { SwitchyardError } from '../errors.ts';
import {
  CONTEXT_IRI,
  type Dag,
  type GatherRequirement,
  type Mapping,
  type Reducer,
  type RouteKind,
} from './model.ts';
import { validateSchema } from './schema.ts';
import { toDocument } from './serialise.ts';
import { toModel } from './to-model.ts';

type Json = Record<string, unknown>;

/** Identity of the document. */
export interface DagHeader {
  readonly name: string;
  readonly version: string;
  readonly description?: string;
}

/** What every placement may carry besides its kind-specific fields. */
export interface PlacementText {
  readonly label?: string;
  readonly description?: string;
}

/** Options of a retry route: the budget it spends and where items go once it is spent. */
export interface RetryOptions {
  readonly budget: string;
  readonly exhausted: string;
  readonly resets?: readonly string[];
  readonly label?: string;
}

/** Options of a scatter: the list to fan out, and exactly one of `node` or `dag` to run per child. */
export type ScatterOptions = PlacementText & { readonly items: string } & (
    | { readonly node: string; readonly dag?: never }
    | { readonly dag: string; readonly node?: never }
  );

/** Options of a gather; `reducer` defaults to `collect`, `require` to `all`. */
export interface GatherOptions extends PlacementText {
  readonly into: string;
  readonly reducer?: Reducer;
  readonly require?: GatherRequirement;
  readonly quorum?: number;
}

/** Options of an await placement: the answers it expects (each an output) and where an answer's data goes. */
export interface AwaitOptions extends PlacementText {
  readonly answers: readonly string[];
  readonly into?: string;
}

/** Options of an embedded DAG: the state copied in and the results copied out. */
export interface EmbedOptions extends PlacementText {
  readonly input?: readonly Mapping[];
  readonly result?: readonly Mapping[];
}

function defined(fields: Json): Json {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/** Builds a DAG document step by step; see {@link dag}. */
export class DagBuilder {
  readonly #id: string;
  readonly #header: DagHeader;
  readonly #entrypoints: string[] = [];
  readonly #budgets: Json[] = [];
  readonly #placements = new Map<string, Json>();
  #current: Json | undefined;

  constructor(id: string, header: DagHeader) {
    this.#id = id;
    this.#header = header;
  }

  /** Declares a budget of at most `max` spends per item. */
  budget(name: string, max: number, description?: string): this {
    this.#budgets.push(defined({ name, max, description }));
    return this;
  }

  /** Makes a placement an entrypoint (it may be added before or after). */
  entry(key: string): this {
    this.#entrypoints.push(key);
    return this;
  }

  /** Adds a task placement running the node registered under `node`. */
  task(key: string, node: string, text: PlacementText = {}): this {
    return this.#add(key, { kind: 'task', ...text, node });
  }

  /** Adds a scatter placement fanning out the list at `options.items`. */
  scatter(key: string, options: ScatterOptions): this {
    return this.#add(key, { kind: 'scatter', ...options });
  }

  /** Adds a gather placement reducing child results into `options.into`. */
  gather(key: string, options: GatherOptions): this {
    return this.#add(key, { kind: 'gather', ...options });
  }

  /** Adds a placement running the DAG document `dagId`. */
  embed(key: string, dagId: string, options: EmbedOptions = {}): this {
    return this.#add(key, { kind: 'embed', dag: dagId, ...options });
  }

  /**
   * Adds an await placement parking items until an answer names one of `options.answers`; route each answer
   * and the engine's `deadline` output (taken when the policy's deadline for it passes) as usual.
   */
  await(key: string, options: AwaitOptions): this {
    return this.#add(key, { kind: 'await', ...options, answers: [...options.answers] });
  }

  /** Adds a terminal where items end with `outcome`. */
  terminal(key: string, outcome: 'completed' | 'failed', text: PlacementText = {}): this {
    return this.#add(key, { kind: 'terminal', outcome, ...text });
  }

  /** Adds a `pre` or `post` run hook running `node`. */
  phase(key: string, when: 'pre' | 'post', node: string, text: PlacementText = {}): this {
    return this.#add(key, { kind: 'phase', when, node, ...text });
  }

  /** Selects the placement that the following route methods attach to. */
  from(key: string): this {
    const placement = this.#placements.get(key);
    if (!placement) {
      throw new SwitchyardError(
        'E_USAGE',
        `from('${key}'): no placement '${key}' yet — add it before routing from it`,
      );
    }
    this.#current = placement;
    return this;
  }

  /** Adds a `next` route: items leaving on `output` go to `to`. */
  route(output: string, to: string, options: { readonly label?: string } = {}): this {
    return this.#route('next', output, to, options);
  }

  /** Adds a `retry` route spending `options.budget`, going to `options.exhausted` once it is spent. */
  retry(output: string, to: string, options: RetryOptions): this {
    return this.#route('retry', output, to, options);
  }

  /** Adds a `salvage` route: a deterministic recovery path. */
  salvage(output: string, to: string, options: { readonly label?: string } = {}): this {
    return this.#route('salvage', output, to, options);
  }

  /** The canonical compact JSON-LD document of what has been built so far. */
  toDocument(): Json {
    return toDocument(this.build());
  }

  /** The model, after checking the document against the schema (`E_SCHEMA` with every problem otherwise). */
  build(): Dag {
    const document = {
      '@context': CONTEXT_IRI,
      '@id': this.#id,
      '@type': 'Dag',
      ...defined({
        name: this.#header.name,
        version: this.#header.version,
        description: this.#header.description,
      }),
      entrypoints: this.#entrypoints,
      budgets: this.#budgets,
      placements: [...this.#placements.values()],
    };
    const problems = validateSchema(document);
    if (problems.length > 0) {
      throw new SwitchyardError(
        'E_SCHEMA',
        `the built DAG ${this.#id} is not a valid document: ${problems.map((p) => p.message).join('; ')}`,
        { problems },
      );
    }
    return toModel(document);
  }

  #add(key: string, fields: Json): this {
    if (this.#placements.has(key)) {
      throw new SwitchyardError(
        'E_DUPLICATE_KEY',
        `placement '${key}' is added twice — give each placement its own key`,
      );
    }
    const placement = defined({ key, ...fields });
    this.#placements.set(key, placement);
    this.#current = placement;
    return this;
  }

  #route(kind: RouteKind, output: string, to: string, options: object): this {
    const from = this.#current;
    if (!from) {
      throw new SwitchyardError(
        'E_USAGE',
        `route '${output}' has no placement to leave from — add a placement first`,
      );
    }
    if (from.kind === 'terminal' || from.kind === 'phase') {
      throw new SwitchyardError(
        'E_USAGE',
        `placement '${String(from.key)}' is a ${String(from.kind)} and has no routes — call from(key) to route from another placement`,
      );
    }
    const routes = (from.routes ?? []) as Json[];
    routes.push(defined({ output, to, kind, ...options }));
    from.routes = routes;
    return this;
  }
}

/**
 * Starts building a DAG document.
 *
 * @example
 * ```ts
 * const composeValidate = dag('urn:switchyard:dag:compose-validate', { name: 'Compose and validate', version: '1.0.0' })
 *   .budget('compose', 3)
 *   .entry('compose')
 *   .task('compose', 'urn:switchyard:node:compose')
 *   .route('drafted', 'validate')
 *   .salvage('error', 'salvage')
 *   .task('validate', 'urn:switchyard:node:validate')
 *   .route('valid', 'done')
 *   .retry('invalid', 'compose', { budget: 'compose', exhausted: 'salvage' })
 *   .task('salvage', 'urn:switchyard:node:salvage')
 *   .route('salvaged', 'done')
 *   .terminal('done', 'completed')
 *   .build();
 * ```
 */
export function dag(id: string, header: DagHeader): DagBuilder {
  return new DagBuilder(id, header);
}
