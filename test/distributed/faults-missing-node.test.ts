/**
 * A worker that does not register a node a job needs: it leaves the job for a worker that does, says so
 * once (not once per job), and when no worker takes the job within the give-up time the item fails with
 * E_NODE_NOT_REGISTERED, so the run hears of it. Real Redis; every key is removed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { type DistributedWorker, startWorker, type WorkerOptions } from '../../src/distributed/worker.ts';
import { dag } from '../../src/document/builder.ts';
import { libraryOf } from '../../src/document/load.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import { removeScratchKeys, scratchPrefix, TEST_REDIS } from '../store/redis-scratch.ts';

afterAll(removeScratchKeys);

const first = defineNode({
  id: 'urn:test:first',
  outputs: ['ok'],
  run: (item) => {
    item.data.first = true;
    return 'ok';
  },
});
const second = defineNode({
  id: 'urn:test:second',
  outputs: ['ok'],
  run: (item) => {
    item.data.second = `${String(item.data.n)}!`;
    return 'ok';
  },
});
const part = defineNode({
  id: 'urn:test:part',
  outputs: ['ok'],
  run: (item) => {
    item.data.result = `${String(item.data.item)}?`;
    return 'ok';
  },
});
const all = [first, second, part] as unknown as NodeDefinition<string, never>[];

const doc = dag('urn:test:split', { name: 'split', version: '1' })
  .entry('first')
  .task('first', 'urn:test:first')
  .route('ok', 'second')
  .task('second', 'urn:test:second')
  .route('ok', 'fan')
  .scatter('fan', { items: '/parts', node: 'urn:test:part' })
  .route('done', 'join')
  .gather('join', { into: '/out', reducer: 'partition', require: 'all' })
  .route('completed', 'done')
  .route('failed', 'nothing')
  .terminal('done', 'completed')
  .terminal('nothing', 'failed')
  .build();

const items = Array.from({ length: 12 }, (_x, n) => ({ n, parts: ['x', 'y'] }));

/** A worker with some of the nodes, whose log lines are kept. */
async function worker(
  prefix: string,
  nodes: readonly NodeDefinition<string, never>[],
  handBack: WorkerOptions['handBack'],
): Promise<{ worker: DistributedWorker; lines: string[] }> {
  const lines: string[] = [];
  const started = await startWorker({
    connection: TEST_REDIS,
    nodes,
    prefix,
    concurrency: 4,
    ...(handBack === undefined ? {} : { handBack }),
    log: (line) => void lines.push(line),
  });
  return { worker: started, lines };
}

describe('a worker that lacks a node', () => {
  // The bound only guards against a hang: how long the jobs bounce between the two workers before the full
  // one takes each varies from under a second to over ten here (BullMQ's delayed jobs and blocking fetches).
  it('leaves the job for a worker that has it and says so once', { timeout: 120_000 }, async () => {
    const prefix = scratchPrefix();
    const lacking = await worker(prefix, [first] as never, { delayMs: 10, capMs: 50 });
    const dispatcher = await createDistributedDispatcher({ connection: TEST_REDIS, nodes: all, prefix });
    let full: Awaited<ReturnType<typeof worker>> | undefined;
    try {
      const run = dispatcher.run(doc, {}, { items });
      // Alone, the lacking worker takes every item through `first` and hands each back at `second`.
      while (lacking.lines.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      full = await worker(prefix, all, undefined);
      const result = await run;
      const expected = await createDispatcher({ nodes: all }).run(doc, {}, { items });
      expect(result.status).toBe('completed');
      expect(result.items.map((i) => ({ id: i.id, terminal: i.terminal, data: i.data }))).toEqual(
        expected.items.map((i) => ({ id: i.id, terminal: i.terminal, data: i.data })),
      );
      expect(result.stats.executions).toBe(expected.stats.executions);
      // One line per missing node, however many jobs it handed back.
      expect(lacking.lines).toHaveLength(lacking.lines.some((l) => l.includes('urn:test:part')) ? 2 : 1);
      expect(lacking.lines[0]).toMatch(
        /^switchyard worker: this worker does not register node 'urn:test:second' \(placement 'second' of DAG 'urn:test:split'\); it leaves such jobs for workers that do/,
      );
      expect(full.lines).toEqual([]);
    } finally {
      await dispatcher.close();
      await lacking.worker.close();
      await full?.worker.close();
    }
  });

  it('fails the item with E_NODE_NOT_REGISTERED when no worker takes it in time', {
    timeout: 30_000,
  }, async () => {
    const prefix = scratchPrefix();
    const handBack = { delayMs: 10, capMs: 40, giveUpAfterMs: 300 };
    const lacking = await worker(prefix, [first] as never, handBack);
    const dispatcher = await createDistributedDispatcher({ connection: TEST_REDIS, nodes: all, prefix });
    try {
      const result = await dispatcher.run(doc, {}, { items: items.slice(0, 3) });
      expect(result.status).toBe('failed');
      expect(result.items).toEqual([]);
      expect(result.failures.map((f) => [f.id, f.placement, f.error.code])).toEqual([
        ['1', 'second', 'E_NODE_NOT_REGISTERED'],
        ['2', 'second', 'E_NODE_NOT_REGISTERED'],
        ['3', 'second', 'E_NODE_NOT_REGISTERED'],
      ]);
      expect(result.failures[0]?.error.message).toMatch(
        /^item 1 was handed back \d+ times in 300 ms at placement 'second': no worker that took it registers node 'urn:test:second'; start a worker whose --nodes module registers it$/,
      );
      expect(lacking.lines).toHaveLength(1);
    } finally {
      await dispatcher.close();
      await lacking.worker.close();
    }
  });

  it('fails a scatter child whose body node no worker has, and the gather hears of it', {
    timeout: 30_000,
  }, async () => {
    const prefix = scratchPrefix();
    const handBack = { delayMs: 10, capMs: 40, giveUpAfterMs: 300 };
    const lacking = await worker(prefix, [first, second] as never, handBack);
    const dispatcher = await createDistributedDispatcher({ connection: TEST_REDIS, nodes: all, prefix });
    try {
      const result = await dispatcher.run(doc, {}, { items: items.slice(0, 2) });
      expect(result.items.map((i) => i.terminal)).toEqual(['nothing', 'nothing']);
      const out = result.items[0]?.data.out as { failed: { index: number; error: { code: string } }[] };
      expect(out.failed.map((f) => [f.index, f.error.code])).toEqual([
        [0, 'E_NODE_NOT_REGISTERED'],
        [1, 'E_NODE_NOT_REGISTERED'],
      ]);
      expect(lacking.lines).toHaveLength(1);
      expect(lacking.lines[0]).toContain("node 'urn:test:part'");
    } finally {
      await dispatcher.close();
      await lacking.worker.close();
    }
  });

  it('gives an embed whose document needs a node no worker has that error, for its error route', {
    timeout: 30_000,
  }, async () => {
    const prefix = scratchPrefix();
    const handBack = { delayMs: 10, capMs: 40, giveUpAfterMs: 300 };
    const lacking = await worker(prefix, [first] as never, handBack);
    const inner = dag('urn:test:inner', { name: 'inner', version: '1' })
      .entry('second')
      .task('second', 'urn:test:second')
      .route('ok', 'done')
      .terminal('done', 'completed')
      .build();
    const outer = dag('urn:test:outer', { name: 'outer', version: '1' })
      .entry('first')
      .task('first', 'urn:test:first')
      .route('ok', 'inner')
      .embed('inner', 'urn:test:inner')
      .route('completed', 'done')
      .route('failed', 'broken')
      .route('error', 'broken')
      .terminal('done', 'completed')
      .terminal('broken', 'failed')
      .build();
    const library = libraryOf([inner]);
    const dispatcher = await createDistributedDispatcher({
      connection: TEST_REDIS,
      nodes: all,
      prefix,
      library,
    });
    try {
      const result = await dispatcher.run(outer, {}, { items: [{ n: 1 }] });
      expect(result.items.map((i) => [i.terminal, i.data.first])).toEqual([['broken', true]]);
      expect(lacking.lines).toHaveLength(1);
      expect(lacking.lines[0]).toContain(
        "node 'urn:test:second' (placement 'second' of DAG 'urn:test:inner')",
      );
    } finally {
      await dispatcher.close();
      await lacking.worker.close();
    }
  });
});
