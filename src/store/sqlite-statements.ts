/** The SQLite store's statements, prepared once per connection. */
import type { Database, Statement } from 'better-sqlite3';
import { NUMBERED_RUNS_SINCE, SCHEMA_VERSION } from './sqlite-schema.ts';

/**
 * The highest seq a page of events may hold: a page's key is its run's number times 2^32 plus its first seq,
 * so a run's pages lie between its number times 2^32 and that plus this. Events past it are kept as rows of
 * `events`.
 */
export const MAX_PAGE_SEQ = 0xffff_ffff;

/** `seq` as a bound of a run's range of page keys: -1 below every page, {@link MAX_PAGE_SEQ} above. */
export function pageSeqBound(seq: number): number {
  return seq < 0 ? -1 : Math.min(Math.floor(seq), MAX_PAGE_SEQ);
}

/** The named parameters of `readPages`: the run, and the seq the events read come after. */
export interface PageQuery {
  readonly run: string;
  /** The seq the events read come after. */
  readonly after: number;
  /** {@link pageSeqBound} of `after`. */
  readonly upto: number;
}

// A seq is bound as a real number, and a real plus a key past 2^53 (a run numbered past 2^21) rounds: a key
// is made with `|`, which reads both as integers, and the seq (at most MAX_PAGE_SEQ) only fills the low bits.

/** Every statement the store runs, except the run listing, whose filters vary. */
export interface Statements {
  readonly insertRun: Statement;
  /** Inserts a run holding its lease: the run's values, then the lease's token, pid, host and times. */
  readonly insertRunLeased: Statement;
  readonly updateRunStatus: Statement;
  /**
   * A status change and the release of a lease in one update: (status, at, finished, token × 5, run). The
   * lease's columns empty only when the lease is still held under the token.
   */
  readonly updateRunStatusReleasing: Statement;
  readonly upsertCheckpoint: Statement;
  readonly insertJournal: Statement;
  readonly insertEvent: Statement;
  /** Inserts a page of events: (run number, first seq, last seq, text). */
  readonly insertPage: Statement;
  /** The run's number, if it is stored. */
  readonly runNum: Statement;
  /**
   * 1 when an event row or a page of the run lies in a range: (run, first, last, run number, run number,
   * last, first).
   */
  readonly eventsOverlap: Statement;
  /** The last seq of the run's page starting at or before a seq, if any: (run, run, seq as a page bound). */
  readonly pageLastAtOrBefore: Statement;
  readonly getRun: Statement;
  readonly hasRun: Statement;
  readonly getCheckpoint: Statement;
  readonly listCheckpoints: Statement;
  readonly listCheckpointsOfStatus: Statement;
  readonly getJournal: Statement;
  readonly listJournal: Statement;
  readonly listJournalOfItem: Statement;
  /** Inserts an answer: (run, token, output, data text or null, answered at). */
  readonly insertAnswer: Statement;
  readonly getAnswer: Statement;
  /** The run's answers in the order they were given. */
  readonly listAnswers: Statement;
  /** 1 when the file has its table of answers (a file read as it is at an older version may not). */
  readonly answersTable: Statement;
  readonly readEvents: Statement;
  /** The bodies of the run's pages ending after a seq, in order: a {@link PageQuery}. */
  readonly readPages: Statement;
  readonly lastEventSeq: Statement;
  /** The last seq of the run's last page, if any: `{ run }`. */
  readonly lastPageSeq: Statement;
  readonly getLease: Statement;
  /** The token of the run's lease, if any. */
  readonly leaseToken: Statement;
  /** Stores a run's lease in its row: (token, pid, host, acquired, expires, run). */
  readonly putLease: Statement;
  /** Empties a run's lease columns if its lease is held under a token: (run, token). */
  readonly deleteLease: Statement;
  /** Keeps a shared text under its hash, once: (hash, body). */
  readonly putText: Statement;
  readonly getText: Statement;
  /** Deletes the shared texts no run names any more. */
  readonly deleteUnusedTexts: Statement;
  /** Deletes the run's pages of events, which name it by its number alone: (run, run). */
  readonly deletePages: Statement;
  readonly deleteRun: Statement;
}

/**
 * Prepares {@link Statements} on `db`, a file at schema version `version`. A file at an older version that
 * this program still reads (see `READABLE_FROM`) is open read-only: its statements are prepared when
 * first used, since those that write name tables and columns it does not have, and its lease is read from
 * the table that held it then.
 */
export function prepareStatements(db: Database, version: number = SCHEMA_VERSION): Statements {
  const makers = statementMakers(db);
  if (version >= SCHEMA_VERSION) {
    const statements: Record<string, Statement> = {};
    for (const [name, make] of Object.entries(makers)) statements[name] = make();
    return statements as unknown as Statements;
  }
  const legacy: Record<string, () => Statement> = { ...makers };
  // Up to version 4 the lease has a table of its own.
  if (version < 5) {
    legacy.getLease = () => db.prepare('SELECT * FROM leases WHERE run_id = ?');
    legacy.leaseToken = () => db.prepare('SELECT token FROM leases WHERE run_id = ?').pluck();
  }
  // Up to version 7 a page is keyed by its run's id and its first seq.
  if (version < NUMBERED_RUNS_SINCE) {
    legacy.readPages = () =>
      db
        .prepare(
          `SELECT body FROM event_pages WHERE run_id = @run AND first_seq >= coalesce(
           (SELECT first_seq FROM event_pages WHERE run_id = @run AND first_seq <= @after
            ORDER BY first_seq DESC LIMIT 1), @after) AND last_seq > @after ORDER BY first_seq`,
        )
        .pluck();
    legacy.lastPageSeq = () =>
      db
        .prepare('SELECT last_seq FROM event_pages WHERE run_id = @run ORDER BY first_seq DESC LIMIT 1')
        .pluck();
  }
  const statements = {};
  for (const [name, make] of Object.entries(legacy)) {
    Object.defineProperty(statements, name, {
      configurable: true,
      enumerable: true,
      get() {
        const statement = make();
        Object.defineProperty(statements, name, { value: statement, enumerable: true });
        return statement;
      },
    });
  }
  return statements as Statements;
}

/** How to prepare each statement. */
function statementMakers(db: Database): Record<keyof Statements, () => Statement> {
  return {
    insertRun: () =>
      db.prepare(
        `INSERT INTO runs (id, dag_iri, dag_hash, status, created_at, updated_at, finished_at, format_version,
         engine_version, dag, documents, policy, policy_hash, input, options)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
    insertRunLeased: () =>
      db.prepare(
        `INSERT INTO runs (id, dag_iri, dag_hash, status, created_at, updated_at, finished_at, format_version,
         engine_version, dag, documents, policy, policy_hash, input, options, lease_token, lease_pid, lease_host,
         lease_acquired_at, lease_expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
    updateRunStatus: () =>
      db.prepare(
        'UPDATE runs SET status = ?, updated_at = ?, finished_at = coalesce(?, finished_at) WHERE id = ?',
      ),
    updateRunStatusReleasing: () =>
      db.prepare(
        `UPDATE runs SET status = ?, updated_at = ?, finished_at = coalesce(?, finished_at),
         lease_token = CASE WHEN lease_token = ? THEN NULL ELSE lease_token END,
         lease_pid = CASE WHEN lease_token = ? THEN NULL ELSE lease_pid END,
         lease_host = CASE WHEN lease_token = ? THEN NULL ELSE lease_host END,
         lease_acquired_at = CASE WHEN lease_token = ? THEN NULL ELSE lease_acquired_at END,
         lease_expires_at = CASE WHEN lease_token = ? THEN NULL ELSE lease_expires_at END
       WHERE id = ?`,
      ),
    upsertCheckpoint: () =>
      db.prepare(
        `INSERT INTO checkpoints (run_id, item_id, status, record) VALUES (?, ?, ?, ?)
       ON CONFLICT (run_id, item_id) DO UPDATE SET status = excluded.status, record = excluded.record`,
      ),
    insertJournal: () =>
      db.prepare(
        `INSERT INTO journal (run_id, item_path, step_key, value, committed_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (run_id, item_path, step_key) DO NOTHING`,
      ),
    insertEvent: () => db.prepare('INSERT INTO events (run_id, seq, type, body) VALUES (?, ?, ?, ?)'),
    insertPage: () =>
      db.prepare('INSERT INTO event_pages (key, last_seq, body) VALUES ((? << 32) | ?, ?, ?)'),
    runNum: () => db.prepare('SELECT num FROM runs WHERE id = ?').pluck(),
    // Pages never overlap, so the page starting last at or before a range's end is the only one that can
    // reach into it.
    eventsOverlap: () =>
      db
        .prepare(
          `SELECT EXISTS (SELECT 1 FROM events WHERE run_id = ? AND seq BETWEEN ? AND ?)
           OR coalesce((SELECT last_seq FROM event_pages WHERE key BETWEEN (? << 32) AND (? << 32) | ?
                        ORDER BY key DESC LIMIT 1) >= ?, 0)`,
        )
        .pluck(),
    pageLastAtOrBefore: () =>
      db
        .prepare(
          `SELECT last_seq FROM event_pages WHERE key BETWEEN (SELECT num << 32 FROM runs WHERE id = ?)
           AND (SELECT num << 32 FROM runs WHERE id = ?) | ? ORDER BY key DESC LIMIT 1`,
        )
        .pluck(),
    getRun: () => db.prepare('SELECT * FROM runs WHERE id = ?'),
    hasRun: () => db.prepare('SELECT 1 FROM runs WHERE id = ?').pluck(),
    getCheckpoint: () =>
      db.prepare('SELECT record FROM checkpoints WHERE run_id = ? AND item_id = ?').pluck(),
    listCheckpoints: () =>
      db.prepare('SELECT record FROM checkpoints WHERE run_id = ? ORDER BY rowid').pluck(),
    listCheckpointsOfStatus: () =>
      db.prepare('SELECT record FROM checkpoints WHERE run_id = ? AND status = ? ORDER BY rowid').pluck(),
    getJournal: () => db.prepare('SELECT * FROM journal WHERE run_id = ? AND item_path = ? AND step_key = ?'),
    listJournal: () => db.prepare('SELECT * FROM journal WHERE run_id = ? ORDER BY rowid'),
    listJournalOfItem: () =>
      db.prepare('SELECT * FROM journal WHERE run_id = ? AND item_path = ? ORDER BY rowid'),
    insertAnswer: () =>
      db.prepare('INSERT INTO answers (run_id, token, output, data, answered_at) VALUES (?, ?, ?, ?, ?)'),
    getAnswer: () => db.prepare('SELECT * FROM answers WHERE run_id = ? AND token = ?'),
    listAnswers: () => db.prepare('SELECT * FROM answers WHERE run_id = ? ORDER BY rowid'),
    answersTable: () =>
      db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'answers'").pluck(),
    readEvents: () =>
      db.prepare('SELECT seq, type, body FROM events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?'),
    // The scan starts at the page holding the seq after `after`, if any (the one starting last at or before
    // it), or else at the run's first page.
    readPages: () =>
      db
        .prepare(
          `WITH r AS (SELECT num << 32 AS low FROM runs WHERE id = @run)
           SELECT body FROM event_pages, r WHERE key >= coalesce(
             (SELECT key FROM event_pages WHERE key BETWEEN r.low AND r.low | @upto ORDER BY key DESC LIMIT 1),
             r.low)
           AND key <= r.low + ${MAX_PAGE_SEQ} AND last_seq > @after ORDER BY key`,
        )
        .pluck(),
    lastEventSeq: () => db.prepare('SELECT max(seq) FROM events WHERE run_id = ?').pluck(),
    lastPageSeq: () =>
      db
        .prepare(
          `WITH r AS (SELECT num << 32 AS low FROM runs WHERE id = @run)
           SELECT last_seq FROM event_pages, r WHERE key BETWEEN r.low AND r.low + ${MAX_PAGE_SEQ}
           ORDER BY key DESC LIMIT 1`,
        )
        .pluck(),
    getLease: () =>
      db.prepare(
        `SELECT id AS run_id, lease_token AS token, lease_pid AS pid, lease_host AS host,
         lease_acquired_at AS acquired_at, lease_expires_at AS expires_at
       FROM runs WHERE id = ? AND lease_token IS NOT NULL`,
      ),
    leaseToken: () => db.prepare('SELECT lease_token FROM runs WHERE id = ?').pluck(),
    putLease: () =>
      db.prepare(
        `UPDATE runs SET lease_token = ?, lease_pid = ?, lease_host = ?, lease_acquired_at = ?,
         lease_expires_at = ? WHERE id = ?`,
      ),
    deleteLease: () =>
      db.prepare(
        `UPDATE runs SET lease_token = NULL, lease_pid = NULL, lease_host = NULL, lease_acquired_at = NULL,
         lease_expires_at = NULL WHERE id = ? AND lease_token = ?`,
      ),
    putText: () => db.prepare('INSERT INTO texts (hash, body) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING'),
    getText: () => db.prepare('SELECT body FROM texts WHERE hash = ?').pluck(),
    deleteUnusedTexts: () =>
      db.prepare(
        `DELETE FROM texts WHERE hash NOT IN (
         SELECT substr(dag, 2) FROM runs WHERE dag LIKE '#%'
         UNION SELECT substr(documents, 2) FROM runs WHERE documents LIKE '#%'
         UNION SELECT substr(policy, 2) FROM runs WHERE policy LIKE '#%')`,
      ),
    deletePages: () =>
      db.prepare(
        `DELETE FROM event_pages WHERE key BETWEEN (SELECT num << 32 FROM runs WHERE id = ?)
         AND (SELECT num << 32 FROM runs WHERE id = ?) + ${MAX_PAGE_SEQ}`,
      ),
    deleteRun: () => db.prepare('DELETE FROM runs WHERE id = ?'),
  };
}

/**
 * The run listing for a set of filters: newest first, after a page position, at most a limit. The text
 * depends only on which filters are set and how many statuses there are, so it is prepared once per shape.
 */
export function runListingSql(statuses: number, dag: boolean, after: boolean): string {
  const where: string[] = [];
  if (statuses > 0) where.push(`status IN (${new Array(statuses).fill('?').join(', ')})`);
  if (dag) where.push('dag_iri = ?');
  if (after) where.push('(created_at < ? OR (created_at = ? AND id < ?))');
  const filter = where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`;
  return `SELECT * FROM runs ${filter} ORDER BY created_at DESC, id DESC LIMIT ?`;
}
