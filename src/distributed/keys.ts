import { createHash } from 'node:crypto';
import type { PositionFrame } from '../store/types.ts';

/**
 * The Redis keys of a distributed run beside BullMQ's own (which live under `<prefix>:<queue>:`). The run
 * id is a Cluster hash tag, so a run's keys live on one shard.
 */
export interface RunKeys {
  /** The prefix of every key of the run (gather records are under it). */
  readonly base: string;
  /** The run's spec: its documents, policy and deadline (a string of JSON). */
  readonly spec: string;
  /** The set of the run's gather records, deleted with the run. */
  readonly gathers: string;
  /**
   * The run's ledger, a hash the workers keep up to date with each job (see `ledger.ts`): input items
   * still pending, the next event seq, the counters, the run store's prefix, an abort request.
   */
  readonly ledger: string;
  /** The set of input item ids that ended: an item is counted off the pending ones once. */
  readonly ended: string;
  /**
   * The set of reports written (a job's id and attempt): a report that reaches Redis twice, as a command
   * sent again after a lost connection does, is written once.
   */
  readonly reported: string;
  /**
   * Which job claimed each input item whose first job a pre-phase job added: a copy of that job added
   * twice (the pre-phase job ran again) runs once (see `claimInput`).
   */
  readonly claimed: string;
  /**
   * A hash of the run's items parked at await placements, by answer token: what a job needs to carry the
   * item on once its answer or its deadline comes (see `await-park.ts`).
   */
  readonly parked: string;
  /**
   * A hash of the tokens whose park was taken, by what took it (`answer`, `deadline`, `abort`): an answer
   * to a park its deadline or an abort took is refused, and a taken park is not registered again.
   */
  readonly settled: string;
}

/** The keys of run `runId` under `prefix`. */
export function runKeys(prefix: string, runId: string): RunKeys {
  const base = `${prefix}:run:{${runId}}`;
  return {
    base,
    spec: `${base}:spec`,
    gathers: `${base}:gathers`,
    ledger: `${base}:ledger`,
    ended: `${base}:ended`,
    reported: `${base}:reported`,
    claimed: `${base}:claimed`,
    parked: `${base}:parked`,
    settled: `${base}:settled`,
  };
}

/** The run store prefix a distributed dispatcher records its runs under when it is given no store. */
export function defaultStorePrefix(prefix: string): string {
  return `${prefix}:store:`;
}

/**
 * What tells apart the entries of items that share an id: the embeds and scatters an item is inside, each
 * with the visit of its parent's entry (and the child's index), as a short digest; '' for an input item.
 * An embed's item and a scatter's children keep their ids from one entry of their parent to the next (a
 * retry that enters the embed again makes item `1/draft` again), so every key of work inside an entry (a
 * gather record, a slot's holder) carries this as well as the id.
 * @example
 * entryTag([{ kind: 'embed', dag: 'urn:a', placement: 'draft', visit: 2 }]); // ':3b1f…' (16 hex digits)
 */
export function entryTag(frames: readonly PositionFrame[] | undefined): string {
  if (frames === undefined || frames.length === 0) return '';
  // An item's frames are immutable and revived once per job, so a job that needs the tag several times (a
  // slot's holder, a gather record's key) hashes its frames once.
  let tag = tags.get(frames);
  if (tag === undefined) {
    const path = frames.map((f) => [f.kind, f.dag, f.placement, f.visit, f.kind === 'scatter' ? f.index : 0]);
    tag = `:${createHash('sha256').update(JSON.stringify(path)).digest('hex').slice(0, 16)}`;
    tags.set(frames, tag);
  }
  return tag;
}

const tags = new WeakMap<readonly PositionFrame[], string>();

/**
 * The Redis keys of gate key `key` (a gate's name, or `<name>:<finer key>`) under `prefix`. A gate is an
 * outside provider's limit, not a run's: every run and worker on the prefix shares these keys. The gate key
 * is a Cluster hash tag, so its keys live on one shard and one script reaches them all.
 */
export interface GateKeys {
  /** A hash: `tat` and `closedUntil` (see `GateKeyState`), and `closedAt`, when the closing in force began. */
  readonly state: string;
  /** A sorted set of the executions under the key, scored by the wall time their lease ends. */
  readonly running: string;
  /** The set of run ids that saw the current closing, each told once that it reopened. */
  readonly saw: string;
}

/** The keys of gate key `key` under `prefix`. */
export function gateKeys(prefix: string, key: string): GateKeys {
  const base = `${prefix}:gate:{${key}}`;
  return { state: base, running: `${base}:running`, saw: `${base}:saw` };
}
