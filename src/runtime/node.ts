import { SwitchyardError } from '../errors.ts';
import type { SpanLike } from '../telemetry/span-like.ts';
import type { StepInfo } from './journal.ts';

/** What a node receives for each item: its id and its mutable, plain-JSON data. */
export interface ItemView {
  /** The item's path within the run, e.g. `1` or `1.3`. */
  readonly id: string;
  /**
   * The item's data; a node changes it in place. It is JSON in every executor (see `item-data.ts`): what a
   * node leaves in it is checked when the node returns, and a value JSON cannot hold (a Date, a BigInt, a
   * Map…) fails the placement with `E_ITEM_DATA`.
   */
  data: Record<string, unknown>;
}

/** What a node may say beside the output it takes. */
export interface RouteHints {
  /** Why this output was taken; shown in events and traces. */
  readonly reason?: string;
  /** Wait before the retry target runs: ms as a number, or a Retry-After header value (seconds or HTTP-date). */
  readonly retryAfter?: number | string;
}

/** A node's answer for one item: an output name, or an output with hints. */
export type NodeResult<O extends string = string> = O | ({ readonly output: O } & RouteHints);

/** The services and controls a node gets for one execution. */
export interface NodeContext<S = unknown> {
  /** Aborts when the run is aborted or this execution's deadline fires. */
  readonly signal: AbortSignal;
  /** The services object given to `createDispatcher`. */
  readonly services: S;
  /** The placement being executed, and the IRI of its document. */
  readonly placement: string;
  readonly dag: string;
  /** 1 on the item's first execution of this placement, 2 on the second, … */
  readonly visit: number;
  /** The dispatcher clock's time. */
  now(): number;
  /** How many times retry routes have spent `budget` for this item (0 before the first retry). */
  attempts(budget: string): number;
  /**
   * The OpenTelemetry span of this execution when the run is traced (`createDispatcher({ tracerProvider })`,
   * `--otel`), else undefined: add attributes to it, e.g. the GenAI ones of a model call
   * (`ctx.span?.setAttribute('gen_ai.request.model', model)`). The node is called with it as the active span,
   * so the spans an HTTP client or a model SDK makes nest under it (given a context manager, as the SDK's
   * `NodeTracerProvider.register()` sets up).
   */
  readonly span?: SpanLike | undefined;
  /**
   * Runs `fn` once per item and key: the value is recorded in the item's journal, and a later visit
   * (a retry, or a resumed run) gets the recorded value back without calling `fn` again.
   * - The journal is keyed by the item's path through embeds and scatters: a step inside an embedded
   *   document or a scatter child is recorded in the journal of the input item it descends from (key
   *   `draft/charge`, `fan[2]/charge`), so a parent that retries into the embed or scatter, or is resumed,
   *   replays it.
   * - A call while the same key is running waits for it and returns its value (or rejects with its error).
   * - Plain JSON is recorded as is; BigInt, Date, Map, Set, undefined, NaN… are encoded so that a replay
   *   gives them back as themselves. Every call, the first included, returns a fresh copy.
   * - A value that cannot be recorded (a function, a symbol, a class instance) rejects with
   *   `E_STEP_VALUE` and fails the item without retry; the step is recorded as run, so `fn` never runs
   *   again. Return plain data.
   * - A `fn` that throws records nothing: a later visit runs it again.
   *
   * `fn` is given `{ idempotencyKey }`: `<run id>/<input item id>/<step path>`, the same every time this
   * step of this item runs in this run, resumes included; pass it to an API that deduplicates requests.
   * In a durable run the value is committed to the store before `step` resolves; a crash after `fn`
   * finished and before that commit runs `fn` again on resume, with the same key.
   */
  step<T>(key: string, fn: (info: StepInfo) => T | Promise<T>): Promise<T>;
}

/** The context of a batch execution: one per item, in the order of `items`. */
export interface BatchContext<S = unknown> {
  readonly signal: AbortSignal;
  readonly services: S;
  readonly placement: string;
  readonly dag: string;
  now(): number;
  /** The per-item contexts (attempts, journal) for `items[i]`. */
  readonly contexts: readonly NodeContext<S>[];
}

/** A node implementation registered under an IRI. Give `run` for one item at a time, or `batch`. */
export interface NodeDefinition<O extends string = string, S = unknown> {
  readonly id: string;
  /** The outputs it may route to (besides the engine's `retry` and `error`). */
  readonly outputs: readonly O[];
  readonly description?: string;
  readonly run?: (item: ItemView, ctx: NodeContext<S>) => NodeResult<O> | Promise<NodeResult<O>>;
  /** Receives every item waiting at the placement, up to `maxBatch`; returns one result per item. */
  readonly batch?: (items: readonly ItemView[], ctx: BatchContext<S>) => Promise<readonly NodeResult<O>[]>;
  readonly maxBatch?: number;
  /**
   * The finer key of the policy's gate this execution passes (one per model or API key, say `gpt-4o-mini`),
   * when the gate declares `keys`; undefined: the gate's own key. Called before each execution.
   */
  readonly gateKey?: (item: ItemView) => string | undefined;
}

/**
 * Declares a node; the identity function, there for type inference of the outputs.
 * @example
 * const validate = defineNode({
 *   id: 'urn:example:validate',
 *   outputs: ['valid', 'invalid'],
 *   run: (item) => (item.data.draft ? 'valid' : 'invalid'),
 * });
 */
export function defineNode<const O extends string, S = unknown>(
  definition: NodeDefinition<O, S>,
): NodeDefinition<O, S> {
  if (!definition.run && !definition.batch) {
    throw new SwitchyardError(
      'E_NODE_MODULE',
      `node '${definition.id}' has neither run nor batch; give one of them`,
    );
  }
  return definition;
}

/** Node implementations by IRI; one per dispatcher, never global. */
export interface NodeRegistry {
  get(id: string): NodeDefinition | undefined;
  /** The node's declared outputs, or undefined when the IRI is not registered. */
  outputsOf(id: string): readonly string[] | undefined;
  ids(): readonly string[];
}

/** `nodes` as a registry: a registry as it is, a list of definitions registered (see {@link createRegistry}). */
export function registryOf(nodes: NodeRegistry | readonly NodeDefinition<string, never>[]): NodeRegistry {
  return 'get' in nodes && typeof nodes.get === 'function'
    ? (nodes as NodeRegistry)
    : createRegistry(nodes as readonly NodeDefinition<string, never>[]);
}

/** Builds a registry; a duplicate IRI is an error. */
export function createRegistry(nodes: Iterable<NodeDefinition<string, never>>): NodeRegistry {
  const byId = new Map<string, NodeDefinition>();
  for (const node of nodes) {
    if (byId.has(node.id)) {
      throw new SwitchyardError(
        'E_NODE_MODULE',
        `node '${node.id}' is registered twice; give each node its own IRI`,
      );
    }
    byId.set(node.id, node as NodeDefinition);
  }
  return {
    get: (id) => byId.get(id),
    outputsOf: (id) => byId.get(id)?.outputs,
    ids: () => [...byId.keys()].sort(),
  };
}
