/**
 * What the children of a scatter or an embed share, whatever executor runs them: the document a child runs,
 * and the journal steps a child recorded apart from its parent (a distributed job), which join the parent's
 * journal when the parent goes on.
 */
import type { CompiledPlacement } from '../../graph/compile.ts';
import { type ClassifiedError, engineError } from '../error-summary.ts';
import type { ItemState } from '../item-state.ts';
import type { JournalEntry } from '../journal-value.ts';
import type { Prepared } from '../prepare.ts';
import type { RunEnvironment } from '../runner.ts';
import type { ChildResult } from './gather.ts';

/** The dispatcher whose `library` option a missing document is passed in, for the error that names it. */
export type DispatcherName = 'createDispatcher' | 'createDistributedDispatcher';

/** A document a scatter or an embed runs, prepared, with the entrypoint its children start at. */
export interface ChildDocument {
  /** The document's IRI, as the placement names it. */
  readonly iri: string;
  readonly prep: Prepared;
  readonly entry: CompiledPlacement;
}

/**
 * The prepared document `iri` that `who` runs, with its first entrypoint, or `E_UNKNOWN_DAG` when the
 * library lacks it, `E_DANGLING_ENTRYPOINT` when it has no entrypoint.
 */
export function childDocument(
  who: string,
  iri: string,
  env: Pick<RunEnvironment, 'prepareIri'>,
  dispatcher: DispatcherName,
): ChildDocument | { readonly error: ClassifiedError } {
  const prep = env.prepareIri(iri);
  if (prep === undefined) {
    const message = `${who} runs DAG '${iri}', which is not in the library; pass it in ${dispatcher}({ library })`;
    return { error: engineError('E_UNKNOWN_DAG', message) };
  }
  const entry = prep.compiled.entrypoints[0];
  if (entry === undefined) {
    return { error: engineError('E_DANGLING_ENTRYPOINT', `DAG '${iri}' has no entrypoint; declare one`) };
  }
  return { iri, prep, entry };
}

/** The journal entries a child item recorded: those under its scope. */
export function ownSteps(child: ItemState): Record<string, JournalEntry> {
  const scope = child.scope ?? '';
  const own: Record<string, JournalEntry> = {};
  for (const key of Object.keys(child.journal)) {
    if (key.startsWith(scope)) own[key] = child.journal[key] as JournalEntry;
  }
  return own;
}

/** Adds the steps a child recorded apart to its parent's journal (a step the parent already has is kept). */
export function joinSteps(parent: ItemState, steps: Record<string, JournalEntry> | undefined): void {
  if (steps === undefined) return;
  for (const key of Object.keys(steps)) {
    if (!Object.hasOwn(parent.journal, key)) parent.journal[key] = steps[key] as JournalEntry;
  }
}

/** A scatter child's result with the steps it recorded apart from its parent (a distributed child's report). */
type ReportedResult = ChildResult & { readonly journal?: Record<string, JournalEntry> };

/**
 * A scatter's results as its gather reads them, once its last child ended: the steps a child recorded apart
 * join `parent`'s journal (see {@link joinSteps}) and leave its result. Children that shared the parent's
 * journal (in process) report none, and their results are handed on as they are, with nothing copied.
 */
export function gatheredResults(parent: ItemState, results: readonly ChildResult[]): readonly ChildResult[] {
  let joined: ChildResult[] | undefined;
  for (let i = 0; i < results.length; i++) {
    const result = results[i] as ReportedResult;
    if (result.journal === undefined && joined === undefined) continue;
    joined ??= results.slice(0, i);
    if (result.journal === undefined) {
      joined.push(result);
      continue;
    }
    const { journal, ...rest } = result;
    joinSteps(parent, journal);
    joined.push(rest);
  }
  return joined ?? results;
}
