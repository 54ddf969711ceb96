/**
 * The compose → validate loop of workload W1 written by hand, made durable by hand: after every node
 * execution it writes the item's checkpoint (its data, the budget spent, its trail, its visits and where it
 * goes next) as one JSON row into its own better-sqlite3 table, with the pragmas the run store uses (WAL,
 * synchronous=NORMAL). The least a durable run of the same loop must write; what the dispatcher with a store
 * is measured against.
 */
import Database from 'better-sqlite3';
import type { Draft } from './compose-validate.ts';

/**
 * When the ledger commits: after every transition; once per run (every transition of a run in one); or
 * twice per run, the run's row alone before its first node and every transition with its end in a second,
 * as a run that is recorded before any of its nodes runs must.
 */
export type CommitEvery = 'transition' | 'run' | 'start-and-end';

/** A hand-made checkpoint table on an SQLite file. */
export interface Ledger {
  /** Runs the loop on `data` as run `runId`, checkpointing every transition; returns the node executions. */
  run(runId: string, data: Draft, budget: number): number;
  close(): void;
}

interface Step {
  readonly placement: string;
  readonly output: string;
  readonly to: string;
}

/**
 * Opens the ledger at `file` (`:memory:` for a private in-memory database).
 * @example
 * const ledger = openLedger('/tmp/ledger.db', 'transition');
 * ledger.run('run-1', { topic: 'whales' }, 3); // 9 executions, 9 checkpoint rows
 */
export function openLedger(file: string, every: CommitEvery): Ledger {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE runs (id TEXT PRIMARY KEY, status TEXT NOT NULL);
    CREATE TABLE checkpoints (run_id TEXT NOT NULL, item_id TEXT NOT NULL, status TEXT NOT NULL,
      record TEXT NOT NULL, UNIQUE (run_id, item_id));`);
  const insertRun = db.prepare('INSERT INTO runs (id, status) VALUES (?, ?)');
  const finishRun = db.prepare('UPDATE runs SET status = ? WHERE id = ?');
  const upsert = db.prepare(
    `INSERT INTO checkpoints (run_id, item_id, status, record) VALUES (?, ?, ?, ?)
     ON CONFLICT (run_id, item_id) DO UPDATE SET status = excluded.status, record = excluded.record`,
  );

  const loop = (runId: string, data: Draft, budget: number, recorded = false): number => {
    if (!recorded) insertRun.run(runId, 'running');
    const trail: Step[] = [];
    const visits: Record<string, number> = {};
    let spent = 0;
    // One checkpoint row: the item as it stands after `placement` chose `output`, on its way to `to`.
    const checkpoint = (placement: string, output: string, to: string, ended: boolean) => {
      visits[placement] = (visits[placement] ?? 0) + 1;
      trail.push({ placement, output, to });
      const status = ended ? 'ended' : 'active';
      const record = {
        runId,
        itemId: '1',
        status,
        state: { data, budgets: { compose: spent }, trail, visits },
      };
      upsert.run(runId, '1', status, JSON.stringify({ ...record, position: { placement: to } }));
    };
    let executions = 0;
    for (;;) {
      data.draft = `${data.topic} #${spent + 1}`;
      executions++;
      checkpoint('compose', 'drafted', 'validate', false);
      const verdict = data.draft === undefined ? 'valid' : 'invalid';
      executions++;
      if (verdict === 'valid') {
        checkpoint('validate', verdict, 'done', true);
        break;
      }
      if (spent >= budget) {
        checkpoint('validate', verdict, 'salvage', false);
        data.salvaged = true;
        executions++;
        checkpoint('salvage', 'salvaged', 'done', true);
        break;
      }
      spent++;
      checkpoint('validate', verdict, 'compose', false);
    }
    finishRun.run('completed', runId);
    return executions;
  };
  const inOne = db.transaction(loop);
  const record = db.transaction((runId: string) => insertRun.run(runId, 'running'));
  return {
    run:
      every === 'run'
        ? (runId, data, budget) => inOne(runId, data, budget)
        : every === 'start-and-end'
          ? (runId, data, budget) => {
              record(runId);
              return inOne(runId, data, budget, true);
            }
          : loop,
    close: () => db.close(),
  };
}
