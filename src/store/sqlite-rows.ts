/** Rows of the SQLite store's tables and their records, both ways. */
import { fromJsonText, toJsonText } from './json.ts';
import type { EventRecord, ItemCheckpoint, JournalRecord, Lease, RunRecord, RunStatus } from './types.ts';

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

/** A row of `leases`. */
export interface LeaseRow {
  readonly run_id: string;
  readonly token: string;
  readonly pid: number;
  readonly host: string;
  readonly acquired_at: number;
  readonly expires_at: number;
}

/** The values of a `runs` row, in the order of its columns. */
export function runValues(run: RunRecord): unknown[] {
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
    toJsonText(run.dag, `the DAG of ${what}`),
    toJsonText(run.documents, `the documents of ${what}`),
    toJsonText(run.policy.value, `the policy of ${what}`),
    run.policy.hash,
    toJsonText(run.input, `the input of ${what}`),
    toJsonText(run.options, `the options of ${what}`),
  ];
}

/** The run a `runs` row holds. */
export function runFromRow(row: RunRow): RunRecord {
  const run: RunRecord = {
    id: row.id,
    dag: fromJsonText(row.dag),
    documents: fromJsonText(row.documents),
    policy: { value: fromJsonText(row.policy), hash: row.policy_hash },
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

/** The event an `events` row holds. */
export function eventFromRow(runId: string, row: { seq: number; type: string; body: string }): EventRecord {
  return { runId, seq: row.seq, type: row.type, body: fromJsonText(row.body) };
}

/** The lease a `leases` row holds. */
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
