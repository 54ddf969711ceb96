import { hashDag } from '../document/hash.ts';
import type { Dag, DagLibrary } from '../document/model.ts';
import { SwitchyardError } from '../errors.ts';
import type { CompiledPlacement } from '../graph/compile.ts';
import type { RunRecord, RunStore } from '../store/types.ts';
import { copyJson } from './copy.ts';
import { type RecordedOptions, RUN_FORMAT_VERSION } from './durable-run.ts';
import { summarise } from './error-summary.ts';
import { createItemState, type ItemState, restoreItemState } from './item-state.ts';
import { readFormatOneKeys } from './journal.ts';
import type { Prepared } from './prepare.ts';
import { emptyRecord } from './record.ts';
import {
  type CheckpointWarning,
  checkedCheckpoint,
  endingOf,
  journalsFrom,
  placementOf,
  ResumeBook,
  type Resumed,
  restoredState,
  resumedFrom,
} from './resume-book.ts';
import type { PhaseError } from './run.ts';
import type { Ending } from './runner.ts';

/** The id of a run's own item, which its phases run on. */
const RUN_ITEM = 'run';

/** How an input item of a resumed run goes on: from a placement (and a checkpoint), or not at all. */
export type Start =
  | { readonly at: CompiledPlacement; readonly resumed?: Resumed }
  | { readonly ended: Ending };

/** The input items of a recorded run and how each goes on. */
export interface ResumedItems {
  readonly states: ItemState[];
  readonly starts: Start[];
  readonly book: ResumeBook;
  readonly entry: CompiledPlacement;
  /** True when the run's items had started: its pre phases ran. */
  readonly preDone: boolean;
  /** The pre phase that failed, when one did: its items all failed with it. */
  readonly preFailure?: PhaseError;
  /** Checkpoints whose data was converted to its JSON form (see `checkedCheckpoint`), one warning each. */
  readonly warnings: readonly CheckpointWarning[];
}

/** A recorded run that may be resumed, with the documents to resume it with. */
export interface RecordedRun {
  readonly record: RunRecord;
  readonly dag: Dag;
  /** The documents it embeds, as the library has them or, when it lacks one, as recorded. */
  readonly library: DagLibrary;
}

/**
 * Reads a run to resume and checks it can be: it exists, no newer program recorded it, it has not ended,
 * and its documents are the ones it ran (`dag`, default the recorded one, and the library's). Throws
 * `E_RESUME_UNKNOWN_RUN`, `E_RESUME_NEWER_RUN`, `E_RUN_FINISHED` or `E_RESUME_DAG_CHANGED`.
 */
export async function readRecordedRun(
  store: RunStore,
  runId: string,
  dag: Dag | undefined,
  library: DagLibrary | undefined,
): Promise<RecordedRun> {
  const record = await store.getRun(runId);
  if (record === undefined) {
    throw new SwitchyardError(
      'E_RESUME_UNKNOWN_RUN',
      `no run '${runId}' is recorded in ${store.location}; list the runs there with \`switchyard runs\``,
    );
  }
  if (record.formatVersion > RUN_FORMAT_VERSION) {
    throw new SwitchyardError(
      'E_RESUME_NEWER_RUN',
      `run '${runId}' was recorded by Switchyard ${record.engineVersion} in a newer format (${record.formatVersion}, this program reads up to ${RUN_FORMAT_VERSION}); resume it with that version or newer`,
    );
  }
  if (record.status === 'completed' || record.status === 'failed') {
    throw new SwitchyardError(
      'E_RUN_FINISHED',
      `run '${runId}' already ended (${record.status}); it cannot be resumed — see it with \`switchyard runs show ${runId}\`, or start a new run`,
    );
  }
  const root = dag ?? (record.dag.document as Dag);
  await sameDocument(runId, record.dag, root);
  const recorded = new Map<string, Dag>();
  for (const doc of record.documents) {
    const current = library?.get(doc.iri);
    if (current !== undefined) await sameDocument(runId, doc, current);
    else recorded.set(doc.iri, doc.document as Dag);
  }
  return { record, dag: root, library: { get: (iri) => library?.get(iri) ?? recorded.get(iri) } };
}

async function sameDocument(
  runId: string,
  doc: { readonly iri: string; readonly hash: string; readonly file?: string },
  dag: Dag,
): Promise<void> {
  const hash = await hashDag(dag);
  if (hash === doc.hash) return;
  const where = doc.file === undefined ? `document '${doc.iri}'` : `${doc.file} (${doc.iri})`;
  throw new SwitchyardError(
    'E_RESUME_DAG_CHANGED',
    `${where} changed since run '${runId}' started: it ran hash ${doc.hash}, the document now has hash ${hash}; restore the document as it was to resume, or start a new run`,
  );
}

/**
 * The input items of a recorded run and how each goes on, from their checkpoints and committed step
 * values; the checkpoints of the items inside embeds and scatters go to the returned book.
 */
export async function recordedItems(
  store: RunStore,
  record: RunRecord,
  prep: Prepared,
): Promise<ResumedItems> {
  const options = record.options as RecordedOptions;
  const entry = prep.compiled.byKey.get(options.entrypoint) ?? prep.compiled.entrypoints[0];
  if (entry === undefined) {
    throw new SwitchyardError(
      'E_DANGLING_ENTRYPOINT',
      `DAG '${prep.compiled.dag.id}' has no entrypoint; declare one`,
    );
  }
  const warnings: CheckpointWarning[] = [];
  const checkpoints = (await store.listCheckpoints(record.id)).map((c) => checkedCheckpoint(c, warnings));
  const journals = journalsFrom(await store.listJournal(record.id));
  const book = new ResumeBook(new Map(checkpoints.map((c) => [c.itemId, c])));
  const input = Array.isArray(record.input) ? (record.input as unknown[]) : [];
  const states: ItemState[] = [];
  const starts: Start[] = [];
  input.forEach((value, i) => {
    const base =
      options.states === true
        ? restoreItemState(value as ItemState)
        : createItemState(String(i + 1), copyJson(value as Record<string, unknown>));
    const fresh: ItemState = { ...base, journal: journals.get(base.id) ?? emptyRecord() };
    // Format 1 named a scatter child's steps by its position only.
    if (record.formatVersion < 2) readFormatOneKeys(fresh.journal);
    const saved = book.take(fresh.id, []);
    if (saved === undefined) {
      states.push(fresh);
      starts.push({ at: entry });
    } else if (saved.status === 'ended' && saved.ending !== undefined) {
      states.push(restoredState(saved, fresh));
      starts.push({ ended: endingOf(saved.ending, saved.position.placement) });
    } else {
      states.push(restoredState(saved, fresh));
      starts.push({ at: placementOf(prep, saved) ?? entry, resumed: resumedFrom(saved) });
    }
  });
  // Items start once the pre phases are done: a run with a checkpoint ran them. A pre phase that failed is
  // the ending of the run's own phase item.
  const phase = checkpoints.find((c) => c.itemId === RUN_ITEM && c.ending?.kind === 'failure');
  const preDone = checkpoints.length > 0;
  if (phase?.ending === undefined) return { states, starts, book, entry, preDone, warnings };
  const failed = endingOf(phase.ending, phase.position.placement);
  if (failed.kind !== 'failed') return { states, starts, book, entry, preDone, warnings };
  const preFailure: PhaseError = { placement: failed.placement, error: summarise(failed.error) };
  return { states, starts, book, entry, preDone, preFailure, warnings };
}
