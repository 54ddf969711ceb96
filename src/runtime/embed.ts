import type { CompiledPlacement } from '../graph/compile.ts';
import type { Outcome } from './decide.ts';
import { isThenable } from './execute.ts';
import type { ItemState } from './item-state.ts';
import { embedChild, embedOutcome } from './kinds/embed.ts';
import type { Ending, RunContext } from './runner.ts';

/**
 * Runs an embed placement in this process: the child item the embed starts (see `embedChild` in
 * `kinds/embed.ts`) runs from the embedded document's first entrypoint to its end, and the embed's outcome is
 * what `embedOutcome` makes of its ending (the `result` mappings, or its error). The child's steps go to the
 * parent's journal under the scope `<placement key>/`, so a step recorded in an embed is replayed when the
 * parent enters the embed again. In a resumed run the child goes on from its checkpoint (see
 * {@link RunContext.driveChild}); `visit` and `dag` (the parent's visit of the placement and the document it
 * is in) name the child's frame. A child stopped by the run's abort or deadline stops the parent too.
 */
export async function runEmbed(
  run: RunContext,
  at: CompiledPlacement,
  state: ItemState,
  visit: number,
  dag: string,
): Promise<Outcome> {
  const started = embedChild(at, state, { dag, visit }, run.env, 'createDispatcher');
  if ('error' in started) return started;
  const { prep, entry, child } = started;
  const running = run.driveChild(prep, child, entry).settled();
  const ending = isThenable<Ending>(running) ? await running : running;
  const outcome = embedOutcome(at, state, { ending, data: child.data });
  if (outcome === undefined) throw run.signal.reason;
  return outcome;
}
