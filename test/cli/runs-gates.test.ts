/**
 * `switchyard runs show` of a run with gates: the items waiting at a gate (their last event is a
 * `gate.wait`) with the gate, key and why, and each gate key's state from the recorded events.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { CheckpointState, ItemCheckpoint, StoreWrite } from '../../src/store/types.ts';
import { runCli } from './run-cli.ts';

const DAG = 'urn:t:gated';
const CREATED = Date.UTC(2026, 0, 1, 12);
/** Far ahead, so that the closing is in force whenever the test runs. */
const UNTIL = Date.UTC(2030, 5, 1, 12);
/** Long ago, so that a closing that ended then is over whenever the test runs. */
const PAST = Date.UTC(2020, 0, 1);

let dir: string;
let storePath: string;

const state = (budgets: Record<string, number> = {}): CheckpointState => ({
  data: {},
  budgets,
  journal: {},
  trail: [],
  visits: { call: 1 },
});

/**
 * Item 1 got the 429 and waits out its Retry-After; items 2 and 3 wait at the closed gate `api`; item 4
 * waited there once and ended; item 5 waits for a place at `api:gpt-4o`, which a 429 closed for 2 s; item
 * 6 waits at `api` without a checkpoint.
 */
function checkpoint(itemId: string, status: ItemCheckpoint['status']): ItemCheckpoint {
  const base = { dag: DAG, placement: 'call', visit: 1, frames: [] };
  return {
    runId: 'gated',
    itemId,
    status,
    state: state(itemId === '1' ? { tries: 1 } : {}),
    position: status === 'waiting' ? { ...base, wait: { until: UNTIL, reason: 'retry-after' } } : base,
    ...(status === 'ended'
      ? { ending: { kind: 'terminal' as const, placement: 'done', outcome: 'completed' as const } }
      : {}),
    updatedAt: CREATED,
  };
}

const gateEvents: Record<string, unknown>[] = [
  { type: 'placement.start', item: '4', dag: DAG, placement: 'call', visit: 1 },
  { type: 'gate.wait', item: '4', dag: DAG, placement: 'call', gate: 'api', key: 'api', why: 'concurrency' },
  { type: 'item.end', item: '4', dag: DAG, terminal: 'done', outcome: 'completed' },
  { type: 'gate.closed', gate: 'db', key: 'db', untilMs: PAST, reason: 'HTTP 503', hintMs: 5000 },
  {
    type: 'gate.closed',
    gate: 'api',
    key: 'api',
    untilMs: UNTIL,
    reason: 'HTTP 429',
    hintMs: 60_000,
    item: '1',
    dag: DAG,
    placement: 'call',
  },
  {
    type: 'gate.wait',
    item: '2',
    dag: DAG,
    placement: 'call',
    gate: 'api',
    key: 'api',
    why: 'closed',
    untilMs: UNTIL,
  },
  {
    type: 'gate.wait',
    item: '3',
    dag: DAG,
    placement: 'call',
    gate: 'api',
    key: 'api',
    why: 'closed',
    untilMs: UNTIL,
  },
  // Item 6 waits at its first placement: no transition of it, so no checkpoint, is recorded yet.
  {
    type: 'gate.wait',
    item: '6',
    dag: DAG,
    placement: 'call',
    gate: 'api',
    key: 'api',
    why: 'closed',
    untilMs: UNTIL,
  },
  { type: 'gate.closed', gate: 'api', key: 'api:gpt-4o', untilMs: PAST, reason: 'HTTP 429' },
  { type: 'gate.opened', gate: 'api', key: 'api:gpt-4o', closedMs: 2000 },
  {
    type: 'gate.wait',
    item: '5',
    dag: DAG,
    placement: 'call',
    gate: 'api',
    key: 'api:gpt-4o',
    why: 'concurrency',
  },
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-runs-gates-'));
  storePath = join(dir, 'runs.db');
  const store = await openSqliteStore(storePath);
  await store.commit([
    {
      kind: 'run',
      run: {
        id: 'gated',
        dag: { iri: DAG, hash: 'a'.repeat(64) },
        documents: [],
        policy: { value: {}, hash: 'c'.repeat(64) },
        input: [{}, {}, {}, {}, {}, {}],
        options: { entrypoint: 'call', items: 6, files: {} },
        status: 'aborted',
        createdAt: CREATED,
        updatedAt: CREATED,
        formatVersion: 2,
        engineVersion: '0.1.0',
      },
    },
    ...(
      [
        ['1', 'waiting'],
        ['2', 'active'],
        ['3', 'active'],
        ['4', 'ended'],
        ['5', 'active'],
      ] as const
    ).map(([id, status]): StoreWrite => ({ kind: 'checkpoint', checkpoint: checkpoint(id, status) })),
    {
      kind: 'events',
      runId: 'gated',
      events: gateEvents.map((body, seq) => ({
        runId: 'gated',
        seq,
        type: String(body.type),
        body: { ...body, seq, time: seq, runId: 'gated' },
      })),
    },
  ]);
  await store.close();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('switchyard runs show: gates', () => {
  it("prints each gate key's state, and the gate each waiting item waits at", async () => {
    const result = await runCli(['runs', 'show', 'gated', '--store', storePath], dir);
    expect(result.code, result.err).toBe(0);
    const lines = result.out.split('\n');
    const gates = lines.filter((l) => l.startsWith('  gate     '));
    expect(gates).toEqual([
      '  gate     api  closed until 2030-06-01T12:00:00.000Z (HTTP 429, Retry-After 1 min); 3 items waiting: 2, 3, 6',
      '  gate     db  open (last closed: HTTP 503, Retry-After 5.00 s)',
      '  gate     api:gpt-4o  open (last closed 2.00 s: HTTP 429); 1 item waiting: 5',
      '  gate     waiting at gate api (key api), closed until 2030-06-01T12:00:00.000Z',
      '  gate     waiting at gate api (key api), closed until 2030-06-01T12:00:00.000Z',
      '  gate     waiting at gate api (key api:gpt-4o), every place taken (concurrency)',
    ]);
    // The run's gate keys, in the order its events first named them, come before its items; each item's gate follows its head line.
    const item2 = lines.indexOf('item 2  active at call (urn:t:gated, visit 1)');
    expect(item2).toBeGreaterThan(lines.indexOf(gates[2] as string));
    expect(lines[item2 + 1]).toBe(gates[3]);
    // Item 1 waits out its own Retry-After, not at the gate; item 4 ended.
    for (const id of ['1', '4']) {
      const at = lines.findIndex((l) => l.startsWith(`item ${id}  `));
      expect(lines[at + 1]?.startsWith('  gate')).toBe(false);
    }
  });

  it('gives the same as JSON', async () => {
    const result = await runCli(['runs', 'show', 'gated', '--store', storePath, '--json'], dir);
    expect(result.code, result.err).toBe(0);
    const view = JSON.parse(result.out) as { gates: unknown[]; items: { id: string; gate?: unknown }[] };
    expect(view.gates).toEqual([
      {
        gate: 'api',
        key: 'api',
        state: 'closed',
        until: '2030-06-01T12:00:00.000Z',
        reason: 'HTTP 429',
        hintMs: 60_000,
        waiting: 3,
        items: ['2', '3', '6'],
      },
      { gate: 'db', key: 'db', state: 'open', reason: 'HTTP 503', hintMs: 5000, waiting: 0, items: [] },
      {
        gate: 'api',
        key: 'api:gpt-4o',
        state: 'open',
        reason: 'HTTP 429',
        closedMs: 2000,
        waiting: 1,
        items: ['5'],
      },
    ]);
    expect(view.items.map((i) => [i.id, i.gate])).toEqual([
      ['1', undefined],
      ['2', { gate: 'api', key: 'api', why: 'closed', until: '2030-06-01T12:00:00.000Z' }],
      ['3', { gate: 'api', key: 'api', why: 'closed', until: '2030-06-01T12:00:00.000Z' }],
      ['4', undefined],
      ['5', { gate: 'api', key: 'api:gpt-4o', why: 'concurrency' }],
    ]);
  });
});
