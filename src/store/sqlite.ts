/**
 * The embedded run store: one SQLite file through better-sqlite3, in WAL mode, with prepared statements and
 * one transaction per batch of writes. better-sqlite3 is synchronous; each method does its work at once and
 * returns a settled promise, so it fits the same {@link RunStore} as stores that wait on a network.
 */
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import type { Database, Statement } from 'better-sqlite3';
import { checkEventQuery, pageEvents } from './event-pages.ts';
import { grantLease, renewedLease } from './lease.ts';
import { decodeCursor, ENDED_STATUSES, encodeCursor, pageSize, statusFilter } from './query.ts';
import { fromSqlite, schemaChanged } from './sqlite-errors.ts';
import {
  assertWritable,
  isMemoryPath,
  type OpenedFile,
  openStoreFile,
  type SqliteStoreOptions,
} from './sqlite-open.ts';
import {
  type AnswerRow,
  answerFromRow,
  checkpointFromText,
  type EventRow,
  eventFromRow,
  eventsFromPage,
  type JournalRow,
  journalFromRow,
  type RunRow,
  runFromRow,
} from './sqlite-rows.ts';
import { ANSWERS_SINCE, SCHEMA_VERSION } from './sqlite-schema.ts';
import {
  type PageQuery,
  pageSeqBound,
  prepareStatements,
  runListingSql,
  type Statements,
} from './sqlite-statements.ts';
import { applyBatch, currentLease, putLease } from './sqlite-writes.ts';
import { closed, unknownRun } from './store-errors.ts';
import {
  type AnswerRecord,
  type EventQuery,
  type EventRecord,
  type ItemCheckpoint,
  type ItemStatus,
  type JournalRecord,
  type Lease,
  type LeaseRequest,
  type PruneOptions,
  type PruneResult,
  type RunPage,
  type RunQuery,
  type RunRecord,
  type RunStore,
  runOfWrite,
  type StoreWrite,
} from './types.ts';

export type { SqliteStoreOptions } from './sqlite-open.ts';

/**
 * Opens (creating it and its folder when missing) the store file at `path`, or a private in-memory database
 * for `:memory:`. Bad files are refused with one `E_STORE_*` line and left unchanged.
 * @example
 * const store = await openSqliteStore('.switchyard/runs.db');
 */
export async function openSqliteStore(
  path: string,
  options: SqliteStoreOptions = {},
): Promise<SqliteRunStore> {
  return new SqliteRunStore(await openStoreFile(path, options));
}

/** A {@link RunStore} on an SQLite file. */
export class SqliteRunStore implements RunStore {
  readonly location: string;
  private readonly db: Database;
  private readonly sql: Statements;
  private readonly listings = new Map<string, Statement>();
  private readonly commitBatch: (batch: readonly StoreWrite[]) => void;
  private open = true;
  /** How long a call waits out another process's lock before SQLite refuses it (ms). */
  private readonly busyTimeoutMs: number;
  /** The schema version the file had when opened: its statements read the tables of that version. */
  private readonly version: number;

  /** Use {@link openSqliteStore}, which checks and migrates the file first. */
  constructor(opened: OpenedFile) {
    this.db = opened.db;
    this.location = opened.file;
    this.busyTimeoutMs = opened.options.busyTimeoutMs;
    this.version = opened.version;
    this.sql = prepareStatements(this.db, opened.version);
    const sql = this.sql;
    const apply = this.db.transaction((batch: readonly StoreWrite[]) => applyBatch(sql, batch));
    // Immediate: the write lock is taken at BEGIN, where SQLite waits out another process's lock for the busy
    // timeout. A deferred transaction that read first could not wait when it came to write: another
    // writer's commit since its read makes SQLite refuse it at once.
    this.commitBatch = (batch) => apply.immediate(batch);
  }

  async commit(batch: readonly StoreWrite[]): Promise<void> {
    if (!this.open) throw closed(this.location);
    try {
      assertWritable(this.db, this.location);
      this.commitBatch(batch);
    } catch (error) {
      throw this.failure(error, batch[0] === undefined ? undefined : runOfWrite(batch[0]));
    }
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    return this.guard(() => {
      const row = this.sql.getRun.get(runId) as RunRow | undefined;
      return row === undefined ? undefined : runFromRow(row, this.sql);
    });
  }

  async listRuns(query: RunQuery = {}): Promise<RunPage> {
    return this.guard(() => {
      const limit = pageSize(query);
      const filter = statusFilter(query);
      if (filter?.length === 0) return { runs: [] };
      const statuses = filter ?? [];
      const after = decodeCursor(query.cursor);
      const params: unknown[] = [...statuses];
      if (query.dag !== undefined) params.push(query.dag);
      if (after !== undefined) params.push(after.createdAt, after.createdAt, after.id);
      params.push(limit + 1);
      const sql = runListingSql(statuses.length, query.dag !== undefined, after !== undefined);
      let statement = this.listings.get(sql);
      if (statement === undefined) {
        statement = this.db.prepare(sql);
        this.listings.set(sql, statement);
      }
      const rows = statement.all(...params) as RunRow[];
      const runs = rows.slice(0, limit).map((row) => runFromRow(row, this.sql));
      const last = runs.at(-1);
      return rows.length > limit && last !== undefined ? { runs, next: encodeCursor(last) } : { runs };
    });
  }

  async getCheckpoint(runId: string, itemId: string): Promise<ItemCheckpoint | undefined> {
    return this.guard(() => {
      const text = this.sql.getCheckpoint.get(runId, itemId) as string | undefined;
      return text === undefined ? undefined : checkpointFromText(text);
    });
  }

  async listCheckpoints(runId: string, status?: ItemStatus): Promise<readonly ItemCheckpoint[]> {
    return this.guard(() => {
      const texts = (
        status === undefined
          ? this.sql.listCheckpoints.all(runId)
          : this.sql.listCheckpointsOfStatus.all(runId, status)
      ) as string[];
      return texts.map(checkpointFromText);
    });
  }

  async getJournalEntry(
    runId: string,
    itemPath: string,
    stepKey: string,
  ): Promise<JournalRecord | undefined> {
    return this.guard(() => {
      const row = this.sql.getJournal.get(runId, itemPath, stepKey) as JournalRow | undefined;
      return row === undefined ? undefined : journalFromRow(row);
    });
  }

  async listJournal(runId: string, itemPath?: string): Promise<readonly JournalRecord[]> {
    return this.guard(() => {
      const rows = (
        itemPath === undefined
          ? this.sql.listJournal.all(runId)
          : this.sql.listJournalOfItem.all(runId, itemPath)
      ) as JournalRow[];
      return rows.map(journalFromRow);
    });
  }

  async getAnswer(runId: string, token: string): Promise<AnswerRecord | undefined> {
    return this.guard(() => {
      if (!this.hasAnswers()) return undefined;
      const row = this.sql.getAnswer.get(runId, token) as AnswerRow | undefined;
      return row === undefined ? undefined : answerFromRow(row);
    });
  }

  async listAnswers(runId: string): Promise<readonly AnswerRecord[]> {
    return this.guard(() => {
      if (!this.hasAnswers()) return [];
      return (this.sql.listAnswers.all(runId) as AnswerRow[]).map(answerFromRow);
    });
  }

  async readEvents(runId: string, query: EventQuery = {}): Promise<readonly EventRecord[]> {
    return this.guard(() => {
      checkEventQuery(query);
      const after = query.after ?? Number.NEGATIVE_INFINITY;
      const limit = query.limit ?? Number.POSITIVE_INFINITY;
      if (limit === 0) return [];
      const rows = this.sql.readEvents.all(runId, after, query.limit ?? -1) as EventRow[];
      const singles = rows.map((row) => eventFromRow(runId, row));
      const paged: EventRecord[] = [];
      const pages: PageQuery = { run: runId, after, upto: pageSeqBound(after) };
      for (const text of this.sql.readPages.iterate(pages) as Iterable<string>) {
        eventsFromPage(runId, text, after, paged);
        if (paged.length >= limit) break;
      }
      return paged.length === 0 ? singles : mergeBySeq(singles, paged, limit);
    });
  }

  streamEvents(runId: string, after?: number, pageSize?: number): AsyncIterable<EventRecord> {
    return pageEvents(
      (from, limit) => this.readEvents(runId, from === undefined ? { limit } : { after: from, limit }),
      after,
      pageSize,
    );
  }

  async lastEventSeq(runId: string): Promise<number | undefined> {
    return this.guard(() => {
      const single = this.sql.lastEventSeq.get(runId) as number | null;
      const paged = this.sql.lastPageSeq.get({ run: runId }) as number | undefined;
      if (paged === undefined) return single ?? undefined;
      return single === null ? paged : Math.max(single, paged);
    });
  }

  async acquireLease(request: LeaseRequest): Promise<Lease> {
    return this.writing(() => {
      if (this.sql.hasRun.get(request.runId) === undefined) throw unknownRun(request.runId, 'the lease');
      const lease = grantLease(this.leaseOf(request.runId), request, randomUUID());
      this.putLease(lease);
      return lease;
    });
  }

  async renewLease(lease: Lease, now: number, ttlMs: number): Promise<Lease> {
    return this.writing(() => {
      const renewed = renewedLease(this.leaseOf(lease.runId), lease, now, ttlMs);
      this.putLease(renewed);
      return renewed;
    });
  }

  async releaseLease(lease: Lease): Promise<void> {
    this.writing(() => this.sql.deleteLease.run(lease.runId, lease.token));
  }

  async getLease(runId: string): Promise<Lease | undefined> {
    return this.guard(() => this.leaseOf(runId));
  }

  async prune(options: PruneOptions): Promise<PruneResult> {
    return this.guard(() => {
      assertWritable(this.db, this.location);
      const statuses = options.statuses ?? ENDED_STATUSES;
      if (statuses.length === 0) return { runs: 0, reclaimedBytes: 0 };
      const before = this.size();
      const select = this.db
        .prepare(
          `SELECT id FROM runs WHERE created_at < ? AND status IN (${statuses.map(() => '?').join(', ')})`,
        )
        .pluck();
      // The runs are chosen and deleted under the write lock, so a run that another process moves on meanwhile
      // is not deleted on a status read before.
      const ids = this.db
        .transaction(() => {
          const found = select.all(options.olderThan, ...statuses) as string[];
          for (const id of found) {
            this.sql.deletePages.run(id, id);
            this.sql.deleteRun.run(id);
          }
          if (found.length > 0) this.sql.deleteUnusedTexts.run();
          return found;
        })
        .immediate();
      if (ids.length === 0) return { runs: 0, reclaimedBytes: 0 };
      // VACUUM rewrites the file without the freed pages; the checkpoint moves that into the file itself.
      this.db.exec('VACUUM');
      this.db.pragma('wal_checkpoint(TRUNCATE)');
      return { runs: ids.length, reclaimedBytes: Math.max(0, before - this.size()) };
    });
  }

  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    this.db.close();
  }

  /** Bytes of the database as SQLite sees it (its pages, including those still in the write-ahead log). */
  databaseBytes(): number {
    return this.guard(
      () =>
        (this.db.pragma('page_count', { simple: true }) as number) *
        (this.db.pragma('page_size', { simple: true }) as number),
    );
  }

  /** Bytes the store takes on disk: the file and its write-ahead log. */
  size(): number {
    if (isMemoryPath(this.location)) return this.databaseBytes();
    let bytes = statSync(this.location).size;
    try {
      bytes += statSync(`${this.location}-wal`).size;
    } catch {
      // No log: everything is in the file.
    }
    return bytes;
  }

  /** The schema version, journal mode and page counts, for diagnostics and tests. */
  pragmas(): { readonly journalMode: string; readonly userVersion: number; readonly foreignKeys: boolean } {
    return this.guard(() => ({
      journalMode: this.db.pragma('journal_mode', { simple: true }) as string,
      userVersion: this.db.pragma('user_version', { simple: true }) as number,
      foreignKeys: this.db.pragma('foreign_keys', { simple: true }) === 1,
    }));
  }

  /** Runs `fn` on an open store, turning SQLite's failures into store errors that name the file. */
  private guard<T>(fn: () => T): T {
    if (!this.open) throw closed(this.location);
    try {
      return fn();
    } catch (error) {
      throw this.failure(error);
    }
  }

  /** The store error of a failure of a call (of a write for run `runId`, when it was for one). */
  private failure(error: unknown, runId?: string): unknown {
    const moved = this.movedSince(error);
    if (moved !== undefined) return schemaChanged(this.location, this.version, moved, error);
    const scene = { file: this.location, busyTimeoutMs: this.busyTimeoutMs, opening: false, runId };
    return fromSqlite(error, scene);
  }

  /**
   * The schema version the file has now, when a statement failed on a file opened read-only at an older
   * version that a writer has moved forward since (its table of leases is gone, say); else undefined.
   */
  private movedSince(error: unknown): number | undefined {
    if (this.version >= SCHEMA_VERSION || (error as { code?: unknown } | null)?.code !== 'SQLITE_ERROR') {
      return undefined;
    }
    try {
      const now = this.db.pragma('user_version', { simple: true });
      return typeof now === 'number' && now !== this.version ? now : undefined;
    } catch {
      return undefined;
    }
  }

  /** Runs `fn` in an immediate transaction, so that a read and the write it decides are one step. */
  private writing<T>(fn: () => T): T {
    return this.guard(() => {
      assertWritable(this.db, this.location);
      return this.db.transaction(fn).immediate();
    });
  }

  /**
   * True when the file holds a table of answers: always at the latest version; a file read as it is at an
   * older one (read-only) has none until a writer moves it forward.
   */
  private hasAnswers(): boolean {
    return this.version >= ANSWERS_SINCE || this.sql.answersTable.get() === 1;
  }

  private leaseOf(runId: string): Lease | undefined {
    return currentLease(this.sql, runId);
  }

  private putLease(lease: Lease): void {
    putLease(this.sql, lease);
  }
}

/** The first `limit` events of two lists each in increasing seq, in increasing seq. */
function mergeBySeq(a: readonly EventRecord[], b: readonly EventRecord[], limit: number): EventRecord[] {
  const out: EventRecord[] = [];
  let i = 0;
  let j = 0;
  while (out.length < limit && (i < a.length || j < b.length)) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && x.seq < y.seq)) {
      out.push(x as EventRecord);
      i++;
    } else {
      out.push(y);
      j++;
    }
  }
  return out;
}
