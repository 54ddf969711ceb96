import type { EmbedPlacement } from '../document/model.ts';
import type { CompiledPlacement } from '../graph/compile.ts';
import { copyJson } from './copy.ts';
import type { Outcome } from './decide.ts';
import { engineError } from './error-summary.ts';
import { isThenable } from './execute.ts';
import { createChildState, type ItemState } from './item-state.ts';
import { embedSegment } from './journal-key.ts';
import { getPointer, setPointer } from './pointer.ts';
import type { Ending, RunContext } from './runner.ts';

/**
 * Runs an embed placement: the child DAG gets data built from the `input` mappings (parent pointer → child
 * pointer, copied; absent values are skipped), fresh budgets, and runs from its first entrypoint as item
 * `<parent id>/<placement key>`. Its steps go to the parent's journal under the scope `<placement key>/`, so
 * a step recorded in an embed is replayed when the parent enters the embed again. At its terminal the
 * `result` mappings copy child values back (child pointer → parent pointer, copied; absent values are
 * skipped), and the terminal's outcome (`completed` / `failed`) is the output. A child that fails with an
 * error gives that error as the embed's outcome (its `retry` / `error` route). Pointers naming `__proto__`,
 * `constructor` or `prototype` fail the item with `E_INPUT`. In a resumed run the child goes on from its
 * checkpoint (see {@link RunContext.driveChild}); `visit` and `dag` (the parent's visit of the placement
 * and the document it is in) name the child's frame.
 */
export async function runEmbed(
  run: RunContext,
  at: CompiledPlacement,
  state: ItemState,
  visit: number,
  dag: string,
): Promise<Outcome> {
  const placement = at.placement as EmbedPlacement;
  const child = run.env.prepareIri(placement.dag);
  if (child === undefined) {
    const message = `embed '${at.key}' runs DAG '${placement.dag}', which is not in the library; pass it in createDispatcher({ library })`;
    return { error: engineError('E_UNKNOWN_DAG', message) };
  }
  const entry = child.compiled.entrypoints[0];
  if (entry === undefined) {
    return {
      error: engineError('E_DANGLING_ENTRYPOINT', `DAG '${placement.dag}' has no entrypoint; declare one`),
    };
  }
  let data: Record<string, unknown> = {};
  for (const mapping of placement.input) {
    const value = getPointer(state.data, mapping.from);
    if (value !== undefined) data = setPointer(data, mapping.to, copyJson(value));
  }
  const frame = { kind: 'embed', dag, placement: at.key, visit } as const;
  const fresh = createChildState(state, `${state.id}/${at.key}`, embedSegment(at.key), data, frame);
  const childState = fresh;
  const running = run.driveChild(child, childState, entry).settled();
  const ending = isThenable<Ending>(running) ? await running : running;
  if (ending.kind === 'stopped') throw run.signal.reason;
  if (ending.kind === 'failed') return { error: ending.error };
  for (const mapping of placement.result) {
    const value = getPointer(childState.data, mapping.from);
    if (value !== undefined) state.data = setPointer(state.data, mapping.to, copyJson(value));
  }
  return { output: ending.outcome };
}
