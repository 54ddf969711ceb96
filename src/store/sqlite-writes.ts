/** How each write of a batch becomes a statement of the SQLite store, and what its constraint failures mean. */
import type { Statement } from 'better-sqlite3';
import { toJsonText } from './json.ts';
import { runValues } from './sqlite-rows.ts';
import type { Statements } from './sqlite-statements.ts';
import { conflict, unknownRun } from './store-errors.ts';
import type { StoreWrite } from './types.ts';

/** What to say when a constraint refuses a write: the run it needs, what it is, and what a duplicate means. */
interface Names {
  readonly runId?: string;
  readonly what?: string;
  readonly duplicate?: string;
}

/** Applies one write; the caller holds the batch's transaction. */
export function applyWrite(sql: Statements, write: StoreWrite): void {
  switch (write.kind) {
    case 'run': {
      const { run } = write;
      runStatement(sql.insertRun, runValues(run), {
        duplicate: `a run with id '${run.id}' is already stored; give each run a new id`,
      });
      return;
    }
    case 'run-status': {
      const { update } = write;
      const changed = sql.updateRunStatus.run(
        update.status,
        update.at,
        update.finishedAt ?? null,
        update.runId,
      );
      if (changed.changes === 0) throw unknownRun(update.runId, 'the status');
      return;
    }
    case 'checkpoint': {
      const { checkpoint } = write;
      const what = `the checkpoint of item '${checkpoint.itemId}'`;
      const values = [checkpoint.runId, checkpoint.itemId, checkpoint.status, toJsonText(checkpoint, what)];
      runStatement(sql.upsertCheckpoint, values, { runId: checkpoint.runId, what });
      return;
    }
    case 'journal': {
      const { entry } = write;
      const values = [entry.runId, entry.itemPath, entry.stepKey, entry.value, entry.committedAt];
      runStatement(sql.insertJournal, values, { runId: entry.runId, what: `step '${entry.stepKey}'` });
      return;
    }
    case 'event': {
      const { event } = write;
      const what = `event ${event.seq}`;
      runStatement(sql.insertEvent, [event.runId, event.seq, event.type, toJsonText(event.body, what)], {
        runId: event.runId,
        what,
        duplicate: `event ${event.seq} of run '${event.runId}' is already stored; number each event once`,
      });
      return;
    }
  }
}

/** Runs one statement, naming the record when a constraint refuses it. */
function runStatement(statement: Statement, values: readonly unknown[], names: Names): void {
  try {
    statement.run(...values);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY' && names.runId !== undefined) {
      throw unknownRun(names.runId, names.what ?? 'a record');
    }
    const duplicate = code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
    if (duplicate && names.duplicate !== undefined) throw conflict(names.duplicate);
    throw error;
  }
}
