/** Rows of the SQLite store's tables and their records, both ways. */
import { fromJsonText, jsonListTextOf, jsonTextOf, toJsonText } from './json.ts';
import { eventsFromShapedPage, isShapedPage } from './sqlite-page-text.ts';
import type { Statements } from './sqlite-statements.ts';
import { columnText, sharedText } from './sqlite-texts.ts';
import type {
  AnswerRecord,
  EventRecord,
  ItemCheckpoint,
  JournalRecord,
  Lease,
  RunRecord,
  RunStatus,
} from './types.ts';

/** A row of `runs`. */
export interface RunRow {
  readonly id: string;
  readonly dag_iri: string;
  readonly dag_hash: string;
  readonly status: string;
  readonly created_at: number;
  readonly updated_at: number;
  readonly finished_at: number | null;
  readonly format_version: number;
  readonly engine_version: string;
  readonly dag: string;
  readonly documents: string;
  readonly policy: string;
  readonly policy_hash: string;
  readonly input: string;
  readonly options: string;
}

/** A row of `journal`. */
export interface JournalRow {
  readonly run_id: string;
  readonly item_path: string;
  readonly step_key: string;
  readonly value: string;
  readonly committed_at: number;
}

/** A row of `answers`. */
export interface AnswerRow {
  readonly run_id: string;
  readonly token: string;
  readonly output: string;
  /** The JSON text of the answer's data; null when it carries none. */
  readonly data: string | null;
  readonly answered_at: number;
}

/** A run's lease, as `getLease` selects it from the run's row. */
export interface LeaseRow {
  readonly run_id: string;
  readonly token: string;
  readonly pid: number;
  readonly host: string;
  readonly acquired_at: number;
  readonly expires_at: number;
}

/**
 * The values of a `runs` row, in the order of its columns (the lease's columns left empty); the texts runs
 * share are kept in `texts` (see `sqlite-texts.ts`).
 */
export function runValues(run: RunRecord, sql: Statements): unknown[] {
  const what = `run '${run.id}'`;
  return [
    run.id,
    run.dag.iri,
    run.dag.hash,
    run.status,
    run.createdAt,
    run.updatedAt,
    run.finishedAt ?? null,
    run.formatVersion,
    run.engineVersion,
    sharedText(sql, jsonTextOf(run.dag, `the DAG of ${what}`)),
    sharedText(sql, jsonListTextOf(run.documents, `the documents of ${what}`)),
    sharedText(sql, jsonTextOf(run.policy.value, `the policy of ${what}`)),
    run.policy.hash,
    toJsonText(run.input, `the input of ${what}`),
    toJsonText(run.options, `the options of ${what}`),
  ];
}

/** The run a `runs` row holds. */
export function runFromRow(row: RunRow, sql: Statements): RunRecord {
  const run: RunRecord = {
    id: row.id,
    dag: fromJsonText(columnText(sql, row.dag)),
    documents: fromJsonText(columnText(sql, row.documents)),
    policy: { value: fromJsonText(columnText(sql, row.policy)), hash: row.policy_hash },
    input: fromJsonText(row.input),
    options: fromJsonText(row.options),
    status: row.status as RunStatus,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    formatVersion: row.format_version,
    engineVersion: row.engine_version,
  };
  return row.finished_at === null ? run : { ...run, finishedAt: row.finished_at };
}

/** The checkpoint a `checkpoints.record` holds. */
export function checkpointFromText(text: string): ItemCheckpoint {
  return fromJsonText(text);
}

/** The journal entry a `journal` row holds. */
export function journalFromRow(row: JournalRow): JournalRecord {
  return {
    runId: row.run_id,
    itemPath: row.item_path,
    stepKey: row.step_key,
    value: row.value,
    committedAt: row.committed_at,
  };
}

/** The values of an `answers` row, in the order of its columns. */
export function answerValues(answer: AnswerRecord): unknown[] {
  const { runId, token, output, data, answeredAt } = answer;
  const text = data === undefined ? null : toJsonText(data, `the data of the answer to token '${token}'`);
  return [runId, token, output, text, answeredAt];
}

/** The answer an `answers` row holds; `data` stays absent when the answer carried none. */
export function answerFromRow(row: AnswerRow): AnswerRecord {
  return {
    runId: row.run_id,
    token: row.token,
    output: row.output,
    ...(row.data === null ? {} : { data: fromJsonText(row.data) }),
    answeredAt: row.answered_at,
  };
}

/** A row of `events`, as the event reads select it. */
export interface EventRow {
  readonly seq: number;
  readonly type: string;
  readonly body: string;
}

/** The event an `events` row holds. */
export function eventFromRow(runId: string, row: EventRow): EventRecord {
  return { runId, seq: row.seq, type: row.type, body: fromJsonText(row.body) };
}

/** One event in an `event_pages.body`: its seq, type and body, without the run id the row holds. */
export type PagedEvent = readonly [seq: number, type: string, body: unknown];

/** The `[seq, type, body]` form of `events` (each event of an `event_pages.body` up to schema version 3, and of the Redis store's pages). */
export function pageBody(events: readonly EventRecord[]): PagedEvent[] {
  const body: PagedEvent[] = new Array(events.length);
  for (let i = 0; i < events.length; i++) {
    const event = events[i] as EventRecord;
    body[i] = [event.seq, event.type, event.body];
  }
  return body;
}

/**
 * One event in an `event_pages.body` of schema versions 4 to 6: a {@link PagedEvent}, or the event's body alone
 * when the body is a plain object holding the event's own `seq` and `type` and the page's run id as `runId`
 * (every event of the engine's stream), kept without its `runId`, which the row holds: that spares a wrapper
 * and a run id per event in the text and in the work of writing it.
 */
export type PageEntry = PagedEvent | { readonly seq: number; readonly type: string };

type Body = { seq?: unknown; type?: unknown; runId?: unknown };

/**
 * Appends to `out` the events of run `runId` an `event_pages.body` holds whose seq is above `after`: a page
 * of schema version 7 (see `sqlite-page-text.ts`) or a list of {@link PageEntry} (versions 3 to 6, and the
 * Redis store's pages).
 */
export function eventsFromPage(runId: string, text: string, after: number, out: EventRecord[]): void {
  if (isShapedPage(text)) {
    eventsFromShapedPage(runId, text, after, out);
    return;
  }
  for (const entry of fromJsonText<PageEntry[]>(text)) {
    if (Array.isArray(entry)) {
      const [seq, type, body] = entry as PagedEvent;
      if (seq > after) out.push({ runId, seq, type, body });
    } else {
      const body = entry as Body & { readonly seq: number; readonly type: string };
      if (body.seq <= after) continue;
      body.runId = runId;
      out.push({ runId, seq: body.seq, type: body.type, body });
    }
  }
}

/** The lease a run's row holds. */
export function leaseFromRow(row: LeaseRow): Lease {
  return {
    runId: row.run_id,
    token: row.token,
    pid: row.pid,
    host: row.host,
    acquiredAt: row.acquired_at,
    expiresAt: row.expires_at,
  };
}
