/**
 * What a scatter placement does, written once for every executor: what it fans out (its list and its body),
 * the child item each list element becomes, and the result a child gives its gather once it ended. The
 * executors (the in-process scatter, the distributed scatter jobs) only run the children and count them off.
 */
import type { ScatterPlacement } from '../../document/model.ts';
import type { CompiledPlacement } from '../../graph/compile.ts';
import { copyJson } from '../copy.ts';
import { type ClassifiedError, engineError, summarise } from '../error-summary.ts';
import { createScatterChildState, type ItemState } from '../item-state.ts';
import { getPointer } from '../pointer.ts';
import type { Ending, RunEnvironment } from '../runner.ts';
import type { TaskOutcome } from '../task.ts';
import { type ChildDocument, childDocument, type DispatcherName } from './children.ts';
import type { ChildResult } from './gather.ts';

/** Outputs of a scatter body node that mark the child as failed; every other output completes it. */
export const FAILED_BODY_OUTPUTS: ReadonlySet<string> = new Set(['failed', 'error']);

/** What a scatter fans out: the list at its `items` pointer, and its body document (none for a node body). */
export interface ScatterFan {
  readonly list: readonly unknown[];
  readonly body: ChildDocument | undefined;
}

/** Where a scatter's children come from: the parent item, the placement and document, the parent's visit. */
export interface ScatterEntry {
  readonly parent: ItemState;
  readonly placement: string;
  readonly dag: string;
  readonly visit: number;
}

/**
 * The list a scatter fans out and the document its children run, or the error the scatter takes instead:
 * `E_INPUT` when no array is at the `items` pointer, `E_UNKNOWN_DAG` for a body document the library lacks
 * (`dispatcher` names where to pass it), `E_DANGLING_ENTRYPOINT` for one without an entrypoint.
 */
export function scatterFan(
  at: CompiledPlacement,
  data: unknown,
  env: Pick<RunEnvironment, 'prepareIri'>,
  dispatcher: DispatcherName,
): ScatterFan | { readonly error: ClassifiedError } {
  const placement = at.placement as ScatterPlacement;
  const list = getPointer(data, placement.items);
  if (!Array.isArray(list)) {
    const message = `scatter '${at.key}' expects an array at '${placement.items}' in the item's data, found ${list === undefined ? 'nothing' : typeof list}; put the list there before the scatter`;
    return { error: engineError('E_INPUT', message) };
  }
  if (placement.dag === undefined) return { list, body: undefined };
  const body = childDocument(`scatter '${at.key}'`, placement.dag, env, dispatcher);
  return 'error' in body ? body : { list, body };
}

/**
 * Child `index` of a scatter entry, made of list element `element`: item `<parent id>.<index>`, with data
 * `{ item, index }`, where `item` is a deep copy of the element (a child's changes never reach the parent's
 * list), or null for a child that never `started`; its frame names the scatter, the parent's visit and the
 * index, and its journal scope the placement, the index and the element's tag (worked out only when read).
 */
export function scatterChild(
  entry: ScatterEntry,
  index: number,
  element: unknown,
  started = true,
): ItemState {
  const { parent, placement, dag, visit } = entry;
  const frame = { kind: 'scatter', dag, placement, visit, index } as const;
  const data = { item: started ? copyJson(element) : null, index };
  return createScatterChildState(parent, `${parent.id}.${index}`, element, data, frame);
}

/**
 * How a node body's child ended, from the node's outcome at scatter `at`: an output in
 * {@link FAILED_BODY_OUTPUTS} fails it, any other output completes it, a thrown error fails it with that error.
 */
export function bodyEnding(at: CompiledPlacement, outcome: TaskOutcome): Ending {
  if ('error' in outcome) return { kind: 'failed', placement: at.key, error: outcome.error };
  const failed = FAILED_BODY_OUTPUTS.has(outcome.output);
  return { kind: 'terminal', placement: at.key, outcome: failed ? 'failed' : 'completed' };
}

/**
 * The result child `index` gives its gather once it ended, the `order`th to settle (see {@link childResult}).
 * Made as one literal, with the keys in the order of `{ ...childResult(…), order }`: a spread of the results'
 * several shapes is the slow path of object cloning, once per child.
 */
export function settledResult(
  child: ItemState,
  ending: Ending,
  index: number,
  subDag: boolean,
  order: number,
): ChildResult {
  if (ending.kind === 'stopped') return { index, status: 'cancelled', value: null, order };
  const value = child.data.result ?? null;
  if (ending.kind === 'failed')
    return { index, status: 'failed', value, error: summarise(ending.error), order };
  if (!subDag) return { index, status: ending.outcome, value, order };
  return { index, status: ending.outcome, value, terminal: ending.placement, order };
}

/**
 * The result child `index` gives its gather once it ended (the executor adds the order it settled in): its
 * status, the value it left in `data.result` (null when absent), and why it failed. A child of a body
 * document (`subDag`) names the terminal it reached; a stopped child is `cancelled`, with no value.
 */
export function childResult(
  child: ItemState,
  ending: Ending,
  index: number,
  subDag: boolean,
): Omit<ChildResult, 'order'> {
  if (ending.kind === 'stopped') return { index, status: 'cancelled', value: null };
  const value = child.data.result ?? null;
  if (ending.kind === 'failed') return { index, status: 'failed', value, error: summarise(ending.error) };
  if (!subDag) return { index, status: ending.outcome, value };
  return { index, status: ending.outcome, value, terminal: ending.placement };
}
