/**
 * Checkpoint writes per second into the SQLite run store: one transaction per write, batches of 1, 10, 100
 * and 1000 writes through `commit(batch)`, and the same sizes through the group committer (writes made in
 * one turn, coalesced into one transaction). Beside them: the memory store, and the same upserts written by
 * hand on a bare better-sqlite3 prepared statement. Medians of several repetitions, each on a fresh file, in
 * wall time and in CPU time (user + system) of this process: on a machine shared with other work the CPU
 * figure is the steadier one, while the wall figure also holds the waits for the disk. Then the cost of a
 * transaction of 1, 10 and 100 events, written as one row each or as one page (`SECTION=transactions` runs
 * only that part; `PAGES=0` leaves pages out, for a store that has none).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { createGroupCommitter } from '../src/store/group-commit.ts';
import { createMemoryStore } from '../src/store/memory.ts';
import { openSqliteStore, type SqliteStoreOptions } from '../src/store/sqlite.ts';
import type { EventRecord, ItemCheckpoint, RunRecord, RunStore, StoreWrite } from '../src/store/types.ts';
import { median, printTable } from './stats.ts';

const WRITES = Number(process.env.WRITES ?? 20_000);
const REPS = Number(process.env.REPS ?? 7);
const ITEMS = 1000;
const T0 = 1_800_000_000_000;

const folder = mkdtempSync(join(tmpdir(), 'switchyard-store-bench-'));
let files = 0;

const run: RunRecord = {
  id: 'bench',
  dag: { iri: 'urn:bench:w1', hash: 'a'.repeat(64) },
  documents: [],
  policy: { value: {}, hash: 'b'.repeat(64) },
  input: [],
  options: {},
  status: 'running',
  createdAt: T0,
  updatedAt: T0,
  formatVersion: 1,
  engineVersion: '0.1.0',
};

/** The checkpoint of transition `t`: one of {@link ITEMS} items, as a W1 item looks after a few visits. */
function checkpoint(t: number): StoreWrite {
  const value: ItemCheckpoint = {
    runId: 'bench',
    itemId: String(t % ITEMS),
    status: 'active',
    state: {
      data: { topic: 'whales', draft: `whales #${t}` },
      budgets: { compose: t % 3 },
      journal: {},
      trail: [{ placement: 'compose', output: 'drafted', to: 'validate', kind: 'next' }],
      visits: { compose: 1 + (t % 3), validate: 1 + (t % 3) },
    },
    position: { dag: 'urn:bench:w1', placement: 'validate', visit: 1 + (t % 3), frames: [] },
    updatedAt: T0 + t,
  };
  return { kind: 'checkpoint', checkpoint: value };
}

async function fresh(kind: 'sqlite' | 'memory', options: SqliteStoreOptions = {}): Promise<RunStore> {
  const store =
    kind === 'memory' ? createMemoryStore() : await openSqliteStore(join(folder, `${files++}.db`), options);
  await store.commit([{ kind: 'run', run }]);
  return store;
}

/** Wall and CPU milliseconds of one repetition. */
interface Elapsed {
  readonly wall: number;
  readonly cpu: number;
}

function startTimer(): () => Elapsed {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(cpu);
    return { wall: performance.now() - wall, cpu: (used.user + used.system) / 1000 };
  };
}

/** Time to write `writes` checkpoints, `size` per batch, by `commit` or by the group committer. */
async function timed(
  store: RunStore,
  size: number,
  via: 'commit' | 'group',
  writes = WRITES,
): Promise<Elapsed> {
  const group = createGroupCommitter(store);
  const stop = startTimer();
  for (let t = 0; t < writes; t += size) {
    if (via === 'commit') {
      const batch: StoreWrite[] = [];
      for (let i = t; i < t + size; i++) batch.push(checkpoint(i));
      await store.commit(batch);
    } else {
      const pending: Promise<void>[] = [];
      for (let i = t; i < t + size; i++) pending.push(group.write(checkpoint(i)));
      await Promise.all(pending);
    }
  }
  const elapsed = stop();
  await store.close();
  return elapsed;
}

/** The same upserts by hand: one prepared statement, `size` rows per transaction, JSON.stringify per row. */
function byHand(size: number): Elapsed {
  const db = new Database(join(folder, `${files++}.db`));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE c (run_id TEXT, item_id TEXT, status TEXT, record TEXT, UNIQUE (run_id, item_id))');
  const upsert = db.prepare(
    `INSERT INTO c VALUES (?, ?, ?, ?) ON CONFLICT (run_id, item_id) DO UPDATE SET status = excluded.status,
       record = excluded.record`,
  );
  const write = db.transaction((from: number) => {
    for (let i = from; i < from + size; i++) {
      const { checkpoint: c } = checkpoint(i) as { checkpoint: ItemCheckpoint };
      upsert.run(c.runId, c.itemId, c.status, JSON.stringify(c));
    }
  });
  const stop = startTimer();
  for (let t = 0; t < WRITES; t += size) write(t);
  const elapsed = stop();
  db.close();
  return elapsed;
}

/** Per-write figures: writes per wall second, and wall and CPU µs per write. */
interface Figures {
  readonly perSecond: number;
  readonly us: number;
  readonly cpuUs: number;
}

async function measure(fn: () => Promise<Elapsed> | Elapsed, writes = WRITES): Promise<Figures> {
  await fn();
  const samples: Elapsed[] = [];
  for (let i = 0; i < REPS; i++) samples.push(await fn());
  const wall = median(samples.map((s) => s.wall));
  const cpu = median(samples.map((s) => s.cpu));
  return { perSecond: (writes * 1000) / wall, us: (wall * 1000) / writes, cpuUs: (cpu * 1000) / writes };
}

/** Events per repetition of the transaction figures. */
const EVENTS = Number(process.env.EVENTS ?? 20_000);

/** Event `seq` of the bench run, shaped like the engine's `placement.end`. */
function event(seq: number): EventRecord {
  const body = { type: 'placement.end', seq, at: T0 + seq, item: String(seq % ITEMS), placement: 'compose' };
  return { runId: 'bench', seq, type: 'placement.end', body: { ...body, output: 'drafted', durationMs: 3 } };
}

/**
 * Time to write {@link EVENTS} events, `size` per transaction, as one row each or as one page per batch;
 * with `checkpoint`, each transaction also upserts an item's checkpoint, as a turn of a durable run does.
 */
async function eventTransactions(
  store: RunStore,
  size: number,
  as: 'rows' | 'page',
  withCheckpoint = false,
): Promise<Elapsed> {
  const stop = startTimer();
  for (let seq = 0; seq < EVENTS; seq += size) {
    const events: EventRecord[] = [];
    for (let i = seq; i < seq + size; i++) events.push(event(i));
    const batch: StoreWrite[] =
      as === 'page'
        ? [{ kind: 'events', runId: 'bench', events }]
        : events.map((e): StoreWrite => ({ kind: 'event', event: e }));
    if (withCheckpoint) batch.push(checkpoint(seq));
    await store.commit(batch);
  }
  const elapsed = stop();
  if ((await store.lastEventSeq('bench')) !== EVENTS - 1) throw new Error('the bench lost events');
  await store.close();
  return elapsed;
}

/** Per-transaction cost of events as rows or as one page, in CPU µs per transaction and per event. */
async function transactionRows(): Promise<string[][]> {
  const out: string[][] = [];
  const kinds: readonly ('rows' | 'page')[] = process.env.PAGES === '0' ? ['rows'] : ['rows', 'page'];
  const shapes = [1, 10, 100].map((size) => ({ size, withCheckpoint: false }));
  shapes.push({ size: 5, withCheckpoint: true });
  for (const { size, withCheckpoint } of shapes) {
    for (const as of kinds) {
      const m = await measure(
        async () => eventTransactions(await fresh('sqlite'), size, as, withCheckpoint),
        EVENTS,
      );
      const perTx = m.cpuUs * size;
      const what = `${size} event${size === 1 ? '' : 's'}${withCheckpoint ? ' and a checkpoint' : ''}`;
      out.push([
        `${what} per transaction, as ${as === 'page' ? 'one page' : 'rows'}`,
        `${perTx.toFixed(1)} µs CPU/transaction`,
        `${m.cpuUs.toFixed(2)} µs CPU/event, ${(m.us * size).toFixed(1)} µs wall/transaction`,
      ]);
    }
  }
  return out;
}

if (process.env.SECTION === 'transactions') {
  printTable(`Run store: ${EVENTS} events per repetition, median of ${REPS}`, await transactionRows());
  rmSync(folder, { recursive: true, force: true });
  process.exit(0);
}

const rows: string[][] = [];
const add = (label: string, m: Figures) =>
  rows.push([
    label,
    `${Math.round(m.perSecond).toLocaleString('en')} writes/s`,
    `${m.us.toFixed(2)} µs/write wall, ${m.cpuUs.toFixed(2)} µs/write CPU`,
  ]);

for (const size of [1, 10, 100, 1000]) {
  add(`by hand, ${size} per transaction`, await measure(() => byHand(size)));
  add(
    `store.commit, batches of ${size}`,
    await measure(async () => timed(await fresh('sqlite'), size, 'commit')),
  );
  add(
    `group commit, ${size} per turn`,
    await measure(async () => timed(await fresh('sqlite'), size, 'group')),
  );
}
// A sync per transaction costs a disk flush each, so these write a tenth as many checkpoints.
for (const size of [1, 100]) {
  const full = { synchronous: 'full' } as const;
  const writes = WRITES / 10;
  add(
    `store.commit, batches of ${size}, synchronous=full`,
    await measure(async () => timed(await fresh('sqlite', full), size, 'commit', writes), writes),
  );
}
add('memory store, batches of 1', await measure(async () => timed(await fresh('memory'), 1, 'commit')));
add('memory store, batches of 100', await measure(async () => timed(await fresh('memory'), 100, 'commit')));

printTable(`Run store: ${WRITES} checkpoint upserts over ${ITEMS} items, median of ${REPS}`, rows);
printTable(`Run store: ${EVENTS} events per repetition, median of ${REPS}`, await transactionRows());
rmSync(folder, { recursive: true, force: true });
