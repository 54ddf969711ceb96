/**
 * A gated document ends alike in every executor (in memory, durable over SQLite, distributed over BullMQ
 * with its gates in Redis): the same normal form, less the gate events, whose number and order of waits
 * depend on timing (the distributed executor runs on real time); the closings are the same. The waits are
 * kept short: Retry-After hints of tens of milliseconds, paces of tens a second.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import { removeScratchKeys } from '../store/redis-scratch.ts';
import type { DiffCase } from './corpus.ts';
import { DistributedExecutor, type Executed, runDurable, runInMemory } from './executors.ts';
import { differences, normalise } from './normalise.ts';

/** A call node: item 1's first call gets a 429 with a Retry-After of 30 ms; every other call goes. */
const NODES: readonly NodeDefinition<string, never>[] = [
  defineNode({
    id: 'urn:gates-diff:call',
    outputs: ['ok'],
    run: (item, ctx) => {
      if (item.id === '1' && ctx.visit === 1) {
        throw Object.assign(new Error('429 Too Many Requests'), { status: 429, retryAfter: 30 });
      }
      item.data.called = ctx.visit;
      return 'ok';
    },
  }) as never,
];

const root = dag('urn:gates-diff:chain', { name: 'gates-diff', version: '1' })
  .budget('again', 3)
  .entry('call')
  .task('call', 'urn:gates-diff:call')
  .route('ok', 'done')
  .retry('retry', 'call', { budget: 'again', exhausted: 'failed' })
  .route('error', 'failed')
  .terminal('done', 'completed')
  .terminal('failed', 'failed')
  .build();

const policyOf = (gate: Record<string, unknown>): PolicyInput =>
  ({
    defaults: { backoff: { strategy: 'constant', baseMs: 5 }, jitter: 'none' },
    gates: { api: { placements: ['call'], ...gate } },
  }) as PolicyInput;

const CASES: readonly { readonly name: string; readonly policy: PolicyInput }[] = [
  { name: 'a gate that closes on a 429, one execution at a time', policy: policyOf({ concurrency: 1 }) },
  { name: 'a gate that closes on a 429, paced at 50 a second', policy: policyOf({ rate: { limit: 50 } }) },
  {
    name: 'a gate with a pace and a concurrency',
    policy: policyOf({ concurrency: 2, rate: { limit: 40, burst: 2 } }),
  },
];

function diffCase(policy: PolicyInput, seed: number): DiffCase {
  return {
    seed,
    root,
    library: [],
    plans: new Map(),
    nodes: NODES,
    items: Array.from({ length: 5 }, (_x, n) => ({ n })),
    policy,
    deadlineMs: undefined,
    features: new Map(),
  };
}

/** The normal form without the gate events, and the closings apart. */
function withoutGateEvents(run: Executed) {
  const normal = normalise(run);
  const events = normal.events.filter((e) => !e.includes('"type":"gate.'));
  // A closing's end is a wall time, which the executors' clocks read apart.
  const closings = normal.events
    .filter((e) => e.includes('"type":"gate.closed"'))
    .map((e) => {
      const { untilMs: _until, ...closing } = JSON.parse(e) as Record<string, unknown>;
      return closing;
    });
  return { normal: { ...normal, events }, closings };
}

let distributed: DistributedExecutor | undefined;
let folder = '';

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'switchyard-gates-diff-'));
  distributed = await DistributedExecutor.start(NODES);
});

afterAll(async () => {
  await distributed?.close();
  await removeScratchKeys();
  if (folder !== '') rmSync(folder, { recursive: true, force: true });
});

describe('a gated document in every executor', () => {
  CASES.forEach((c, i) => {
    it(c.name, { timeout: 60_000 }, async () => {
      const k = diffCase(c.policy, 9500 + i);
      const memory = withoutGateEvents(await runInMemory(k));
      expect(memory.normal.status).toBe('completed');
      // Only item 1 spent budget: the others waited at the gate.
      expect(memory.normal.items.map((item) => [item.id, item.state.budgets.again ?? 0])).toEqual([
        ['1', 1],
        ['2', 0],
        ['3', 0],
        ['4', 0],
        ['5', 0],
      ]);
      expect(memory.closings).toHaveLength(1);
      for (const [name, run] of [
        ['durable', () => runDurable(k, folder)],
        ['distributed', () => (distributed as DistributedExecutor).run(k)],
      ] as const) {
        const other = withoutGateEvents(await run());
        expect(differences(memory.normal, other.normal), `${name} against in memory`).toEqual([]);
        expect(other.closings, name).toEqual(memory.closings);
      }
    });
  });
});
