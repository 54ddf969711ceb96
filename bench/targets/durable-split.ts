/**
 * Where a durable W1 run's time goes (docs/ENGINE-PROFILE.md), by difference: the engine's runs with no
 * store; recorded to a store that keeps nothing (the recording's own cost: events, copies, the recorder);
 * to SQLite `:memory:`; to a fresh SQLite file, through a wrapper that times each commit and keeps the
 * batches, whose JSON encoding is then timed alone; and the hand-written ledger
 * (bench/baseline/durable-compose-validate.ts, the run's row committed first). Prints, per run (9 node
 * executions), the median CPU µs of each part and the bytes of JSON each kind of write holds.
 *
 *   node <compiled copy>/bench/targets/durable-split.js [runs] [reps]     (bench/targets/compiled.ts)
 *   node --import tsx bench/targets/durable-split.ts [runs] [reps]        (the sources, under tsx)
 */
import { existsSync, statSync } from 'node:fs';
import { createDispatcher, createMemoryStore, openSqliteStore, type RunStore } from '../../src/index.ts';
import type { EventRecord, StoreWrite } from '../../src/store/types.ts';
import { openLedger } from '../baseline/durable-compose-validate.ts';
import { scratchFolder } from '../durable-common.ts';
import { median } from '../stats.ts';
import { W1_BUDGET, W1_POLICY, w1Workload } from '../workloads.ts';

const { compiled, nodes } = w1Workload();

/** CPU µs of `body`. */
async function cpuOf(body: () => Promise<void> | void): Promise<number> {
  const start = process.cpuUsage();
  await body();
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

/**
 * The part of a write a store keeps as JSON text: a checkpoint's text when the engine made it already (then
 * encoding it costs nothing more), the bodies of a page of events, the payload of anything else.
 */
function payloadOf(write: StoreWrite): unknown {
  if (write.kind === 'checkpoint') return write.text ?? write.checkpoint;
  if (write.kind === 'events') return write.events.map((event: EventRecord) => event.body);
  if (write.kind === 'event') return write.event.body;
  const { kind: _kind, ...rest } = write as StoreWrite & Record<string, unknown>;
  return rest;
}

/** A store that records nothing: every commit succeeds at once (what the recording costs outside a store). */
function nothing(store: RunStore): RunStore {
  return new Proxy(store, {
    get(target, key) {
      if (key === 'commit') return async () => undefined;
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** A store that times its commits (CPU µs) and keeps every batch. */
function timing(store: RunStore): { store: RunStore; commitUs: () => number; batches: StoreWrite[][] } {
  let us = 0;
  const batches: StoreWrite[][] = [];
  const wrapped = new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (key !== 'commit') return (value as (...args: unknown[]) => unknown).bind(target);
      return async (batch: readonly StoreWrite[]) => {
        batches.push([...batch]);
        // better-sqlite3 works synchronously inside commit: its CPU time is the commit's.
        const start = process.cpuUsage();
        try {
          return await target.commit(batch);
        } finally {
          const used = process.cpuUsage(start);
          us += used.user + used.system;
        }
      };
    },
  });
  return { store: wrapped, commitUs: () => us, batches };
}

/** WAL frames one run adds to the file: the log's size after `count` runs, over a frame's size (4 KiB pages). */
function framesPerRun(file: string, count: number): number {
  const wal = `${file}-wal`;
  const size = existsSync(wal) ? statSync(wal).size : 0;
  return Math.max(0, size - 32) / (4096 + 24) / count;
}

/** WAL frames per run of the engine and of the ledger, over few enough runs that no checkpoint resets the log. */
async function walFrames(
  folder: ReturnType<typeof scratchFolder>,
): Promise<{ engine: number; ledger: number }> {
  const count = 50;
  const file = folder.file('frames-engine.db');
  const store = await openSqliteStore(file);
  const dispatcher = createDispatcher({ nodes, policy: W1_POLICY, store });
  await dispatcher.run(compiled, { topic: 'whales' });
  const before = framesPerRun(file, 1);
  for (let i = 0; i < count; i++) await dispatcher.run(compiled, { topic: 'whales' });
  const engine = framesPerRun(file, count) - before / count;
  await store.close();
  const ledgerFile = folder.file('frames-ledger.db');
  const book = openLedger(ledgerFile, 'start-and-end');
  book.run('warm', { topic: 'whales' }, W1_BUDGET);
  const ledgerBefore = framesPerRun(ledgerFile, 1);
  for (let i = 0; i < count; i++) book.run(`run-${i}`, { topic: 'whales' }, W1_BUDGET);
  const ledger = framesPerRun(ledgerFile, count) - ledgerBefore / count;
  book.close();
  return { engine, ledger };
}

async function main(runs: number, reps: number): Promise<void> {
  const folder = scratchFolder('switchyard-durable-split-');
  let files = 0;
  const noStore = createDispatcher({ nodes, policy: W1_POLICY });
  const parts: Record<string, number[]> = {
    total: [],
    none: [],
    discarded: [],
    memory: [],
    commit: [],
    encode: [],
    ledger: [],
  };
  const runAll = async (dispatcher: ReturnType<typeof createDispatcher>) =>
    cpuOf(async () => {
      for (let i = 0; i < runs; i++) await dispatcher.run(compiled, { topic: 'whales' });
    });
  const bytes = new Map<string, number>();
  for (let rep = -2; rep < reps; rep++) {
    const none = await runAll(noStore);
    const discarding = nothing(createMemoryStore());
    const discarded = await runAll(createDispatcher({ nodes, policy: W1_POLICY, store: discarding }));
    const inMemory = await openSqliteStore(':memory:');
    const memory = await runAll(createDispatcher({ nodes, policy: W1_POLICY, store: inMemory }));
    await inMemory.close();
    const opened = await openSqliteStore(folder.file(`${files++}.db`));
    const timed = timing(opened);
    const durable = createDispatcher({ nodes, policy: W1_POLICY, store: timed.store });
    const total = await runAll(durable);
    await opened.close();
    const writes = timed.batches.flat();
    const encode = await cpuOf(() => {
      for (const write of writes) JSON.stringify(payloadOf(write));
    });
    const book = openLedger(folder.file(`${files++}.db`), 'start-and-end');
    const ledger = await cpuOf(() => {
      for (let i = 0; i < runs; i++) book.run(`run-${i}`, { topic: 'whales' }, W1_BUDGET);
    });
    book.close();
    if (rep < 0) continue;
    parts.total?.push(total / runs);
    parts.none?.push(none / runs);
    parts.discarded?.push(discarded / runs);
    parts.memory?.push(memory / runs);
    parts.commit?.push(timed.commitUs() / runs);
    parts.encode?.push(encode / runs);
    parts.ledger?.push(ledger / runs);
    if (rep === 0) {
      for (const write of writes) {
        const size = JSON.stringify(payloadOf(write))?.length ?? 0;
        bytes.set(write.kind, (bytes.get(write.kind) ?? 0) + size / runs);
      }
    }
  }
  const frames = await walFrames(folder);
  folder.remove();
  const m = (key: string) => median(parts[key] as number[]);
  const line = (label: string, us: number) =>
    process.stdout.write(
      `  ${label.padEnd(58)} ${us.toFixed(1).padStart(7)} µs/run  ${(us / 9).toFixed(2).padStart(6)} µs/exec\n`,
    );
  process.stdout.write(`durable W1, ${runs} runs × 9 executions, median of ${reps}, CPU\n`);
  line('engine, SQLite file', m('total'));
  line('  engine, no store', m('none'));
  line('  + recording, to a store that keeps nothing', m('discarded') - m('none'));
  line('  + JSON encoding of the batches (timed alone)', m('encode'));
  line(
    '  + SQLite :memory: (statements, b-trees), less the encoding',
    m('memory') - m('discarded') - m('encode'),
  );
  line('  + the file (WAL)', m('total') - m('memory'));
  line('  store.commit on the file, encoding included', m('commit'));
  line('hand-written ledger, run row first, a row per transition', m('ledger'));
  const kinds = [...bytes].map(([kind, b]) => `${kind} ${Math.round(b)}`).join(', ');
  process.stdout.write(`  JSON bytes per run by write: ${kinds}\n`);
  process.stdout.write(
    `  WAL frames (4 KiB pages) per run: engine ${frames.engine.toFixed(1)}, ledger ${frames.ledger.toFixed(1)}\n`,
  );
}

const [runs, reps] = process.argv.slice(2);
await main(Number(runs ?? 500), Number(reps ?? 5));
