/** How each write of a batch becomes statements of the SQLite store, and what its constraint failures mean. */
import { checkEventPage, eventsTaken } from './event-pages.ts';
import { toJsonText } from './json.ts';
import { checkTakeover } from './lease.ts';
import { pageText } from './sqlite-page-text.ts';
import { answerValues, type LeaseRow, leaseFromRow, runValues } from './sqlite-rows.ts';
import { MAX_PAGE_SEQ, pageSeqBound, type Statements } from './sqlite-statements.ts';
import { alreadyAnswered, leaseLost, runTaken, unknownRun } from './store-errors.ts';
import type {
  AnswerRecord,
  EventPageWrite,
  EventRecord,
  Lease,
  RunRecord,
  RunStatusUpdate,
  StoreWrite,
} from './types.ts';

/**
 * Applies a batch of writes in order; the caller holds the transaction. Two pairs a durable run always writes
 * together go in as one statement each: a new run and its lease (one insert), and a run's status with the
 * release of its lease (one update), which is what applying them one after the other leaves.
 */
export function applyBatch(sql: Statements, batch: readonly StoreWrite[]): void {
  for (let i = 0; i < batch.length; i++) {
    const write = batch[i] as StoreWrite;
    const next = batch[i + 1];
    if (write.kind === 'run' && next?.kind === 'lease' && next.lease.runId === write.run.id) {
      insertRun(sql, write.run, next.lease);
      i++;
    } else if (
      write.kind === 'run-status' &&
      next?.kind === 'release' &&
      next.lease.runId === write.update.runId
    ) {
      updateStatus(sql, write.update, next.lease);
      i++;
    } else {
      applyWrite(sql, write);
    }
  }
}

/** Inserts a run, holding `lease` when given (a new run has no lease before it to check it against). */
function insertRun(sql: Statements, run: RunRecord, lease?: Lease): void {
  try {
    if (lease === undefined) sql.insertRun.run(...runValues(run, sql));
    else {
      checkTakeover(undefined, lease);
      const { token, pid, host, acquiredAt, expiresAt } = lease;
      sql.insertRunLeased.run(...runValues(run, sql), token, pid, host, acquiredAt, expiresAt);
    }
  } catch (error) {
    if (isDuplicate(error)) throw runTaken(run.id);
    throw error;
  }
}

/** Changes a run's status, releasing `lease` in the same update when given and still held under its token. */
function updateStatus(sql: Statements, update: RunStatusUpdate, lease?: Lease): void {
  const finished = update.finishedAt ?? null;
  const changed =
    lease === undefined
      ? sql.updateRunStatus.run(update.status, update.at, finished, update.runId)
      : sql.updateRunStatusReleasing.run(
          update.status,
          update.at,
          finished,
          lease.token,
          lease.token,
          lease.token,
          lease.token,
          lease.token,
          update.runId,
        );
  if (changed.changes === 0) throw unknownRun(update.runId, 'the status');
}

/**
 * Applies one write; the caller holds the batch's transaction. Statements run with their values as
 * arguments and the words of an error are only built when a write is refused, so a write allocates little
 * beyond its JSON text.
 */
export function applyWrite(sql: Statements, write: StoreWrite): void {
  switch (write.kind) {
    case 'run':
      insertRun(sql, write.run);
      return;
    case 'run-status':
      updateStatus(sql, write.update);
      return;
    case 'checkpoint': {
      const { checkpoint: c } = write;
      const text = write.text ?? toJsonText(c, `the checkpoint of item '${c.itemId}'`);
      try {
        sql.upsertCheckpoint.run(c.runId, c.itemId, c.status, text);
      } catch (error) {
        throw refused(error, c.runId, `the checkpoint of item '${c.itemId}'`);
      }
      return;
    }
    case 'journal': {
      const { entry: e } = write;
      try {
        sql.insertJournal.run(e.runId, e.itemPath, e.stepKey, e.value, e.committedAt);
      } catch (error) {
        throw refused(error, e.runId, `step '${e.stepKey}'`);
      }
      return;
    }
    case 'event':
      writeEvent(sql, write.event);
      return;
    case 'events':
      writePage(sql, write);
      return;
    case 'answer':
      insertAnswer(sql, write.answer);
      return;
    case 'lease': {
      const { lease } = write;
      checkTakeover(currentLease(sql, lease.runId), lease);
      putLease(sql, lease);
      return;
    }
    case 'release':
      sql.deleteLease.run(write.lease.runId, write.lease.token);
      return;
    case 'held': {
      // Every batch of a run is fenced: the token alone says whether the lease is still held.
      if (sql.leaseToken.get(write.lease.runId) === write.lease.token) return;
      throw leaseLost(write.lease, currentLease(sql, write.lease.runId));
    }
  }
}

/**
 * Writes a page of events as one row, once nothing stored overlaps its range; one event, or events a page's
 * key cannot hold (a first seq that is not a whole number from 0, a last one past `MAX_PAGE_SEQ`), as rows
 * of `events`.
 */
function writePage(sql: Statements, write: EventPageWrite): void {
  const { runId } = write;
  const span = checkEventPage(write);
  if (span === undefined) {
    if (sql.hasRun.get(runId) === undefined) throw unknownRun(runId, 'events');
    return;
  }
  const { first, last } = span;
  // One event, and events a page's key cannot hold, are rows of `events`, each keyed by its run and seq.
  if (first === last || !(Number.isInteger(first) && first >= 0 && last <= MAX_PAGE_SEQ)) {
    for (const event of write.events) writeEvent(sql, event);
    return;
  }
  const num = sql.runNum.get(runId) as number | undefined;
  if (num === undefined) throw unknownRun(runId, `events ${first} to ${last}`);
  if (sql.eventsOverlap.get(runId, first, last, num, num, last, first) === 1) {
    throw eventsTaken(runId, first, last);
  }
  const text = pageText(runId, write.events, `events ${first} to ${last}`);
  try {
    sql.insertPage.run(num, first, last, text);
  } catch (error) {
    if (isDuplicate(error)) throw eventsTaken(runId, first, last);
    throw error;
  }
}

/** Writes one event as a row of `events`. */
function writeEvent(sql: Statements, e: EventRecord): void {
  const text = toJsonText(e.body, `event ${e.seq}`);
  // A page holding this seq is the one conflict the events table's key cannot see.
  const pageLast = sql.pageLastAtOrBefore.get(e.runId, e.runId, pageSeqBound(e.seq)) as number | undefined;
  if (pageLast !== undefined && pageLast >= e.seq) throw eventsTaken(e.runId, e.seq, e.seq);
  try {
    sql.insertEvent.run(e.runId, e.seq, e.type, text);
  } catch (error) {
    if (isDuplicate(error)) throw eventsTaken(e.runId, e.seq, e.seq);
    throw refused(error, e.runId, `event ${e.seq}`);
  }
}

/** Inserts an answer; the first answer to a token stays, so a second one refuses the batch. */
function insertAnswer(sql: Statements, answer: AnswerRecord): void {
  try {
    sql.insertAnswer.run(...answerValues(answer));
  } catch (error) {
    if (isDuplicate(error)) throw alreadyAnswered(answer.runId, answer.token);
    throw refused(error, answer.runId, `the answer to token '${answer.token}'`);
  }
}

/** The run's lease as stored. */
export function currentLease(sql: Statements, runId: string): Lease | undefined {
  const row = sql.getLease.get(runId) as LeaseRow | undefined;
  return row === undefined ? undefined : leaseFromRow(row);
}

/** Stores `lease` as the run's lease, replacing any; `E_STORE_UNKNOWN_RUN` when the run is missing. */
export function putLease(sql: Statements, lease: Lease): void {
  const { runId } = lease;
  const changed = sql.putLease.run(
    lease.token,
    lease.pid,
    lease.host,
    lease.acquiredAt,
    lease.expiresAt,
    runId,
  );
  if (changed.changes === 0) throw unknownRun(runId, 'the lease');
}

function isDuplicate(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** The store error of a write a foreign key refused (its run is missing), else the error itself. */
function refused(error: unknown, runId: string, what: string): unknown {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' ? unknownRun(runId, what) : error;
}
