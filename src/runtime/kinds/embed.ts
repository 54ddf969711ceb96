/**
 * What an embed placement does, written once for every executor: the child item it starts (the `input`
 * mappings) and the outcome it takes once that child ended (the `result` mappings). The executors (the
 * in-process embed, the distributed embed jobs) only run the child.
 */
import type { EmbedPlacement } from '../../document/model.ts';
import type { CompiledPlacement } from '../../graph/compile.ts';
import { copyJson } from '../copy.ts';
import type { Outcome } from '../decide.ts';
import type { ClassifiedError } from '../error-summary.ts';
import { createChildState, type ItemState } from '../item-state.ts';
import { embedSegment } from '../journal-key.ts';
import type { JournalEntry } from '../journal-value.ts';
import { getPointer, setPointer } from '../pointer.ts';
import type { Ending, RunEnvironment } from '../runner.ts';
import { type ChildDocument, childDocument, type DispatcherName, joinSteps } from './children.ts';

/** The child an embed starts: its document and entrypoint, and the child item. */
export interface EmbedChild extends ChildDocument {
  readonly child: ItemState;
}

/**
 * How an embedded document's item ended: its ending, its data (the `result` mappings read from it) and,
 * where the child ran apart from its parent (a distributed job), the journal steps it recorded.
 */
export interface EmbedResult {
  /** Undefined for a child that has no ending (a cancelled child job). */
  readonly ending: Ending | undefined;
  readonly data: Record<string, unknown>;
  readonly journal?: Record<string, JournalEntry>;
}

/**
 * The child item embed `at` starts for `parent` (at the parent's `visit` of the placement, in document
 * `dag`), or the error the embed takes instead (see {@link childDocument}): item `<parent id>/<placement
 * key>`, with data built from the `input` mappings (parent pointer → child pointer, copied; absent values are
 * skipped), fresh budgets, and its steps in the parent's journal under the scope `<placement key>/`.
 * Pointers naming `__proto__`, `constructor` or `prototype` throw `E_INPUT` (the item fails).
 */
export function embedChild(
  at: CompiledPlacement,
  parent: ItemState,
  where: { readonly dag: string; readonly visit: number },
  env: Pick<RunEnvironment, 'prepareIri'>,
  dispatcher: DispatcherName,
): EmbedChild | { readonly error: ClassifiedError } {
  const placement = at.placement as EmbedPlacement;
  const document = childDocument(`embed '${at.key}'`, placement.dag, env, dispatcher);
  if ('error' in document) return document;
  let data: Record<string, unknown> = {};
  for (const mapping of placement.input) {
    const value = getPointer(parent.data, mapping.from);
    if (value !== undefined) data = setPointer(data, mapping.to, copyJson(value));
  }
  const frame = { kind: 'embed', dag: where.dag, placement: at.key, visit: where.visit } as const;
  const child = createChildState(parent, `${parent.id}/${at.key}`, embedSegment(at.key), data, frame);
  return { ...document, child };
}

/**
 * The embed's outcome once its child ended: at a terminal, the `result` mappings copy the child's values
 * into the parent's data (child pointer → parent pointer, copied; absent values are skipped) and the
 * terminal's outcome is the output; a child that failed with an error gives that error (the embed's `retry`
 * / `error` route). The steps the child recorded apart join the parent's journal (a step the parent already
 * has is kept). Undefined for a child that was stopped, or has no ending (a cancelled child job): the
 * parent stops too.
 */
export function embedOutcome(
  at: CompiledPlacement,
  parent: ItemState,
  result: EmbedResult,
): Outcome | undefined {
  joinSteps(parent, result.journal);
  const ending = result.ending;
  if (ending === undefined || ending.kind === 'stopped') return undefined;
  if (ending.kind === 'failed') return { error: ending.error };
  for (const mapping of (at.placement as EmbedPlacement).result) {
    const value = getPointer(result.data, mapping.from);
    if (value !== undefined) parent.data = setPointer(parent.data, mapping.to, copyJson(value));
  }
  return { output: ending.outcome };
}
