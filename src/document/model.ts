/**
 * The in-memory model of a DAG document: the canonical compact JSON-LD form with defaults filled in,
 * `@id` as `id`, IRIs in full, and every set in a canonical order (placements by key, routes by output), so
 * that two JSON-LD forms of the same graph give deep-equal models. Entrypoints keep their written order.
 */

/** The IRI of the published JSON-LD context, served from `schemas/context.v1.jsonld` by the local loader. */
export const CONTEXT_IRI = 'https://w3id.org/switchyard/context/v1';

/** The vocabulary namespace every term of the context expands into. */
export const VOCAB_IRI = 'https://w3id.org/switchyard/vocab#';

/** How a route is taken: `next` is the normal flow, `retry` spends a budget, `salvage` is a recovery path. */
export type RouteKind = 'next' | 'retry' | 'salvage';

/** An edge of the graph: items leaving `from` on `output` go to `to`. */
export interface Route {
  /** The output name of the placement this route leaves from. */
  readonly output: string;
  /** The key of the target placement. */
  readonly to: string;
  /** Defaults to `next`. */
  readonly kind: RouteKind;
  /** Retry routes only: the budget each traversal spends. */
  readonly budget?: string;
  /** Retry routes only: the placement taken instead once the budget is spent. */
  readonly exhausted?: string;
  /** Retry routes only: budgets set back to zero when this route is taken (an outer loop restarting an inner one). */
  readonly resets?: readonly string[];
  readonly label?: string;
}

/** A named counter with an upper bound: how many times retry routes may spend it, per item. */
export interface Budget {
  readonly name: string;
  readonly max: number;
  readonly description?: string;
}

/** A JSON-pointer copy between a parent's data and an embedded run's data. */
export interface Mapping {
  readonly from: string;
  readonly to: string;
}

interface PlacementBase {
  readonly key: string;
  readonly label?: string;
  readonly description?: string;
  /** Sorted by output name, then target. Empty for terminals and phases. */
  readonly routes: readonly Route[];
}

/** Runs one node implementation per item (or per batch, if the node opts in). */
export interface TaskPlacement extends PlacementBase {
  readonly kind: 'task';
  readonly node: string;
}

/** Fans the list at `items` out into child items, each run through `node` or the sub-DAG `dag`. */
export interface ScatterPlacement extends PlacementBase {
  readonly kind: 'scatter';
  readonly items: string;
  readonly node?: string;
  readonly dag?: string;
}

/** Reducers a gather applies to the child results of the scatter that routed to it. */
export type Reducer = 'collect' | 'partition' | 'first' | 'quorum';
/** How many children must complete for the gather to leave on `completed` rather than `failed`. */
export type GatherRequirement = 'all' | 'any' | 'quorum';

/** Fans child results back in: reduces them into the parent's data at `into`. */
export interface GatherPlacement extends PlacementBase {
  readonly kind: 'gather';
  readonly reducer: Reducer;
  readonly require: GatherRequirement;
  readonly quorum?: number;
  readonly into: string;
}

/** Runs another DAG document; the child's terminal outcome (`completed`/`failed`) is the output taken. */
export interface EmbedPlacement extends PlacementBase {
  readonly kind: 'embed';
  readonly dag: string;
  readonly input: readonly Mapping[];
  readonly result: readonly Mapping[];
}

/** Where items end. */
export interface TerminalPlacement extends PlacementBase {
  readonly kind: 'terminal';
  readonly outcome: 'completed' | 'failed';
}

/** A hook run once per run: `pre` before items enter, `post` after (always, even on failure or abort). */
export interface PhasePlacement extends PlacementBase {
  readonly kind: 'phase';
  readonly when: 'pre' | 'post';
  readonly node: string;
}

/**
 * Parks an item until an outside answer names one of `answers` (each an output, routed as usual) or the
 * policy's deadline for the placement passes (the engine's `deadline` output). An answer's data, when it
 * has some, goes into the item's data at `into`.
 */
export interface AwaitPlacement extends PlacementBase {
  readonly kind: 'await';
  /** The outputs an answer may name, sorted. */
  readonly answers: readonly string[];
  /** A JSON pointer into the item's data where an answer's data is written; without it answers carry none. */
  readonly into?: string;
}

export type Placement =
  | TaskPlacement
  | AwaitPlacement
  | ScatterPlacement
  | GatherPlacement
  | EmbedPlacement
  | TerminalPlacement
  | PhasePlacement;

export type PlacementKind = Placement['kind'];

/** A loaded DAG document. */
export interface Dag {
  /** The document's `@id`: an absolute IRI, written in full (`sy:x` becomes the vocabulary IRI). */
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  /** In the order written (a JSON-LD list): the first is where a run starts by default. */
  readonly entrypoints: readonly string[];
  /** Sorted by name. */
  readonly budgets: readonly Budget[];
  /** Sorted by key. */
  readonly placements: readonly Placement[];
}

/** Outputs every placement kind has without asking a node: the engine produces them. */
export const ENGINE_OUTPUTS: Readonly<Record<PlacementKind, readonly string[]>> = Object.freeze({
  task: ['retry', 'error'],
  scatter: ['done', 'error'],
  gather: ['completed', 'failed'],
  embed: ['completed', 'failed', 'retry', 'error'],
  await: ['deadline'],
  terminal: [],
  phase: [],
});

/** The output an await placement takes when its deadline passes without an answer. */
export const AWAIT_DEADLINE_OUTPUT = 'deadline';

/** DAG documents by IRI, for embed placements and scatter sub-DAGs. */
export interface DagLibrary {
  get(id: string): Dag | undefined;
}
