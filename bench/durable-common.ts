/**
 * What the durable benchmarks share: a temporary folder for store files, the stores each one compares, a
 * store wrapper that counts what the engine writes (so a hand-written baseline can write as much), and the
 * size of a store file on disk.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { PolicyInput } from '../src/policy/types.ts';
import { defineNode } from '../src/runtime/node.ts';
import { createMemoryStore } from '../src/store/memory.ts';
import { openSqliteStore } from '../src/store/sqlite.ts';
import type { RunStore, StoreWrite } from '../src/store/types.ts';
import { doubleAsync, incrementAsync } from './baseline/async-scatter-chain.ts';
import type { Writing } from './baseline/durable-scatter-chain.ts';
import { double, increment } from './baseline/scatter-chain.ts';
import { w2Documents } from './workloads.ts';

/** The stores a durable benchmark runs the engine on. */
export type StoreKind = 'sqlite-file' | 'sqlite-memory' | 'memory';

/** How each store kind is named in the tables. */
export const STORE_LABELS: Readonly<Record<StoreKind, string>> = {
  'sqlite-file': 'SQLite file (WAL, synchronous=NORMAL)',
  'sqlite-memory': 'SQLite :memory:',
  memory: 'memory store',
};

/** A fresh temporary folder for store files, removed by `remove`. */
export function scratchFolder(prefix: string): {
  readonly path: string;
  file(name: string): string;
  remove(): void;
} {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return {
    path,
    file: (name) => join(path, name),
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}

/** Opens an empty store of `kind`; file stores go to `file`. */
export async function openStore(kind: StoreKind, file: string): Promise<RunStore> {
  if (kind === 'memory') return createMemoryStore();
  return openSqliteStore(kind === 'sqlite-file' ? file : ':memory:');
}

/** What the engine wrote through a {@link countingStore}. */
export interface WriteCounts {
  /** Transactions (calls of `commit`), leases not counted. */
  batches: number;
  /** Lease calls (acquire, renew, release): each is a transaction of its own. */
  leases: number;
  /** Writes per kind: run, run-status, checkpoint, journal, event, events (a page)… */
  readonly rows: Record<string, number>;
  /** Events written, one by one or in pages. */
  events: number;
  /** Milliseconds spent inside `commit`. */
  commitMs: number;
}

/** The total number of rows in `counts`. */
export function totalRows(counts: WriteCounts): number {
  return Object.values(counts.rows).reduce((a, b) => a + b, 0);
}

/** Wraps `store` so that every commit and lease call is counted (and commit time summed) in the result. */
export function countingStore(store: RunStore): { readonly store: RunStore; readonly counts: WriteCounts } {
  const counts: WriteCounts = { batches: 0, leases: 0, rows: {}, events: 0, commitMs: 0 };
  const wrapped = new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (key === 'commit') {
        return async (batch: readonly StoreWrite[]) => {
          counts.batches++;
          for (const write of batch) {
            counts.rows[write.kind] = (counts.rows[write.kind] ?? 0) + 1;
            if (write.kind === 'event') counts.events++;
            else if (write.kind === 'events') counts.events += write.events.length;
          }
          const start = performance.now();
          try {
            return await target.commit(batch);
          } finally {
            counts.commitMs += performance.now() - start;
          }
        };
      }
      if (typeof key === 'string' && key.endsWith('Lease') && key !== 'getLease') counts.leases++;
      return (value as (...args: unknown[]) => unknown).bind(target);
    },
  });
  return { store: wrapped, counts };
}

/** Bytes of the database file and its write-ahead log (0 for a missing log). */
export function bytesOnDisk(file: string): number {
  const wal = `${file}-wal`;
  return statSync(file).size + (existsSync(wal) ? statSync(wal).size : 0);
}

/** Formats a byte count in KiB or MiB. */
export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(2)} MiB`
    : `${(bytes / 1024).toFixed(1)} KiB`;
}

/** What one durable W2 run wrote, counted on the SQLite file. */
export interface Written {
  readonly batches: number;
  readonly leases: number;
  readonly rows: Record<string, number>;
  readonly events: number;
}

/**
 * What the hand-written durable W2 must write to match a durable run of `items` children that wrote
 * `written`: as many checkpoint rows and events per child, in transactions of the engine's average batch.
 */
export function writingFor(written: Written, items: number): Writing {
  const checkpoints = written.rows.checkpoint ?? 0;
  return {
    checkpointsPerChild: Math.round(checkpoints / items),
    eventsPerChild: Math.round(written.events / items),
    checkpointsPerBatch: Math.max(1, Math.round(checkpoints / Math.max(1, written.batches))),
  };
}

/**
 * W2's documents, nodes and policy for a durable run: synchronous nodes with 64 children in flight, or
 * asynchronous ones with every child at once.
 */
export function durableW2(variant: 'sync' | 'async') {
  const { child, parent } = w2Documents();
  const sync = variant === 'sync';
  const nodes = [
    defineNode({
      id: 'urn:bench:double',
      outputs: ['ok'],
      run: (item) => (sync ? double(item.data) : doubleAsync(item.data)),
    }),
    defineNode({
      id: 'urn:bench:increment',
      outputs: ['ok'],
      run: (item) => (sync ? increment(item.data) : incrementAsync(item.data)),
    }),
  ];
  const policy: PolicyInput = sync
    ? { placements: { fan: { concurrency: 64 } } }
    : { defaults: { concurrency: Number.MAX_SAFE_INTEGER } };
  return { child, parent, nodes, policy };
}
