import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { hashDag } from '../document/hash.ts';
import type { Dag } from '../document/model.ts';
import { isSwitchyardError } from '../errors.ts';
import type { Clock, RuntimePolicy } from '../policy/types.ts';
import { unchangingJson } from '../store/json.ts';
import type { DocumentRecord, Lease, RunRecord, RunStatus, RunStore } from '../store/types.ts';
import { VERSION } from '../version.ts';
import { canonicalJson } from './canonical-json.ts';
import type { EventStream } from './event-stream.ts';
import type { ItemState } from './item-state.ts';
import { bindJournal } from './journal.ts';
import { Recorder } from './recorder.ts';
import type { ResumeBook } from './resume-book.ts';

/**
 * The version of the records a durable run writes; a run recorded with a newer one is not resumed. Format 2
 * names a scatter child's journal keys by its position and its element (`fan[2:9c1e07aa31f0]/charge`, see
 * `journal-key.ts`), where format 1 named the position only (`fan[2]/charge`): a program reading format 1
 * only would not find a format-2 run's step values and would run those steps again. A format-1 run resumes
 * here with its step values replayed (a step recorded under a position-only key is still found).
 */
export const RUN_FORMAT_VERSION = 2;

/** How long a lease lasts without a heartbeat; another process may take the run over after that. */
export const LEASE_TTL_MS = 15_000;

/** Why the heartbeat stops: made once, since an abort without a reason builds a DOMException each time. */
const FINISHED = new Error('the run finished');

/** This host's name, read once. */
const HOST = hostname();

/** Policy hashes by resolved policy object: a dispatcher records the same policy with every run. */
const policyHashes = new WeakMap<object, string>();

/** The record of each document, by document (see `documentRecord`). */
const documentRecords = new WeakMap<Dag, DocumentRecord>();

/** How often a running process renews its lease. */
const HEARTBEAT_MS = 5_000;

/** What a durable run records about how it was started, beside its input. */
export interface RecordedOptions {
  readonly entrypoint: string;
  readonly deadlineMs?: number;
  readonly items: number;
  /** IRI → file of the documents the run uses, when they came from files. */
  readonly files: Readonly<Record<string, string>>;
  /** True when the input holds whole item states (a run started with `resume` states), not item data. */
  readonly states?: boolean;
  /** The W3C `traceparent` of the run's span when the run was traced: its resumes go on in that trace. */
  readonly trace?: string;
}

/**
 * A run recorded in a store as it goes: its {@link Recorder}, the lease that makes this process the only
 * one moving it (kept alive by a heartbeat on the run's clock), and, for a resumed run, the checkpoints it
 * goes on from.
 */
export class DurableRun {
  /** Stops the heartbeat; made when the heartbeat starts. */
  private heartbeat: AbortController | undefined;
  private finished = false;

  constructor(
    readonly recorder: Recorder,
    private lease: Lease,
    private readonly clock: Clock,
    readonly book: ResumeBook | undefined,
  ) {
    recorder.lease = lease;
  }

  /** Records every event of `stream`. */
  listen(stream: EventStream): void {
    stream.listen(this.recorder.event);
  }

  /**
   * Starts recording the step values of each input item's journal, and the heartbeat; `stop` ends the run
   * when the store fails or the lease is lost.
   */
  attach(states: readonly ItemState[], stop: (error: unknown) => void): void {
    const recorder = this.recorder;
    recorder.onFailure = stop;
    recorder.track(states.map((state) => state.id));
    for (const state of states) {
      bindJournal(state.journal, (key, entry) => recorder.step(state.id, key, entry));
    }
    // The first renewal is due HEARTBEAT_MS after this moment, whenever the heartbeat starts: it starts on
    // the next macrotask, so a run that ends within its first turn (quick nodes) sets no timer at all.
    const due = this.clock.now() + HEARTBEAT_MS;
    setImmediate(() => {
      if (!this.finished) void this.beat(stop, due);
    });
  }

  /** Renews the lease until the run ends; a lease taken over by another process stops the run. */
  private async beat(stop: (error: unknown) => void, due: number): Promise<void> {
    const heartbeat = new AbortController();
    this.heartbeat = heartbeat;
    const signal = heartbeat.signal;
    for (let wait = due - this.clock.now(); ; wait = HEARTBEAT_MS) {
      try {
        await this.clock.sleep(wait, signal);
      } catch {
        return;
      }
      try {
        this.lease = await this.recorder.store.renewLease(this.lease, this.clock.wallNow(), LEASE_TTL_MS);
        this.recorder.lease = this.lease;
      } catch (error) {
        if (signal.aborted) return;
        stop(error);
        return;
      }
    }
  }

  /**
   * Writes the run's end: everything queued, then its status (`running` and `aborted` stay resumable),
   * then gives the lease up. Throws the store's error when a commit failed during the run.
   */
  async finish(status: RunStatus): Promise<void> {
    this.finished = true;
    this.heartbeat?.abort(FINISHED);
    const recorder = this.recorder;
    if (recorder.failure === undefined) {
      const at = this.clock.wallNow();
      const update =
        status === 'running' || status === 'aborted' || status === 'waiting'
          ? { runId: recorder.runId, status, at }
          : { runId: recorder.runId, status, at, finishedAt: at };
      // The status and the lease's release go in the same transaction as the run's last transitions.
      recorder.write({ kind: 'run-status', update });
      recorder.write({ kind: 'release', lease: this.lease });
      await recorder.flush().catch(() => undefined);
    }
    if (recorder.failure !== undefined) {
      await recorder.store.releaseLease(this.lease).catch(() => undefined);
      throw recorder.failure;
    }
  }
}

/** The holder this process is in a lease. */
export function thisProcess() {
  return { pid: process.pid, host: HOST };
}

/**
 * Takes the run's lease for this process. A lease still live but held by a process of this host that no
 * longer exists (killed, crashed) is taken over at once rather than after its expiry; any other live
 * lease is refused with `E_STORE_LEASE_HELD`, naming its holder.
 */
export async function takeLease(store: RunStore, runId: string, clock: Clock): Promise<Lease> {
  const holder = thisProcess();
  const request = () => store.acquireLease({ runId, holder, now: clock.wallNow(), ttlMs: LEASE_TTL_MS });
  try {
    return await request();
  } catch (error) {
    if (!(isSwitchyardError(error) && error.code === 'E_STORE_LEASE_HELD')) throw error;
    const held = await store.getLease(runId);
    if (held === undefined || held.host !== holder.host || isAlive(held.pid)) throw error;
    await store.releaseLease(held);
    return request();
  }
}

/** True unless this host has no process `pid` (one this process may not signal still exists). */
function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** What a new durable run records before its first item moves. */
export interface NewRun {
  readonly store: RunStore;
  readonly runId: string;
  readonly dag: Dag;
  readonly documents: readonly Dag[];
  readonly policy: RuntimePolicy;
  readonly input: unknown;
  readonly options: RecordedOptions;
}

/** The record of a new run, `running`: its documents with their hashes, the policy, the input and options. */
export async function newRunRecord(run: Omit<NewRun, 'store'>, clock: Clock): Promise<RunRecord> {
  const files = run.options.files;
  const now = clock.wallNow();
  return {
    id: run.runId,
    dag: await documentRecord(run.dag, files),
    documents: await Promise.all(run.documents.map((dag) => documentRecord(dag, files))),
    policy: { value: run.policy, hash: policyHashOf(run.policy) },
    input: run.input,
    options: run.options,
    status: 'running',
    createdAt: now,
    updatedAt: now,
    formatVersion: RUN_FORMAT_VERSION,
    engineVersion: VERSION,
  };
}

/**
 * Records a new run (see {@link newRunRecord}) and takes its lease, in one transaction that is durable
 * before any item moves: before any node's code runs, so that whatever a node does belongs to a recorded run.
 */
export async function beginDurable(run: NewRun, clock: Clock): Promise<DurableRun> {
  const record = await newRunRecord(run, clock);
  // A new run has no other holder: its lease goes in with its record.
  const now = clock.wallNow();
  const lease: Lease = {
    runId: run.runId,
    ...thisProcess(),
    token: randomUUID(),
    acquiredAt: now,
    expiresAt: now + LEASE_TTL_MS,
  };
  await run.store.commit([
    { kind: 'run', run: record },
    { kind: 'lease', lease },
  ]);
  return new DurableRun(new Recorder(run.store, run.runId, clock), lease, clock, undefined);
}

/**
 * The record of a document a run uses, made once per document and file. A document is not changed once
 * loaded (its hash is kept per document too), so the store may encode the record once for every run.
 */
async function documentRecord(dag: Dag, files: Readonly<Record<string, string>>): Promise<DocumentRecord> {
  const file = Object.hasOwn(files, dag.id) ? files[dag.id] : undefined;
  const known = documentRecords.get(dag);
  if (known !== undefined && known.file === file) return known;
  const hash = await hashDag(dag);
  const record: DocumentRecord =
    file === undefined ? { iri: dag.id, hash, document: dag } : { iri: dag.id, hash, file, document: dag };
  documentRecords.set(dag, unchangingJson(record));
  return record;
}

/** SHA-256 of a policy's canonical JSON, so the same policy always has the same hash; once per policy object. */
function policyHashOf(policy: RuntimePolicy): string {
  let hash = policyHashes.get(policy);
  if (hash === undefined) {
    hash = createHash('sha256').update(canonicalJson(policy)).digest('hex');
    policyHashes.set(policy, hash);
    // A resolved policy is not changed once made: the store may encode it once for every run.
    unchangingJson(policy);
  }
  return hash;
}
