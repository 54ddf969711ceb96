/**
 * Workload W2 written by hand and made durable by hand: the scatter chain of scatter-chain.ts (or its
 * asynchronous form) where every child, as it goes, writes checkpoint rows (upserts of the child's JSON)
 * and events into its own better-sqlite3 tables, with the run store's pragmas (WAL, synchronous=NORMAL), in
 * batched transactions of a fixed number of checkpoints, the events of each transaction in one row (a page
 * of JSON, as the run store keeps them). Told how many checkpoints and events a child writes, it writes as
 * many as the dispatcher with a store does: the least that cost can be.
 */
import Database from 'better-sqlite3';
import { doubleAsync, incrementAsync } from './async-scatter-chain.ts';
import { double, increment } from './scatter-chain.ts';

/** How much a child writes and how the rows are grouped into transactions. */
export interface Writing {
  /** Checkpoint rows each child writes (upserts keyed by the child). */
  readonly checkpointsPerChild: number;
  /** Events each child writes (into the page of its transaction). */
  readonly eventsPerChild: number;
  /** Checkpoint rows per transaction. */
  readonly checkpointsPerBatch: number;
}

interface Child {
  readonly item: unknown;
  readonly index: number;
  result?: unknown;
}

/** An event as the baseline writes it: what the engine's events say of a child's step. */
interface BaselineEvent {
  readonly type: string;
  readonly item: string;
  readonly dag: string;
  readonly placement: string;
  readonly seq: number;
  readonly time: number;
}

/** A batched row writer on its own SQLite file. */
class RowSink {
  private readonly db: Database.Database;
  private readonly upsert: Database.Statement;
  private readonly insert: Database.Statement;
  private readonly commit: (rows: readonly (readonly [string, string])[], events: BaselineEvent[]) => void;
  private rows: (readonly [string, string])[] = [];
  private events: BaselineEvent[] = [];
  private seq = 0;

  constructor(
    file: string,
    private readonly batch: number,
  ) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS checkpoints (item_id TEXT PRIMARY KEY, record TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS event_pages (first_seq INTEGER PRIMARY KEY, body TEXT NOT NULL);`);
    this.upsert = this.db.prepare(
      'INSERT INTO checkpoints VALUES (?, ?) ON CONFLICT (item_id) DO UPDATE SET record = excluded.record',
    );
    this.insert = this.db.prepare('INSERT INTO event_pages VALUES (?, ?)');
    const upsert = this.upsert;
    const insert = this.insert;
    this.commit = this.db.transaction((rows, events) => {
      for (const [itemId, record] of rows) upsert.run(itemId, record);
      if (events.length > 0) insert.run((events[0] as BaselineEvent).seq, JSON.stringify(events));
    });
  }

  checkpoint(child: Child, step: string): void {
    const record = { itemId: `1.${child.index + 1}`, data: { item: child.item, result: child.result }, step };
    this.rows.push([record.itemId, JSON.stringify(record)]);
    if (this.rows.length >= this.batch) this.flush();
  }

  event(child: Child, type: string, placement: string): void {
    const seq = ++this.seq;
    const item = `1.${child.index + 1}`;
    this.events.push({ type, item, dag: 'urn:bench:w2:child', placement, seq, time: performance.now() });
  }

  flush(): void {
    if (this.rows.length === 0 && this.events.length === 0) return;
    const rows = this.rows;
    const events = this.events;
    this.rows = [];
    this.events = [];
    this.commit(rows, events);
  }

  close(): void {
    this.flush();
    this.db.close();
  }
}

/** Writes a child's share of rows after its step `part` (0 or 1), so the rows spread over the two steps. */
function write(sink: RowSink, child: Child, step: string, writing: Writing, part: number): void {
  const share = (n: number) => (part === 0 ? Math.floor(n / 2) : n - Math.floor(n / 2));
  for (let i = 0; i < share(writing.eventsPerChild); i++) sink.event(child, 'placement.end', step);
  for (let i = 0; i < share(writing.checkpointsPerChild); i++) sink.checkpoint(child, step);
}

/**
 * Runs every element of `list` through both steps (synchronous steps and `concurrency` children in flight,
 * or asynchronous steps and every child at once), writing each child's rows into the file at `file`; returns
 * the children's results in input order.
 * @example
 * await durableScatterChain([1, 2, 3], '/tmp/w2.db', 'sync', 64, { checkpointsPerChild: 1, eventsPerChild: 7, checkpointsPerBatch: 64 });
 */
export async function durableScatterChain(
  list: readonly unknown[],
  file: string,
  variant: 'sync' | 'async',
  concurrency: number,
  writing: Writing,
): Promise<unknown[]> {
  const sink = new RowSink(file, writing.checkpointsPerBatch);
  const runChild = async (child: Child): Promise<void> => {
    if (variant === 'sync') double(child);
    else await doubleAsync(child);
    write(sink, child, 'double', writing, 0);
    if (variant === 'sync') increment(child);
    else await incrementAsync(child);
    write(sink, child, 'increment', writing, 1);
  };
  const results = new Array<unknown>(list.length);
  let next = 0;
  const work = async (): Promise<void> => {
    while (next < list.length) {
      const index = next++;
      const child: Child = { item: list[index], index };
      await runChild(child);
      results[index] = child.result ?? null;
    }
  };
  const workers: Promise<void>[] = [];
  const width = variant === 'sync' ? concurrency : list.length;
  for (let w = 0; w < Math.max(1, Math.min(list.length, width)); w++) workers.push(work());
  await Promise.all(workers);
  sink.close();
  return results;
}
