/**
 * A scatter child's first job (`ChildJob`): the scatter writes only the child's list element and where it
 * reports; the worker that takes the job makes the child's item job from the parent on the gather record,
 * read once per record and worker, with the same `scatterChild` as in process.
 */
import type { Redis } from 'ioredis';
import type { ScatterPlacement } from '../document/model.ts';
import { SwitchyardError } from '../errors.ts';
import { copyJson } from '../runtime/copy.ts';
import type { ItemState, JournalEntry } from '../runtime/item-state.ts';
import { noteFormatOneKeys } from '../runtime/journal.ts';
import { scatterChild } from '../runtime/kinds/scatter.ts';
import type { Prepared } from '../runtime/prepare.ts';
import { ownValue, recordFrom } from '../runtime/record.ts';
import { type ParentAtScatter, readParent } from './gather-record.ts';
import type { ChildJob, ItemJob } from './job-data.ts';

/** Gather records' parents a worker keeps before it forgets them all (each is read again by its next child). */
const REMEMBERED = 1_000;

/**
 * The parents of the gather records whose children a worker carries. A record's parent is written once,
 * before its children's jobs, and never changes, so it is read once.
 */
export class GatherParents {
  private readonly parents = new Map<string, Promise<ParentAtScatter | undefined>>();

  constructor(private readonly redis: Redis) {}

  /** The parent on gather record `key`; undefined once the record is gone (its run was closed). */
  of(key: string): Promise<ParentAtScatter | undefined> {
    let parent = this.parents.get(key);
    if (parent === undefined) {
      if (this.parents.size >= REMEMBERED) this.parents.clear();
      const read = readParent(this.redis, key);
      parent = read;
      this.parents.set(key, read);
      // Only a parent read is kept: a failed read, or none, is read again by the next child.
      read.then(
        (found) => {
          if (found === undefined) this.parents.delete(key);
        },
        () => this.parents.delete(key),
      );
    }
    return parent;
  }
}

/**
 * The item job of child `job` of the scatter whose parent (as it left for its children) is `parent`, in
 * document `prep` (the parent's): the child's state as the scatter makes it, at the scatter's placement for a
 * node body, or at the entrypoint of the body document `bodyPrep` for a sub-DAG body. The state is the
 * engine's own (its data a copy of the element, its journal a copy of the parent's, its scope worked out
 * when first read), so the job needs no `revive`: the parent is shared by every child this worker carries,
 * and no child writes into it.
 */
export function childItemJob(
  job: ChildJob,
  parent: ParentAtScatter,
  prep: Prepared,
  bodyPrep: (iri: string) => Prepared | undefined,
): ItemJob {
  const visit = ownValue(parent.state.visits, parent.at) ?? 0;
  const entry = {
    parent: withOwnJournal(parent.state),
    placement: parent.at,
    dag: prep.compiled.dag.id,
    visit,
  };
  const state = scatterChild(entry, job.index, job.item);
  const child = { gather: job.gather, index: job.index, body: job.body };
  const base = { v: job.v, kind: 'item', runId: job.runId, state, delays: [], child } as const;
  if (job.body === 'node') {
    return { ...base, at: parent.at, ...(parent.dag === undefined ? {} : { dag: parent.dag }) };
  }
  const at = prep.compiled.byKey.get(parent.at)?.placement as ScatterPlacement | undefined;
  const iri = at?.dag;
  const entrypoint = iri === undefined ? undefined : bodyPrep(iri)?.compiled.entrypoints[0];
  if (iri === undefined || entrypoint === undefined) {
    throw new SwitchyardError(
      'E_UNKNOWN_DAG',
      `run '${job.runId}' has no body document for scatter '${parent.at}' of child ${job.index}`,
    );
  }
  return { ...base, at: entrypoint.key, dag: iri };
}

/**
 * `parent` with a copy of its journal in a null-prototype record, as `restoreItemState` copies it: the
 * child records its steps in the journal it is given, and the parent read from the record is shared.
 */
function withOwnJournal(parent: ItemState): ItemState {
  const journal = recordFrom(parent.journal, (entry) => copyJson(entry) as JournalEntry);
  noteFormatOneKeys(journal);
  return { ...parent, journal };
}
