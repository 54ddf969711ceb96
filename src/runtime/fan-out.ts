/**
 * Carries out a fan out in this process (see {@link FanOut}): the parent is parked (a blocked parent for
 * the run's park watch) and its children become items of the executor's; the target hears once they have
 * all been counted off, or of the error that stopped them. The in-process item loop (`ItemDrive`) and
 * {@link fanInPlace} are its two targets.
 */
import type { ClassifiedError } from './error-summary.ts';
import type { ChildTarget, ItemDrive } from './item-drive.ts';
import { type EmbedResult, embedChild } from './kinds/embed.ts';
import type { ChildResult } from './kinds/gather.ts';
import { scatterFan } from './kinds/scatter.ts';
import type { Ending, RunContext } from './runner.ts';
import { type ScatterChildren, startScatter } from './scatter.ts';
import { type EmbedChildren, type FanOut, fanIn, type ItemAt, type Transition } from './step.ts';

/** How a fan out ended: a scatter's results, in input order, or an embed's child's ending and data. */
export type FanDone = { readonly results: ChildResult[] } | EmbedResult;

/** Who hears how a fan out ended (at most once, perhaps within {@link startFan}). */
export interface FanTarget extends ChildTarget {
  fannedIn(done: FanDone): void;
  fanFailed(error: unknown): void;
}

/**
 * The children scatter or embed `item.at` fans out at the parent's `visit` of it, as the `kinds/` modules
 * make them from the parent's state (a scatter's list elements, an embed's one child), or the error the
 * placement takes instead (see `scatterFan`, `embedChild`). A pure function of the parked parent: the step
 * makes a fan out with it, and a resumed run makes the same one again from the parent's checkpoint.
 */
export function fanChildren(
  run: RunContext,
  item: ItemAt,
  visit: number,
): ScatterChildren | EmbedChildren | { readonly error: ClassifiedError } {
  const { prep, state, at } = item;
  const dispatcher = run.env.dispatcher ?? 'createDispatcher';
  const dag = prep.compiled.dag.id;
  if (at.placement.kind === 'scatter') {
    const fan = scatterFan(at, state.data, run.env, dispatcher);
    if ('error' in fan) return fan;
    const entry = { parent: state, placement: at.key, dag, visit };
    return { kind: 'scatter', list: fan.list, body: fan.body, entry };
  }
  const child = embedChild(at, state, { dag, visit }, run.env, dispatcher);
  return 'error' in child ? child : { kind: 'embed', ...child };
}

/**
 * Parks the parent and starts its children: a scatter's under its concurrency (see `startScatter`), an
 * embed's one child (its ending goes to `target` as a {@link ChildTarget}). The parent stays blocked until
 * the target calls {@link unparkParent}.
 */
export function startFan(run: RunContext, fan: FanOut, target: FanTarget): void {
  const watch = run.root.parkWatch;
  if (watch !== undefined) watch.blocked++;
  try {
    const { item, children } = fan;
    if (children.kind === 'scatter') {
      startScatter(run, item.prep, item.at, children, target);
      return;
    }
    const drive = run.driveChild(children.prep, children.child, children.entry, target);
    if (drive.ending !== undefined) target.fannedIn(embedDone(drive));
  } catch (error) {
    unparkParent(run);
    throw error;
  }
}

/** The parent of a fan out goes on: it no longer waits on children. */
export function unparkParent(run: RunContext): void {
  const watch = run.root.parkWatch;
  if (watch !== undefined) watch.blocked--;
}

/** An embed's child has ended: its ending and the data its `result` mappings read. */
export function embedDone(drive: ItemDrive): FanDone {
  return { ending: drive.ending as Ending, data: drive.state.data };
}

/**
 * Carries out a fan out and takes the parent's transition once its children are counted off, for a caller
 * that moves one item at a time to its next placement (a distributed worker running a `first` gather's
 * scatter in one job).
 */
export function fanInPlace(run: RunContext, fan: FanOut): Promise<Transition> {
  return new Promise<FanDone>((resolve, reject) => {
    startFan(run, fan, {
      fannedIn: resolve,
      fanFailed: reject,
      childEnded: (drive) => resolve(embedDone(drive)),
    });
  })
    .finally(() => unparkParent(run))
    .then((done) => fanIn(run, fan, done));
}
