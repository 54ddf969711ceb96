import type { CompiledPlacement } from '../graph/compile.ts';
import type { FanDone } from '../runtime/fan-out.ts';
import type { ItemState } from '../runtime/item-state.ts';
import { ownSteps } from '../runtime/kinds/children.ts';
import type { EmbedResult } from '../runtime/kinds/embed.ts';
import type { ChildResult } from '../runtime/kinds/gather.ts';
import type { Ending } from '../runtime/runner.ts';
import type { EmbedChildren, FanOut } from '../runtime/step.ts';
import { gatheredJobId, openGather } from './gather-record.ts';
import { type ItemJob, JOB_FORMAT } from './job-data.ts';
import type { JobScope } from './job-scope.ts';
import { fanRecord, ITEM_JOB_OPTIONS, type Spawn, type Whereabouts, type Wiring } from './scatter-jobs.ts';

/**
 * Carries out an embed's fan out as a child job, as a scatter of one child: the embed's record is written
 * (the parent item as it left, one child to wait for), then the job of the embedded document's item at its
 * first entrypoint, with the data the `input` mappings built (`kinds/embed.ts`). A wait inside the embedded
 * document is then a delayed job of its own, and the parent goes on in the job the child's ending adds (see
 * {@link gatheredDone}).
 */
export function embedJobs(
  wiring: Wiring,
  scope: JobScope,
  where: Whereabouts,
  fan: FanOut,
  children: EmbedChildren,
): Spawn {
  const { key, parent } = fanRecord(wiring, scope, where, fan);
  const job: ItemJob = {
    v: JOB_FORMAT,
    kind: 'item',
    runId: scope.runId,
    at: children.entry.key,
    dag: children.iri,
    state: children.child,
    delays: [],
    child: { gather: key, index: 0, body: 'embed' },
  };
  // A fixed id: an embed job run again after its worker died does not add its child twice, nor again once
  // the child was counted (its job removed).
  const jobId = `${gatheredJobId(key)}-0`;
  return async () => {
    const counted = await openGather(wiring.redis, key, wiring.keys.gathers, parent, 1);
    if (!counted.has(0)) await wiring.queue.add('item', job, { ...ITEM_JOB_OPTIONS, jobId });
  };
}

/**
 * How an embedded document's item ended, as its job writes it on the embed's record: its ending, its data
 * (the `result` mappings read from it) and the steps it recorded (they join the parent's journal, so that
 * the parent replays them if it enters the embed again).
 */
export function embedReport(state: ItemState, ending: Ending): EmbedResult {
  return { ending, data: state.data, journal: ownSteps(state) };
}

/**
 * What the last child of a scatter's or an embed's record hands the parent, as the runtime's `fanIn` takes
 * it from any executor: a scatter's results (the steps each child recorded join the parent's journal
 * there), or the embed's one child's ending, data and steps; an embed whose record holds no result stands
 * for a child that has no ending, and the parent stops.
 */
export function gatheredDone(at: CompiledPlacement, results: readonly ChildResult[]): FanDone {
  if (at.placement.kind !== 'embed') return { results: results as ChildResult[] };
  const [result] = results as readonly unknown[] as readonly EmbedResult[];
  return result ?? { ending: undefined, data: {} };
}
