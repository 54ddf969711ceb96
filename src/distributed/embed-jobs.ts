import type { EmbedPlacement } from '../document/model.ts';
import type { CompiledPlacement } from '../graph/compile.ts';
import { copyJson } from '../runtime/copy.ts';
import type { Outcome } from '../runtime/decide.ts';
import { type ClassifiedError, engineError } from '../runtime/error-summary.ts';
import type { ChildResult } from '../runtime/gather.ts';
import { createChildState, type ItemState } from '../runtime/item-state.ts';
import { embedSegment } from '../runtime/journal-key.ts';
import type { JournalEntry } from '../runtime/journal-value.ts';
import { getPointer, setPointer } from '../runtime/pointer.ts';
import type { Prepared } from '../runtime/prepare.ts';
import type { Ending } from '../runtime/runner.ts';
import type { ItemCarry, Transition } from '../runtime/step.ts';
import { gatheredJobId, openGather } from './gather-record.ts';
import { type ItemJob, JOB_FORMAT } from './job-data.ts';
import type { JobScope } from './job-scope.ts';
import {
  type ChildReport,
  ITEM_JOB_OPTIONS,
  joinSteps,
  ownSteps,
  type Spawn,
  startFanning,
  type Whereabouts,
  type Wiring,
} from './scatter-jobs.ts';

/**
 * How an embedded document's item ended, as its job writes it on the embed's record: the ending, the
 * item's data (the `result` mappings read from it) and the steps it recorded (they join the parent's
 * journal, so that the parent replays them if it enters the embed again).
 */
export interface EmbedResult {
  readonly ending:
    | { readonly kind: 'terminal'; readonly outcome: 'completed' | 'failed' }
    | { readonly kind: 'failed'; readonly error: ClassifiedError }
    | { readonly kind: 'stopped' };
  readonly data: Record<string, unknown>;
  readonly journal: Record<string, JournalEntry>;
}

/**
 * Carries out an embed placement as a child job, as a scatter of one child: the embed's record is written
 * (the parent item as it left, one child to wait for), then the job of the embedded document's item at its
 * first entrypoint, with the data the `input` mappings build. A wait inside the embedded document is then a
 * delayed job of its own, and the parent goes on in the job the child's ending adds (see
 * {@link embedOutcome}). Answers the embed's transition at once when there is nothing to run (a document
 * the run lacks, or one without an entrypoint), with the error the in-process embed gives.
 */
export function embedOut(
  wiring: Wiring,
  scope: JobScope,
  where: Whereabouts,
  prep: Prepared,
  state: ItemState,
  at: CompiledPlacement,
  carry: ItemCarry,
): Transition | Spawn {
  const run = scope.run;
  const placement = at.placement as EmbedPlacement;
  const dagId = prep.compiled.dag.id;
  const { visit, key, parent, fail } = startFanning(wiring, scope, where, prep, state, at, carry);
  const child = run.env.prepareIri(placement.dag);
  if (child === undefined) {
    const message = `embed '${at.key}' runs DAG '${placement.dag}', which is not in the library; pass it in createDistributedDispatcher({ library })`;
    return fail(engineError('E_UNKNOWN_DAG', message));
  }
  const entry = child.compiled.entrypoints[0];
  if (entry === undefined) {
    return fail(
      engineError('E_DANGLING_ENTRYPOINT', `DAG '${placement.dag}' has no entrypoint; declare one`),
    );
  }
  let data: Record<string, unknown> = {};
  for (const mapping of placement.input) {
    const value = getPointer(state.data, mapping.from);
    if (value !== undefined) data = setPointer(data, mapping.to, copyJson(value));
  }
  const frame = { kind: 'embed', dag: dagId, placement: at.key, visit } as const;
  const childState = createChildState(state, `${state.id}/${at.key}`, embedSegment(at.key), data, frame);
  const job: ItemJob = {
    v: JOB_FORMAT,
    kind: 'item',
    runId: scope.runId,
    at: entry.key,
    dag: placement.dag,
    state: childState,
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

/** An embedded document's item's ending, as its job writes it on the embed's record. */
export function embedResult(state: ItemState, ending: Ending): EmbedResult {
  const kind =
    ending.kind === 'terminal'
      ? ({ kind: 'terminal', outcome: ending.outcome } as const)
      : ending.kind === 'failed'
        ? ({ kind: 'failed', error: ending.error } as const)
        : ({ kind: 'stopped' } as const);
  return { ending: kind, data: state.data, journal: ownSteps(state) };
}

/**
 * The embed's outcome once its child ended, as the in-process embed gives it: at a terminal, the `result`
 * mappings copy the child's values into the parent's data and the terminal's outcome is the output; a
 * child that failed with an error gives that error. The steps the child recorded join the parent's
 * journal. Undefined for a child that was stopped: the parent stops too.
 */
export function embedOutcome(
  at: CompiledPlacement,
  state: ItemState,
  result: EmbedResult,
): Outcome | undefined {
  joinSteps(state, result.journal);
  // A child cancelled by the run's abort is written as a scatter child's `cancelled` result, with no ending.
  const ending = result.ending as EmbedResult['ending'] | undefined;
  if (ending === undefined || ending.kind === 'stopped') return undefined;
  if (ending.kind === 'failed') return { error: ending.error };
  for (const mapping of (at.placement as EmbedPlacement).result) {
    const value = getPointer(result.data, mapping.from);
    if (value !== undefined) state.data = setPointer(state.data, mapping.to, copyJson(value));
  }
  return { output: ending.outcome };
}

/**
 * The outcome a parent item goes on with once the last child of its scatter or embed ended: a scatter's
 * `done`, with the children's results handed to its gather, or the embed's outcome (see
 * {@link embedOutcome}); undefined when the parent stops.
 */
export function gatheredOutcome(
  at: CompiledPlacement,
  state: ItemState,
  carry: ItemCarry,
  results: readonly ChildResult[],
): Outcome | undefined {
  if (at.placement.kind !== 'embed') {
    carry.gathered = results.map((result) => {
      const { journal, ...rest } = result as ChildResult & Partial<ChildReport>;
      joinSteps(state, journal);
      return rest;
    });
    return { output: 'done' };
  }
  const [result] = results as readonly unknown[] as readonly EmbedResult[];
  return result === undefined ? undefined : embedOutcome(at, state, result);
}
