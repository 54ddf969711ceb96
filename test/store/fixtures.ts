/** Records for the store tests: a run, an item checkpoint with hostile keys, and the times they use. */
import type {
  CheckpointState,
  EventRecord,
  ItemCheckpoint,
  RunRecord,
  StoreWrite,
} from '../../src/store/types.ts';

/** A wall time (ms since the epoch) the tests start at. */
export const T0 = 1_800_000_000_000;

/** A run of `urn:test:dag`, created at `T0 + createdAfter`. */
export function makeRun(id: string, overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    id,
    dag: {
      iri: 'urn:test:dag',
      hash: 'a'.repeat(64),
      file: 'dags/test.jsonld',
      document: { '@id': 'urn:test:dag' },
    },
    documents: [{ iri: 'urn:test:child', hash: 'b'.repeat(64) }],
    policy: { value: { defaults: { deadlineMs: 1000 } }, hash: 'c'.repeat(64) },
    input: [{ topic: 'whales' }, { topic: 'owls' }],
    options: { concurrency: 4 },
    status: 'running',
    createdAt: T0,
    updatedAt: T0,
    formatVersion: 1,
    engineVersion: '0.1.0',
    ...overrides,
  };
}

/** A null-prototype record of `entries`, as the engine keeps maps keyed by names from documents. */
export function bare<V>(entries: Record<string, V>): Record<string, V> {
  const out = Object.create(null) as Record<string, V>;
  for (const [key, value] of Object.entries(entries)) {
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** An item state whose maps are null-prototype and whose keys are the names of Object.prototype members. */
export function hostileState(visit: number): CheckpointState {
  return {
    data: bare({
      ['__proto__']: { polluted: true },
      toString: 'not a function',
      constructor: { prototype: 1 },
      n: visit,
    }),
    budgets: bare({ ['__proto__']: 2, toString: 1, hasOwnProperty: 3 }),
    journal: bare({ constructor: { value: 'x' }, 'fan[2]/charge': { encoded: '[1]' } }),
    trail: [{ placement: '__proto__', output: 'toString', to: 'valueOf', kind: 'retry' }],
    visits: bare({ ['__proto__']: visit, valueOf: 1 }),
  };
}

/** A checkpoint of item `itemId` at its `visit`-th visit, waiting out a back-off until `T0 + visit`. */
export function makeCheckpoint(runId: string, itemId: string, visit = 1): ItemCheckpoint {
  return {
    runId,
    itemId,
    status: 'waiting',
    state: hostileState(visit),
    position: {
      dag: 'urn:test:child',
      placement: 'compose',
      visit,
      frames: [
        { kind: 'embed', dag: 'urn:test:dag', placement: 'draft', visit: 1 },
        { kind: 'scatter', dag: 'urn:test:child', placement: 'fan', visit: 1, index: 2 },
      ],
      wait: { until: T0 + visit, reason: 'backoff' },
    },
    updatedAt: T0 + visit,
  };
}

/** The write of a new run. */
export function runWrite(run: RunRecord): StoreWrite {
  return { kind: 'run', run };
}

/** The writes of events `from` to `to - 1` of `runId`. */
export function eventWrites(runId: string, from: number, to: number): StoreWrite[] {
  const writes: StoreWrite[] = [];
  for (let seq = from; seq < to; seq++) {
    writes.push({ kind: 'event', event: makeEvent(runId, seq) });
  }
  return writes;
}

/** The event `seq` of `runId`, as {@link eventWrites} writes it. */
export function makeEvent(runId: string, seq: number): EventRecord {
  return { runId, seq, type: 'route', body: { seq, type: 'route', to: `p${seq}` } };
}

/** A page of the events `seqs` of `runId`, written as one record. */
export function pageWrite(runId: string, seqs: readonly number[]): StoreWrite {
  return { kind: 'events', runId, events: seqs.map((seq) => makeEvent(runId, seq)) };
}
