/**
 * A run store in memory, for tests and for runs that keep no history. It keeps every record as JSON text,
 * so values are copied in and out exactly as a file store would copy them, and a caller never shares an
 * object with it.
 */
import { randomUUID } from 'node:crypto';
import { checkEventPage, checkEventQuery, eventsTaken, pageEvents } from './event-pages.ts';
import { fromJsonText, toJsonText } from './json.ts';
import { checkTakeover, grantLease, renewedLease } from './lease.ts';
import {
  decodeCursor,
  ENDED_STATUSES,
  encodeCursor,
  isAfter,
  newestFirst,
  pageSize,
  statusFilter,
} from './query.ts';
import { alreadyAnswered, closed, leaseLost, runTaken, unknownRun } from './store-errors.ts';
import type {
  AnswerRecord,
  EventPageWrite,
  EventQuery,
  EventRecord,
  ItemCheckpoint,
  ItemStatus,
  JournalRecord,
  Lease,
  LeaseRequest,
  PruneOptions,
  PruneResult,
  RunPage,
  RunQuery,
  RunRecord,
  RunStatusUpdate,
  RunStore,
  StoreWrite,
} from './types.ts';

/** Everything held for one run. */
interface RunEntry {
  run: RunRecord;
  readonly checkpoints: Map<string, { readonly status: ItemStatus; readonly text: string }>;
  readonly journal: Map<string, string>;
  /** The JSON text of each answer by its token, in the order they were given. */
  readonly answers: Map<string, string>;
  /** Single events and pages of events, which never overlap, sorted by seq. */
  readonly events: EventSpan[];
  lease: Lease | undefined;
}

/** The JSON text of one event (`page` false) or of a page of events, and the seqs it spans. */
interface EventSpan {
  readonly first: number;
  readonly last: number;
  readonly page: boolean;
  readonly text: string;
}

/** Undoes one applied write, so a failed batch leaves nothing behind. */
type Undo = () => void;

/**
 * Creates an empty in-memory store.
 * @example
 * const store = createMemoryStore();
 * await store.commit([{ kind: 'run', run }]);
 */
export function createMemoryStore(): RunStore {
  return new MemoryRunStore();
}

class MemoryRunStore implements RunStore {
  readonly location = ':memory:';
  private readonly runs = new Map<string, RunEntry>();
  private open = true;

  async commit(batch: readonly StoreWrite[]): Promise<void> {
    this.check();
    const undo: Undo[] = [];
    try {
      for (const write of batch) undo.push(this.apply(write));
    } catch (error) {
      for (let i = undo.length - 1; i >= 0; i--) (undo[i] as Undo)();
      throw error;
    }
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    this.check();
    const entry = this.runs.get(runId);
    return entry === undefined ? undefined : structuredClone(entry.run);
  }

  async listRuns(query: RunQuery = {}): Promise<RunPage> {
    this.check();
    const limit = pageSize(query);
    const statuses = statusFilter(query);
    const after = decodeCursor(query.cursor);
    const matching = [...this.runs.values()]
      .map((entry) => entry.run)
      .filter(
        (run) =>
          (statuses === undefined || statuses.includes(run.status)) &&
          (query.dag === undefined || run.dag.iri === query.dag) &&
          (after === undefined || isAfter(run, after)),
      )
      .sort(newestFirst);
    const runs = matching.slice(0, limit).map((run) => structuredClone(run));
    const last = runs.at(-1);
    return matching.length > limit && last !== undefined ? { runs, next: encodeCursor(last) } : { runs };
  }

  async getCheckpoint(runId: string, itemId: string): Promise<ItemCheckpoint | undefined> {
    this.check();
    const held = this.runs.get(runId)?.checkpoints.get(itemId);
    return held === undefined ? undefined : fromJsonText<ItemCheckpoint>(held.text);
  }

  async listCheckpoints(runId: string, status?: ItemStatus): Promise<readonly ItemCheckpoint[]> {
    this.check();
    const held = [...(this.runs.get(runId)?.checkpoints.values() ?? [])];
    return held
      .filter((checkpoint) => status === undefined || checkpoint.status === status)
      .map((checkpoint) => fromJsonText<ItemCheckpoint>(checkpoint.text));
  }

  async getJournalEntry(
    runId: string,
    itemPath: string,
    stepKey: string,
  ): Promise<JournalRecord | undefined> {
    this.check();
    const text = this.runs.get(runId)?.journal.get(journalKey(itemPath, stepKey));
    return text === undefined ? undefined : fromJsonText<JournalRecord>(text);
  }

  async listJournal(runId: string, itemPath?: string): Promise<readonly JournalRecord[]> {
    this.check();
    const entries = [...(this.runs.get(runId)?.journal.values() ?? [])].map((text) =>
      fromJsonText<JournalRecord>(text),
    );
    return itemPath === undefined ? entries : entries.filter((entry) => entry.itemPath === itemPath);
  }

  async getAnswer(runId: string, token: string): Promise<AnswerRecord | undefined> {
    this.check();
    const text = this.runs.get(runId)?.answers.get(token);
    return text === undefined ? undefined : fromJsonText<AnswerRecord>(text);
  }

  async listAnswers(runId: string): Promise<readonly AnswerRecord[]> {
    this.check();
    return [...(this.runs.get(runId)?.answers.values() ?? [])].map((text) =>
      fromJsonText<AnswerRecord>(text),
    );
  }

  async readEvents(runId: string, query: EventQuery = {}): Promise<readonly EventRecord[]> {
    this.check();
    checkEventQuery(query);
    const spans = this.runs.get(runId)?.events ?? [];
    const after = query.after ?? Number.NEGATIVE_INFINITY;
    const limit = query.limit ?? Number.POSITIVE_INFINITY;
    const out: EventRecord[] = [];
    for (let i = firstEnding(spans, after, false); i < spans.length && out.length < limit; i++) {
      const span = spans[i] as EventSpan;
      if (!span.page) {
        out.push(fromJsonText<EventRecord>(span.text));
        continue;
      }
      for (const event of fromJsonText<EventRecord[]>(span.text)) {
        if (event.seq > after && out.length < limit) out.push(event);
      }
    }
    return out;
  }

  streamEvents(runId: string, after?: number, pageSize?: number): AsyncIterable<EventRecord> {
    return pageEvents(
      (from, limit) => this.readEvents(runId, { ...optional('after', from), limit }),
      after,
      pageSize,
    );
  }

  async lastEventSeq(runId: string): Promise<number | undefined> {
    this.check();
    return this.runs.get(runId)?.events.at(-1)?.last;
  }

  async acquireLease(request: LeaseRequest): Promise<Lease> {
    this.check();
    const entry = this.entry(request.runId, 'the lease');
    entry.lease = grantLease(entry.lease, request, randomUUID());
    return { ...entry.lease };
  }

  async renewLease(lease: Lease, now: number, ttlMs: number): Promise<Lease> {
    this.check();
    const entry = this.runs.get(lease.runId);
    const renewed = renewedLease(entry?.lease, lease, now, ttlMs);
    (entry as RunEntry).lease = renewed;
    return { ...renewed };
  }

  async releaseLease(lease: Lease): Promise<void> {
    this.check();
    const entry = this.runs.get(lease.runId);
    if (entry?.lease?.token === lease.token) entry.lease = undefined;
  }

  async getLease(runId: string): Promise<Lease | undefined> {
    this.check();
    const lease = this.runs.get(runId)?.lease;
    return lease === undefined ? undefined : { ...lease };
  }

  async prune(options: PruneOptions): Promise<PruneResult> {
    this.check();
    const statuses = options.statuses ?? ENDED_STATUSES;
    let runs = 0;
    for (const [id, entry] of this.runs) {
      if (entry.run.createdAt < options.olderThan && statuses.includes(entry.run.status)) {
        this.runs.delete(id);
        runs++;
      }
    }
    return { runs, reclaimedBytes: 0 };
  }

  async close(): Promise<void> {
    this.open = false;
  }

  private check(): void {
    if (!this.open) throw closed(this.location);
  }

  private entry(runId: string, what: string): RunEntry {
    const entry = this.runs.get(runId);
    if (entry === undefined) throw unknownRun(runId, what);
    return entry;
  }

  private apply(write: StoreWrite): Undo {
    switch (write.kind) {
      case 'run':
        return this.addRun(write.run);
      case 'run-status':
        return this.updateStatus(write.update);
      case 'checkpoint':
        return this.putCheckpoint(write.checkpoint, write.text);
      case 'journal':
        return this.putJournal(write.entry);
      case 'event':
        return this.putEvent(write.event);
      case 'events':
        return this.putEventPage(write);
      case 'answer':
        return this.putAnswer(write.answer);
      case 'lease':
        return this.takeLease(write.lease);
      case 'release':
        return this.giveUpLease(write.lease);
      case 'held': {
        const current = this.runs.get(write.lease.runId)?.lease;
        if (current?.token !== write.lease.token) throw leaseLost(write.lease, current);
        return () => {};
      }
    }
  }

  private addRun(run: RunRecord): Undo {
    if (this.runs.has(run.id)) throw runTaken(run.id);
    const copy = fromJsonText<RunRecord>(toJsonText(run, `run '${run.id}'`));
    this.runs.set(run.id, {
      run: copy,
      checkpoints: new Map(),
      journal: new Map(),
      answers: new Map(),
      events: [],
      lease: undefined,
    });
    return () => this.runs.delete(run.id);
  }

  private updateStatus(update: RunStatusUpdate): Undo {
    const entry = this.entry(update.runId, 'the status');
    const before = entry.run;
    const { finishedAt: _, ...rest } = before;
    const finished = update.finishedAt ?? before.finishedAt;
    entry.run = {
      ...rest,
      status: update.status,
      updatedAt: update.at,
      ...optional('finishedAt', finished),
    };
    return () => {
      entry.run = before;
    };
  }

  private putCheckpoint(checkpoint: ItemCheckpoint, encoded: string | undefined): Undo {
    const entry = this.entry(checkpoint.runId, `the checkpoint of item '${checkpoint.itemId}'`);
    const text = encoded ?? toJsonText(checkpoint, `the checkpoint of item '${checkpoint.itemId}'`);
    const before = entry.checkpoints.get(checkpoint.itemId);
    entry.checkpoints.set(checkpoint.itemId, { status: checkpoint.status, text });
    return () => {
      if (before === undefined) entry.checkpoints.delete(checkpoint.itemId);
      else entry.checkpoints.set(checkpoint.itemId, before);
    };
  }

  private putJournal(record: JournalRecord): Undo {
    const entry = this.entry(record.runId, `step '${record.stepKey}'`);
    const key = journalKey(record.itemPath, record.stepKey);
    if (entry.journal.has(key)) return () => {};
    entry.journal.set(key, toJsonText(record, `step '${record.stepKey}'`));
    return () => entry.journal.delete(key);
  }

  private putAnswer(answer: AnswerRecord): Undo {
    const what = `the answer to token '${answer.token}'`;
    const entry = this.entry(answer.runId, what);
    if (entry.answers.has(answer.token)) throw alreadyAnswered(answer.runId, answer.token);
    entry.answers.set(answer.token, toJsonText(answer, what));
    return () => entry.answers.delete(answer.token);
  }

  private putEvent(event: EventRecord): Undo {
    const entry = this.entry(event.runId, `event ${event.seq}`);
    const text = toJsonText(event, `event ${event.seq}`);
    return insertSpan(entry.events, event.runId, { first: event.seq, last: event.seq, page: false, text });
  }

  private putEventPage(write: EventPageWrite): Undo {
    const span = checkEventPage(write);
    const entry = this.entry(write.runId, 'events');
    if (span === undefined) return () => {};
    const text = toJsonText(write.events, `events ${span.first} to ${span.last}`);
    return insertSpan(entry.events, write.runId, { ...span, page: true, text });
  }

  private takeLease(lease: Lease): Undo {
    const entry = this.entry(lease.runId, 'the lease');
    const before = entry.lease;
    checkTakeover(before, lease);
    entry.lease = { ...lease };
    return () => {
      entry.lease = before;
    };
  }

  private giveUpLease(lease: Lease): Undo {
    const entry = this.runs.get(lease.runId);
    const before = entry?.lease;
    if (entry === undefined || before?.token !== lease.token) return () => {};
    entry.lease = undefined;
    return () => {
      entry.lease = before;
    };
  }
}

/** Inserts `span` in its place, or fails when it overlaps a stored span; returns how to take it out again. */
function insertSpan(spans: EventSpan[], runId: string, span: EventSpan): Undo {
  const at = firstEnding(spans, span.first, true);
  const next = spans[at];
  if (next !== undefined && next.first <= span.last) throw eventsTaken(runId, span.first, span.last);
  spans.splice(at, 0, span);
  return () => spans.splice(at, 1);
}

/**
 * The index of the first span whose last seq is above `seq` (or equal to it, when `orAt`), by binary search:
 * spans never overlap, so they are sorted by their last seq too.
 */
function firstEnding(spans: readonly EventSpan[], seq: number, orAt: boolean): number {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const last = (spans[mid] as EventSpan).last;
    if (last < seq || (last === seq && !orAt)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A key for a step that no two (item, step) pairs share, whatever characters they hold. */
function journalKey(itemPath: string, stepKey: string): string {
  return JSON.stringify([itemPath, stepKey]);
}

/** `{ [key]: value }` when value is defined, else `{}`: for optional fields under exactOptionalPropertyTypes. */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}
